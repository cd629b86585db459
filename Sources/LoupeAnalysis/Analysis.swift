/// # LoupeAnalysis: text → terms and positions
///
/// This leaf module turns a text value into the terms the engine indexes and the query parser looks up.
/// It knows nothing about indexes: it takes UTF-8 bytes and hands back term bytes with positions.
///
/// ## Pieces
/// - A ``Tokenizer`` cuts a value into tokens (``SimpleTokenizer``, ``WhitespaceTokenizer``, ``RawTokenizer``).
/// - A ``TokenFilter`` edits or drops the tokens of one value at a time, in a reusable ``TokenBuffer``
///   (``RemoveLongFilter``, ``LowerCaser``, ``AsciiFoldingFilter``, ``StopWordFilter``, ``Stemmer``).
/// - A ``TextAnalyzer`` is a tokenizer plus filters; an ``AnalyzerRegistry`` names them.
/// - An ``AnalysisSession`` runs one analyzer over many values, reusing its buffers, so the per-document
///   hot path allocates nothing per token once the buffers have grown.
///
/// ## Invariants
/// - Positions are token ordinals assigned by the tokenizer, starting at 0 for each value. A filter that
///   drops a token never renumbers the others, so a dropped token still consumes its position.
/// - Offsets are byte offsets into the value's UTF-8 and always fall on scalar boundaries.
/// - Terms are UTF-8 whenever the input is; invalid input bytes never crash a tokenizer. The word
///   tokenizer treats each invalid byte as a separator, the others pass it through.
/// - Filters run once per value over the whole buffer, so an `any TokenFilter` costs one dynamic call
///   per value, not per token. The built-in analyzers skip the buffer entirely and run fused loops.
///
/// ## tantivy 0.27 compatibility
/// The built-in analyzers reproduce tantivy's `TokenizerManager` entries token for token, checked against
/// goldens made with the tantivy Python package (`Tests/LoupeAnalysisTests/Fixtures/make_goldens.py`):
/// - `default`: `SimpleTokenizer` → `RemoveLongFilter(40)` → `LowerCaser`. A token is a maximal run of
///   scalars for which Rust's `char::is_alphanumeric` holds (Alphabetic, or general category Nd, Nl, No).
///   The length limit counts UTF-8 bytes *before* lowercasing and keeps tokens strictly shorter than it.
///   Lowercasing is Rust's per-`char` `to_lowercase`: full mappings (`İ` → `i̇`), no final-sigma rule.
/// - `en_stem`: `default` followed by the Snowball English (Porter2) stemmer, Snowball 3.1.1 rules.
/// - `raw`: the whole value as one token, even when empty. `lowercase` (not in tantivy) is `raw` lowercased.
/// - `whitespace`: tantivy's `WhitespaceTokenizer` alone, which splits on ASCII whitespace only
///   (space, tab, LF, FF, CR — not VT, not U+00A0), keeps case and has no length limit.
///
/// What tantivy's indexer does after analysis is mirrored by ``AnalysisSession/analyze(_:startPosition:_:)``:
/// tokens longer than ``AnalysisLimits/maxIndexedTokenByteCount`` are dropped without consuming the value's
/// end position, and the summary reports the token count (for field norms) and the end position (to which
/// the engine adds ``AnalysisLimits/positionGap`` between the values of a multi-valued field).
package enum AnalysisLimits {
    /// tantivy's `MAX_TOKEN_LEN` (`u16::MAX - 5`). Loupe's dictionary could hold longer keys, but dropping
    /// them keeps the indexed terms identical to tantivy's, and no query can usefully name such a term.
    package static let maxIndexedTokenByteCount = 65_530

    /// tantivy's `POSITION_GAP`: the positions left empty between two values of one field, so that a
    /// phrase query never matches across values.
    package static let positionGap = 1

    /// The byte limit of `RemoveLongFilter` in tantivy's `default` and `en_stem` analyzers.
    package static let defaultTokenByteLimit = 40
}

/// What one ``AnalysisSession/analyze(_:startPosition:_:)`` call emitted.
public struct AnalysisSummary: Sendable, Hashable {
    /// The number of tokens handed to the sink: the value's contribution to the field norm.
    public var tokenCount: Int

    /// One past the highest position handed to the sink, or the start position when none was.
    ///
    /// A dropped trailing token does not move it, exactly as tantivy's `end_position`. The next value of
    /// the same field starts at `endPosition + 1` (tantivy's `POSITION_GAP`).
    public var endPosition: Int

    /// Creates a summary; the engine builds these only in tests.
    public init(tokenCount: Int, endPosition: Int) {
        self.tokenCount = tokenCount
        self.endPosition = endPosition
    }
}
