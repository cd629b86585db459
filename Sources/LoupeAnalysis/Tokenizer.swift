/// Cuts one text value into tokens: the first stage of a ``TextAnalyzer``.
///
/// Implementations append tokens to the buffer in order, numbering positions from 0 for each value
/// (a token's position is its ordinal, unless the tokenizer means to leave gaps). The buffer arrives
/// empty. The call runs once per value, so a dynamic call through `any Tokenizer` is cheap next to it.
public protocol Tokenizer: Sendable {
    /// Appends the tokens of `text` (UTF-8 bytes) to `tokens`.
    func tokenize(_ text: Span<UInt8>, into tokens: inout TokenBuffer)
}

/// Edits or drops the tokens of one value: a later stage of a ``TextAnalyzer``.
///
/// A filter sees the whole value at once, so a pipeline pays one dynamic call per filter and value, not
/// per token. To drop a token, remove it and leave the other positions alone: a dropped token still
/// consumes its position, as in tantivy.
public protocol TokenFilter: Sendable {
    /// Transforms `tokens` in place.
    func filter(_ tokens: inout TokenBuffer)
}
