/// A tokenizer followed by token filters: how the text of one field becomes terms.
///
/// Build custom analyzers from any ``Tokenizer`` and ``TokenFilter`` values; the built-in ones (see
/// ``AnalyzerRegistry/builtIn``) run fused, allocation-free loops instead of the generic buffer pipeline.
/// Run an analyzer through an ``AnalysisSession`` on the hot path, or ``tokens(_:)`` to inspect it.
public struct TextAnalyzer: Sendable {
    /// How the analyzer runs: one of the fused built-in loops, or the generic pipeline.
    enum Pipeline: Sendable {
        /// `SimpleTokenizer` → `RemoveLongFilter(40)` → `LowerCaser`, then the English stemmer if `stemmed`.
        case words(stemmed: Bool)
        /// `RawTokenizer`, then `LowerCaser` if `lowercased`.
        case raw(lowercased: Bool)
        /// `WhitespaceTokenizer` alone.
        case whitespace
        /// Any tokenizer and filters, run over a ``TokenBuffer``.
        case custom(tokenizer: any Tokenizer, filters: [any TokenFilter])
    }

    /// The pipeline this analyzer runs.
    let pipeline: Pipeline

    /// Creates an analyzer running `tokenizer`, then each filter in order, over every value.
    public init(tokenizer: some Tokenizer, filters: [any TokenFilter] = []) {
        pipeline = .custom(tokenizer: tokenizer, filters: filters)
    }

    /// Creates an analyzer with a given pipeline; used for the fused built-ins.
    init(pipeline: Pipeline) {
        self.pipeline = pipeline
    }

    /// tantivy's `default`: words, lowercased, tokens of 40 bytes or more dropped.
    package static let standard = TextAnalyzer(pipeline: .words(stemmed: false))

    /// tantivy's `en_stem`: ``standard`` followed by the English stemmer.
    package static let englishStem = TextAnalyzer(pipeline: .words(stemmed: true))

    /// tantivy's `raw`: the whole value as one term.
    package static let raw = TextAnalyzer(pipeline: .raw(lowercased: false))

    /// The whole value as one lowercased term (no tantivy equivalent by name).
    package static let lowercase = TextAnalyzer(pipeline: .raw(lowercased: true))

    /// tantivy's `whitespace`: runs between ASCII whitespace, unchanged.
    package static let whitespace = TextAnalyzer(pipeline: .whitespace)

    /// The tokens of `text` with their positions and byte offsets, as tantivy's `TextAnalyzer` emits
    /// them (tokens over tantivy's indexing limit included). Allocates per token: for tests and tools.
    public func tokens(_ text: String) -> [Token] {
        var session = AnalysisSession(self)
        // A copy: `String.UTF8View.span` needs macOS 26 / iOS 26, a `ContiguousArray`'s span does not.
        let bytes = ContiguousArray(text.utf8)
        var result: [Token] = []
        session.run(bytes.span) { term, position, offsetFrom, offsetTo in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(term.count)
            for index in term.indices {
                bytes.append(term[index])
            }
            result.append(Token(bytes: bytes, position: position, offsetFrom: offsetFrom, offsetTo: offsetTo))
        }
        return result
    }
}
