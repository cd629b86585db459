/// Byte-level helpers shared by the tokenizers and filters: UTF-8 decoding and the character classes
/// tantivy's tokenizers use, with ASCII answered from the byte alone.
enum UTF8Scanning {
    /// Decodes the scalar starting at `index`, or reports an invalid sequence as a 1-byte unit.
    ///
    /// Rejects overlong forms, surrogates and values past U+10FFFF, exactly as Swift's own validation,
    /// so every byte of invalid input is handled and nothing traps.
    ///
    /// - Precondition: `index` is in `text.indices` and `text[index]` is not ASCII.
    static func decodeNonASCII(_ text: Span<UInt8>, at index: Int) -> (scalar: Unicode.Scalar?, length: Int) {
        let lead = text[index]
        let remaining = text.count - index
        switch lead {
        case 0xC2...0xDF:
            guard remaining >= 2, isContinuation(text[index + 1]) else { return (nil, 1) }
            let value = UInt32(lead & 0x1F) << 6 | UInt32(text[index + 1] & 0x3F)
            return (Unicode.Scalar(value), 2)
        case 0xE0...0xEF:
            guard remaining >= 3 else { return (nil, 1) }
            let second = text[index + 1]
            let secondRange: ClosedRange<UInt8> =
                switch lead {
                case 0xE0: 0xA0...0xBF
                case 0xED: 0x80...0x9F
                default: 0x80...0xBF
                }
            guard secondRange.contains(second), isContinuation(text[index + 2]) else { return (nil, 1) }
            let value = UInt32(lead & 0x0F) << 12 | UInt32(second & 0x3F) << 6 | UInt32(text[index + 2] & 0x3F)
            return (Unicode.Scalar(value), 3)
        case 0xF0...0xF4:
            guard remaining >= 4 else { return (nil, 1) }
            let second = text[index + 1]
            let secondRange: ClosedRange<UInt8> =
                switch lead {
                case 0xF0: 0x90...0xBF
                case 0xF4: 0x80...0x8F
                default: 0x80...0xBF
                }
            guard secondRange.contains(second), isContinuation(text[index + 2]), isContinuation(text[index + 3])
            else { return (nil, 1) }
            let value =
                UInt32(lead & 0x07) << 18 | UInt32(second & 0x3F) << 12 | UInt32(text[index + 2] & 0x3F) << 6
                | UInt32(text[index + 3] & 0x3F)
            return (Unicode.Scalar(value), 4)
        default:
            return (nil, 1)
        }
    }

    /// Whether `byte` is a UTF-8 continuation byte (`10xxxxxx`).
    @inline(__always)
    static func isContinuation(_ byte: UInt8) -> Bool {
        byte & 0xC0 == 0x80
    }

    /// Rust's `char::is_alphanumeric` for an ASCII byte: `0-9`, `A-Z`, `a-z`.
    @inline(__always)
    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10
    }

    /// Whether `byte` is an ASCII capital letter.
    @inline(__always)
    static func isASCIIUppercase(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "A") < 26
    }

    /// Rust's `char::is_alphanumeric` for a non-ASCII scalar: Alphabetic, or general category Nd, Nl, No.
    ///
    /// Checked against tantivy for every scalar by the `chars.golden.tsv` test.
    static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isAlphabetic {
            return true
        }
        switch properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// Rust's `char::is_ascii_whitespace`, which tantivy's `WhitespaceTokenizer` splits on: space, tab,
    /// line feed, form feed and carriage return (not vertical tab).
    @inline(__always)
    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0C, 0x0D: true
        default: false
        }
    }
}
