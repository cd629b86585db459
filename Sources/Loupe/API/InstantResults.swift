/// What one keystroke of a search bar gets back from `instantSearch`: the best hits, how many documents match,
/// the facet counts asked for, and completions of what is being typed. A collection of its hits, so
/// `for hit in results` and `results.first` read as they do on an array.
public struct InstantResults: Sendable, RandomAccessCollection {
    /// The text searched.
    public let query: String
    /// The best hits, best first: fewer typos, then BM25, then the popularity field, then index order.
    public let hits: [SearchHit]
    /// How many documents match (exact).
    public let totalCount: Int
    /// Per facet field asked for, its values held by the most matching documents, most first.
    public let facets: [String: [FacetCount]]
    /// Completions of the text, best first (see `Searcher.suggest`).
    public let suggestions: [Suggestion]

    package init(
        query: String, hits: [SearchHit], totalCount: Int, facets: [String: [FacetCount]], suggestions: [Suggestion]
    ) {
        self.query = query
        self.hits = hits
        self.totalCount = totalCount
        self.facets = facets
        self.suggestions = suggestions
    }

    /// 0.
    public var startIndex: Int { hits.startIndex }
    /// The number of hits.
    public var endIndex: Int { hits.endIndex }
    /// The hit at `position`, best first.
    public subscript(position: Int) -> SearchHit { hits[position] }
}

/// A completion of the text being typed, as `suggest` returns it.
public struct Suggestion: Sendable, Hashable {
    /// Where a suggestion comes from.
    public enum Source: String, Sendable, Hashable, Codable {
        /// A term of the index completing the last word.
        case index
        /// An earlier search from the `SearchHistory` that starts with the text.
        case history
    }

    /// The completed text: the words typed before the last one, kept as typed, then the completion.
    public let text: String
    /// How many documents hold the completion (with the earlier words, when there are any).
    public let count: Int
    /// The vocabulary or the search history.
    public let source: Source
    /// The part of `text` that the typed text matched, to show in bold.
    public let matchedRange: Range<String.Index>
    /// Typos between the typed last word and the start of its completion (0 for history entries).
    public let typos: Int

    /// A suggestion as `suggest` makes it (and as tests compare them).
    public init(text: String, count: Int, source: Source, matchedRange: Range<String.Index>, typos: Int) {
        self.text = text
        self.count = count
        self.source = source
        self.matchedRange = matchedRange
        self.typos = typos
    }
}
