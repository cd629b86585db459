/// tantivy's `SimpleTokenizer`: a token is a maximal run of alphanumeric scalars.
///
/// Alphanumeric is Rust's `char::is_alphanumeric` (Alphabetic, or general category Nd, Nl, No), so
/// `l'été` gives `l` and `été`, `C++` gives `C`, `x²` gives one token and `3.14` gives `3` and `14`.
/// Everything else, punctuation, symbols, emoji and combining marks that are not Alphabetic, separates.
/// Invalid UTF-8 bytes separate too.
public struct SimpleTokenizer: Tokenizer {
    /// Creates the tokenizer.
    public init() {}

    /// Appends one token per alphanumeric run, positions 0, 1, 2…
    public func tokenize(_ text: Span<UInt8>, into tokens: inout TokenBuffer) {
        var position = 0
        Self.forEachWord(in: text) { start, end, _ in
            tokens.append(text.extracting(start..<end), position: position, offsetFrom: start, offsetTo: end)
            position += 1
        }
    }
}

/// What the word scanner learned about a word while finding it, so callers can pick a fast path.
struct WordShape {
    /// The word contains `A`–`Z`.
    var hasUppercaseASCII: Bool

    /// The word contains a scalar outside ASCII.
    var hasNonASCII: Bool
}

extension SimpleTokenizer {
    /// Calls `body` with the byte range and shape of each alphanumeric run, in order.
    ///
    /// Each byte is classified once. ASCII is answered from the byte, letters first since they are the
    /// most common; other scalars are decoded and looked up in the stdlib's Unicode properties.
    @inline(__always)
    static func forEachWord(in text: Span<UInt8>, _ body: (_ start: Int, _ end: Int, _ shape: WordShape) -> Void) {
        let count = text.count
        var index = 0
        while index < count {
            let byte = text[index]
            if byte < 0x80 {
                if !UTF8Scanning.isASCIIAlphanumeric(byte) {
                    index += 1
                    continue
                }
            } else {
                let (scalar, length) = UTF8Scanning.decodeNonASCII(text, at: index)
                guard let scalar, UTF8Scanning.isAlphanumeric(scalar) else {
                    index += length
                    continue
                }
            }
            let start = index
            // ANDed over the ASCII bytes: `0x20` survives only if none is a capital, because digits and
            // lowercase letters have that bit set and capitals do not.
            var asciiBits: UInt8 = 0xFF
            var hasNonASCII = false
            var separatorLength = 0
            while index < count {
                let byte = text[index]
                if UTF8Scanning.isASCIIAlphanumeric(byte) {
                    asciiBits &= byte
                    index += 1
                    continue
                }
                if byte < 0x80 {
                    separatorLength = 1
                    break
                }
                let (scalar, length) = UTF8Scanning.decodeNonASCII(text, at: index)
                guard let scalar, UTF8Scanning.isAlphanumeric(scalar) else {
                    separatorLength = length
                    break
                }
                hasNonASCII = true
                index += length
            }
            body(start, index, WordShape(hasUppercaseASCII: asciiBits & 0x20 == 0, hasNonASCII: hasNonASCII))
            index += separatorLength
        }
    }
}
