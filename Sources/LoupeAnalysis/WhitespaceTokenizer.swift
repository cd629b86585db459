/// tantivy's `WhitespaceTokenizer`: tokens are the runs between ASCII whitespace.
///
/// Only space, tab, line feed, form feed and carriage return separate (Rust's `is_ascii_whitespace`);
/// U+00A0, U+3000 and vertical tab stay inside tokens. Case and punctuation are kept.
public struct WhitespaceTokenizer: Tokenizer {
    /// Creates the tokenizer.
    public init() {}

    /// Appends one token per whitespace-separated run, positions 0, 1, 2…
    public func tokenize(_ text: Span<UInt8>, into tokens: inout TokenBuffer) {
        var position = 0
        Self.forEachRun(in: text) { start, end in
            tokens.append(text.extracting(start..<end), position: position, offsetFrom: start, offsetTo: end)
            position += 1
        }
    }

    /// Calls `body` with the byte range of each run between ASCII whitespace, in order.
    ///
    /// Works on bytes alone: ASCII whitespace never occurs inside a multi-byte UTF-8 sequence.
    @inline(__always)
    static func forEachRun(in text: Span<UInt8>, _ body: (_ start: Int, _ end: Int) -> Void) {
        let count = text.count
        var index = 0
        while index < count {
            if UTF8Scanning.isASCIIWhitespace(text[index]) {
                index += 1
                continue
            }
            let start = index
            while index < count, !UTF8Scanning.isASCIIWhitespace(text[index]) {
                index += 1
            }
            body(start, index)
        }
    }
}
