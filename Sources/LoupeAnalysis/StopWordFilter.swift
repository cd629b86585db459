/// tantivy's `StopWordFilter`: drops tokens whose term is in a word list.
///
/// Terms are compared byte for byte, so put the filter after ``LowerCaser`` when the list is lowercase.
/// A dropped token still consumes its position, so a phrase query over a stop word keeps its gap.
public struct StopWordFilter: TokenFilter {
    /// The words to drop.
    let words: TermSet

    /// Creates a filter dropping the given words.
    public init(_ words: some Sequence<String>) {
        self.words = TermSet(words.map { Array($0.utf8) })
    }

    /// tantivy's English list (`StopWordFilter::new(Language::English)`), which is Lucene's
    /// `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`: 33 function words.
    public static let english = StopWordFilter([
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not",
        "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was",
        "will", "with",
    ])

    /// Drops the stop words.
    public func filter(_ tokens: inout TokenBuffer) {
        tokens.removeAll { term in words.contains(term) }
    }
}
