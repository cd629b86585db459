/// Where a string's unescaped UTF-8 bytes are, as ``JSONPullReader`` reads it.
package enum JSONStringBytes {
    /// The string has no escape: its bytes are this range of the input, between the quotes.
    case input(Range<Int>)
    /// The string has escapes: its bytes unescaped.
    case unescaped([UInt8])
}

extension JSONReader {
    /// Reads a string starting at its opening quote and returns its unescaped UTF-8 bytes.
    mutating func parseString() throws(JSONError) -> [UInt8] {
        switch try scanString() {
        case .input(let range): unsafe Array(UnsafeRawBufferPointer(rebasing: bytes[range]))
        case .unescaped(let unescaped): unescaped
        }
    }

    /// Reads a string starting at its opening quote: the range of the input it spans when it has no escape (nothing
    /// is copied), or a copy of its unescaped bytes.
    mutating func scanString() throws(JSONError) -> JSONStringBytes {
        let opening = position
        position += 1
        var runStart = position
        try skipPlainRun()
        if peek() == UInt8(ascii: "\"") {
            position += 1
            return .input(runStart..<position - 1)
        }
        unescaped.removeAll(keepingCapacity: true)
        // Unescaping never lengthens text, so the rest of the input bounds the string; the cap keeps
        // one escape early in a large file from reserving the whole file.
        unescaped.reserveCapacity(min(end - runStart, 1 << 16))
        while true {
            unsafe unescaped.append(
                contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<position]).assumingMemoryBound(
                    to: UInt8.self))
            switch peek() {
            case UInt8(ascii: "\""):
                position += 1
                // A copy, not `unescaped` itself: sharing would make the next string reallocate it.
                return .unescaped(unsafe unescaped.withUnsafeBytes { unsafe Array($0) })
            case UInt8(ascii: "\\"):
                try appendEscape()
            default:
                throw failure("expected '\"' to close the string opened at byte \(opening), found end of input")
            }
            runStart = position
            try skipPlainRun()
        }
    }

    /// Advances over bytes that need no unescaping, up to the next quote, backslash or the end of
    /// input. Rejects control characters and validates non-ASCII bytes as UTF-8 on the way.
    @inline(__always)
    mutating func skipPlainRun() throws(JSONError) {
        while true {
            position = firstStopByte(from: position)
            guard position < end else { return }
            let byte = unsafe bytes[position]
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""):
                return
            case 0..<0x20:
                throw failure("unescaped control character \(Self.hex(byte)) in string")
            default:
                try skipUTF8Sequence()
            }
        }
    }

    /// The index of the first byte at or after `start` that ``stopBytes(in:)`` marks, or `end`.
    ///
    /// Assumptions: `start <= end`. Words are read only while all eight bytes are in bounds; the
    /// tail is checked byte by byte. A local cursor (rather than `position`) keeps the loop in
    /// registers.
    @inline(__always)
    func firstStopByte(from start: Int) -> Int {
        var index = start
        while index &+ 8 <= end {
            let word = UInt64(littleEndian: unsafe bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let stops = Self.stopBytes(in: word)
            if stops != 0 { return index &+ stops.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        while index < end {
            let byte = unsafe bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return index }
            index &+= 1
        }
        return end
    }

    /// Marks, with its high bit, each byte of the little-endian `word` that ends a plain run:
    /// `"`, `\`, a control character (< 0x20) or a non-ASCII byte.
    ///
    /// The zero-byte tests borrow across byte lanes, so marks *above* the first real match may be
    /// false; the lowest mark is always exact, and it is the only one the scanner uses.
    /// See "Determine if a word has a byte less than n", Bit Twiddling Hacks (Sean Eron Anderson).
    @inline(__always)
    static func stopBytes(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let hasQuote = (quotes &- ones) & ~quotes
        let hasBackslash = (backslashes &- ones) & ~backslashes
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl | word) & highBits
    }

    /// Steps over one UTF-8 encoded scalar whose lead byte (≥ 0x80) is at `position`, rejecting
    /// overlong forms, surrogates, values above U+10FFFF and truncated sequences (Unicode 15,
    /// table 3-7).
    mutating func skipUTF8Sequence() throws(JSONError) {
        let lead = unsafe bytes[position]
        let continuationCount: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: continuationCount = 1
        case 0xE0:
            continuationCount = 2
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: continuationCount = 2
        case 0xED:
            continuationCount = 2
            secondRange = 0x80...0x9F
        case 0xF0:
            continuationCount = 3
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: continuationCount = 3
        case 0xF4:
            continuationCount = 3
            secondRange = 0x80...0x8F
        default: throw invalidUTF8()
        }
        guard position + continuationCount < end,
            secondRange.contains(unsafe bytes[position + 1])
        else { throw invalidUTF8() }
        for offset in stride(from: 2, through: continuationCount, by: 1) {
            guard (0x80...0xBF).contains(unsafe bytes[position + offset]) else { throw invalidUTF8() }
        }
        position += continuationCount + 1
    }

    @inline(never)
    func invalidUTF8() -> JSONError {
        failure("invalid UTF-8 sequence starting with byte \(Self.hex(unsafe bytes[position]))")
    }

    /// Decodes the escape sequence at `position` (a backslash) into `unescaped`.
    mutating func appendEscape() throws(JSONError) {
        let escapeStart = position
        position += 1
        guard let code = peek() else {
            throw failure("expected an escape character after '\\', found end of input")
        }
        position += 1
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(code)
        case UInt8(ascii: "b"): unescaped.append(0x08)
        case UInt8(ascii: "f"): unescaped.append(0x0C)
        case UInt8(ascii: "n"): unescaped.append(0x0A)
        case UInt8(ascii: "r"): unescaped.append(0x0D)
        case UInt8(ascii: "t"): unescaped.append(0x09)
        case UInt8(ascii: "u"): appendUTF8(try readUnicodeEscape(startingAt: escapeStart))
        default:
            throw failure(
                "invalid escape: expected one of \" \\ / b f n r t u after '\\', found \(describeByte(at: position - 1))",
                at: position - 1)
        }
    }

    /// Reads the hex digits of a `\u` escape (and of its low surrogate, if it is a high one) and
    /// returns the scalar value; `position` is just past `\u`.
    mutating func readUnicodeEscape(startingAt escapeStart: Int) throws(JSONError) -> UInt32 {
        let unit = try readHexQuad()
        switch unit {
        case 0xD800...0xDBFF:
            guard peek() == UInt8(ascii: "\\"), position + 1 < end,
                unsafe bytes[position + 1] == UInt8(ascii: "u")
            else {
                throw failure(
                    "unpaired high surrogate escape: expected a '\\u' low surrogate to follow", at: escapeStart)
            }
            let lowStart = position
            position += 2
            let low = try readHexQuad()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw failure("high surrogate escape followed by a non-low-surrogate escape", at: lowStart)
            }
            return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        case 0xDC00...0xDFFF:
            throw failure("unpaired low surrogate escape", at: escapeStart)
        default:
            return unit
        }
    }

    mutating func readHexQuad() throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let digit: UInt32
            switch peek() {
            case let byte? where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
                digit = UInt32(byte - UInt8(ascii: "0"))
            case let byte? where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte):
                digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case let byte? where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte):
                digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default:
                throw failure("expected 4 hex digits after '\\u', found \(describeByte(at: position))")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// Appends the UTF-8 encoding of a scalar value (never a surrogate, at most U+10FFFF).
    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            unescaped.append(UInt8(scalar))
        case 0x80..<0x800:
            unescaped.append(0xC0 | UInt8(scalar >> 6))
            unescaped.append(0x80 | UInt8(scalar & 0x3F))
        case 0x800..<0x10000:
            unescaped.append(0xE0 | UInt8(scalar >> 12))
            unescaped.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            unescaped.append(0x80 | UInt8(scalar & 0x3F))
        default:
            unescaped.append(0xF0 | UInt8(scalar >> 18))
            unescaped.append(0x80 | UInt8(scalar >> 12 & 0x3F))
            unescaped.append(0x80 | UInt8(scalar >> 6 & 0x3F))
            unescaped.append(0x80 | UInt8(scalar & 0x3F))
        }
    }
}
