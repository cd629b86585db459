/// Instant search: one call per keystroke of a search bar (Docs/INSTANT-SEARCH.md).
extension Searcher {
    /// The best hits for text being typed, how many documents match, facet counts and suggestions, in one call.
    ///
    /// The text is read as `Query.instant` reads it: every word a term and the last one a prefix (unless the text
    /// ends with a space), each within its typo budget, every word in at least one of `fields`. Hits rank by fewer
    /// typos, then BM25, then `popularity` (larger first), then index order. Typos are looked for only when the
    /// words as typed match fewer than `limit` documents (Typesense's rule): with that many, every hit would have
    /// no typo anyway, and `totalCount` and the facets count the matches as typed.
    ///
    /// - Parameters:
    ///   - fields: the text or string fields searched; empty means the schema's default fields.
    ///   - facets: fast fields whose values to count over every match (`facetLimit` most frequent each).
    ///   - filter: a query every hit must also match; it does not change scores.
    ///   - popularity: a fast u64, i64 or f64 field breaking ties between equally scored hits, and ranking the
    ///     suggestions.
    ///   - suggestions: how many completions to return, of the first of `fields` (see `suggest`).
    ///   - history: searches whose start matches come first among the suggestions.
    /// - Throws: `IndexError` `.invalidQuery` for fields that are not text or string fields, `.invalidArgument` for
    ///   a negative limit, a facet field that is not fast or a bad popularity field, `.corruption` for damaged
    ///   postings or stored documents.
    public func instantSearch(
        _ text: String, fields: [String] = [], limit: Int = 10, facets: [String] = [], facetLimit: Int = 10,
        typoTolerance: TypoTolerance = .default, filter: Query? = nil, popularity: String? = nil,
        suggestions: Int = 5, history: SearchHistory? = nil
    ) throws(IndexError) -> InstantResults {
        guard limit >= 0, facetLimit >= 0, suggestions >= 0 else {
            throw IndexError(
                .invalidArgument,
                "instantSearch: limit, facetLimit and suggestions must be ≥ 0 (got \(limit), \(facetLimit), \(suggestions))"
            )
        }
        let facetFields = try facets.map { (name) throws(IndexError) in try facetField(name, for: "instantSearch") }
        let popular = try popularity.map { (name) throws(IndexError) in try Popularity(schema: schema, field: name) }
        let query: Query
        let addresses: [(score: Float, address: DocAddress)]
        let counts: FacetCountsCollector
        if limit == 0 {
            (query, _, counts) = try instantPass(
                text, fields: fields, limit: limit, typoTolerance: typoTolerance, filter: filter, facets: facetFields,
                ranking: CountCollector())
            addresses = []
        } else if let popular {
            let top: PopularTopDocsCollector
            (query, top, counts) = try instantPass(
                text, fields: fields, limit: limit, typoTolerance: typoTolerance, filter: filter, facets: facetFields,
                ranking: PopularTopDocsCollector(k: limit, field: popular.field))
            addresses = top.sorted().map { ($0.score, $0.address) }
        } else {
            let top: TopDocsCollector
            (query, top, counts) = try instantPass(
                text, fields: fields, limit: limit, typoTolerance: typoTolerance, filter: filter, facets: facetFields,
                ranking: TopDocsCollector(k: limit, countLimit: 0))
            addresses = top.sorted().map { ($0.score, $0.address) }
        }
        let highlighter = Highlighter(searcher: self, query: query)
        var hits: [SearchHit] = []
        hits.reserveCapacity(addresses.count)
        for (score, address) in addresses {
            hits.append(SearchHit(score: score, document: try document(address), highlighter: highlighter))
        }
        var facetCounts: [String: [FacetCount]] = [:]
        for (i, facet) in facetFields.enumerated() {
            facetCounts[facet.name] = counts.facets[i].top(facetLimit, type: facet.type)
        }
        let completions =
            suggestions == 0
            ? []
            : try suggest(
                text, field: fields.first, limit: suggestions, popularity: popularity, typoTolerance: typoTolerance,
                history: history)
        return InstantResults(
            query: text, hits: hits, totalCount: counts.count, facets: facetCounts, suggestions: completions)
    }

    /// The instant query run, its best hits as `ranking` collects them, and its exhaustive count and facets, from one
    /// pass over the postings. The words as typed first; typos widen the search only when those match fewer than
    /// `limit` documents (Typesense's typo_tokens_threshold). With that many, every hit would have no typo anyway,
    /// since fewer typos always rank first; the count and facets then leave the typo matches out. The count
    /// needs every match, so the pass prunes nothing: it reads each posting once and scores it, which costs less
    /// than counting in one pass and ranking in another, as MaxScore prunes little of a union of a prefix's
    /// expansions, all weighed with the same blended idf.
    private func instantPass<Ranking: Collector>(
        _ text: String, fields: [String], limit: Int, typoTolerance: TypoTolerance, filter: Query?,
        facets: [(name: String, ordinal: Int, type: FieldType)], ranking: Ranking
    ) throws(IndexError) -> (query: Query, ranking: Ranking, counts: FacetCountsCollector) {
        func run(_ query: Query) throws(IndexError) -> PairCollector<Ranking, FacetCountsCollector> {
            let weight = try compile(filter.map { Query.allOf([query, .constantScore($0, score: 0)]) } ?? query)
            var pair = PairCollector(ranking, FacetCountsCollector(fields: facets.map(\.ordinal)))
            try collect(weight, into: &pair)
            return pair
        }
        var query = Query.instant(text: text, fields: fields, typoTolerance: .disabled)
        var pass = try run(query)
        if pass.second.count < max(limit, 1) && typoTolerance != .disabled {
            query = .instant(text: text, fields: fields, typoTolerance: typoTolerance)
            pass = try run(query)
        }
        return (query, pass.first, pass.second)
    }

    /// Completions of `text`, best first: the searches of `history` that start with it (most used, then most
    /// recent), then completions of its last word from the index, the earlier words kept as typed (`old ma` →
    /// `old man`).
    ///
    /// The last word is completed as a prefix (unless the text ends with a space), within its typo budget.
    /// Completions rank by how many documents hold them (with the earlier words: those that still match together
    /// come first), or by their documents' summed `popularity`, each typo dividing that by 16.
    ///
    /// - Parameters:
    ///   - field: the text or string field completed; nil means the schema's first default field.
    ///   - limit: at most this many suggestions (≥ 0).
    /// - Throws: `IndexError` `.invalidArgument` for a negative limit, an unindexed field or a bad popularity
    ///   field, `.invalidQuery` for a field that is not text or string, `.corruption` for damaged postings.
    public func suggest(
        _ text: String, field: String? = nil, limit: Int = 5, popularity: String? = nil,
        typoTolerance: TypoTolerance = .default, history: SearchHistory? = nil
    ) throws(IndexError) -> [Suggestion] {
        guard limit >= 0 else { throw IndexError(.invalidArgument, "suggest: limit must be ≥ 0 (got \(limit))") }
        return try Suggester(searcher: self, field: field, tolerance: typoTolerance, popularity: popularity)
            .suggestions(text, limit: limit, history: history)
    }
}

extension Index {
    /// Instant search on the current searcher (see `Searcher.instantSearch`).
    public func instantSearch(
        _ text: String, fields: [String] = [], limit: Int = 10, facets: [String] = [], facetLimit: Int = 10,
        typoTolerance: TypoTolerance = .default, filter: Query? = nil, popularity: String? = nil,
        suggestions: Int = 5, history: SearchHistory? = nil
    ) throws(IndexError) -> InstantResults {
        try searcher().instantSearch(
            text, fields: fields, limit: limit, facets: facets, facetLimit: facetLimit, typoTolerance: typoTolerance,
            filter: filter, popularity: popularity, suggestions: suggestions, history: history)
    }

    /// Completions of `text` on the current searcher (see `Searcher.suggest`).
    public func suggest(
        _ text: String, field: String? = nil, limit: Int = 5, popularity: String? = nil,
        typoTolerance: TypoTolerance = .default, history: SearchHistory? = nil
    ) throws(IndexError) -> [Suggestion] {
        try searcher().suggest(
            text, field: field, limit: limit, popularity: popularity, typoTolerance: typoTolerance, history: history)
    }
}
