/// tantivy's `RawTokenizer`: the whole value is one token at position 0, even when it is empty.
public struct RawTokenizer: Tokenizer {
    /// Creates the tokenizer.
    public init() {}

    /// Appends the whole of `text` as one token.
    public func tokenize(_ text: Span<UInt8>, into tokens: inout TokenBuffer) {
        tokens.append(text, position: 0, offsetFrom: 0, offsetTo: text.count)
    }
}
