import LoupeAnalysis

/// An immutable snapshot of an index's committed segments. Any number of threads may search one searcher at
/// once, while a writer keeps adding and committing; it never sees changes made after it was opened.
public final class Searcher: Sendable {
    package let schema: Schema
    package let segments: [SegmentReader]
    package let analyzers: AnalyzerRegistry
    /// Memory the scorers of this searcher's searches reuse.
    package let scratch: ScorerScratch
    /// The dictionary matches of the last instant-search words, which the next keystroke filters.
    package let keystrokes: KeystrokeCache
    /// The merged completions of the one- and two-byte prefixes searched so far.
    package let shortPrefixes: ShortPrefixCompletions
    /// Checked between segments by every search of this searcher: `.never`, except in the views the async calls
    /// search through (`stopping(when:)`).
    package let stop: StopCondition

    package init(schema: Schema, segments: [SegmentReader], analyzers: AnalyzerRegistry) {
        self.schema = schema
        self.segments = segments
        self.analyzers = analyzers
        scratch = ScorerScratch()
        keystrokes = KeystrokeCache()
        shortPrefixes = ShortPrefixCompletions()
        stop = .never
    }

    /// The same snapshot (segments, analyzers, scratch memory) whose searches stop, throwing `.cancelled`, once
    /// `stop` is met. The async calls run the synchronous ones on such a view, so every read — search, count,
    /// aggregation, term counts, more-like-this — checks it without a parameter of its own.
    package func stopping(when stop: StopCondition) -> Searcher {
        Searcher(sharing: self, stop: stop)
    }

    private init(sharing other: Searcher, stop: StopCondition) {
        schema = other.schema
        segments = other.segments
        analyzers = other.analyzers
        scratch = other.scratch
        keystrokes = other.keystrokes
        shortPrefixes = other.shortPrefixes
        self.stop = stop
    }

    /// Live (not deleted) documents in the snapshot.
    public var documentCount: Int { segments.reduce(0) { $0 + $1.liveCount } }

    /// Segments in the snapshot.
    public var segmentCount: Int { segments.count }

    /// The best `limit` hits after skipping `offset`, and the number of matches.
    ///
    /// - Parameters:
    ///   - orderBy: `.relevance` (BM25, best first) or any fast field (strings in byte order); ties go to the
    ///     earlier document.
    ///   - boosts: per-field factors multiplying the scores of every leaf query on that field (`["title": 2]`).
    ///   - counting: how far matches are counted (`.standard`: exactly up to 1,000, then "at least"); sorting by a
    ///     field always counts exactly.
    /// - Throws: `IndexError` `.invalidQuery` for fields the schema lacks or values of the wrong type;
    ///   `.invalidArgument` for a bad limit, offset, count limit, boost or sort field; `.corruption` if a stored
    ///   document or the postings cannot be read.
    public func search(
        _ query: Query, limit: Int = 10, offset: Int = 0, orderBy: SearchOrder = .relevance,
        boosts: [String: Float] = [:],
        counting: CountPolicy = .standard
    ) throws(IndexError) -> SearchResults {
        guard limit >= 0, offset >= 0 else {
            throw IndexError(.invalidArgument, "limit and offset must be ≥ 0 (got limit \(limit), offset \(offset))")
        }
        let (k, overflow) = limit.addingReportingOverflow(offset)
        guard !overflow else {
            throw IndexError(.invalidArgument, "limit + offset overflows (limit \(limit), offset \(offset))")
        }
        let weight = try WeightBuilder(searcher: self, boosts: boosts).build(query)
        let highlighter = Highlighter(searcher: self, query: query)
        switch orderBy {
        case .relevance:
            let top = try topDocs(weight, k: k, counting: counting)
            var hits: [SearchHit] = []
            for entry in top.sorted().dropFirst(offset) {
                hits.append(
                    SearchHit(score: entry.score, document: try document(entry.address), highlighter: highlighter))
            }
            return SearchResults(totalCount: top.count, isTotalCountExact: top.countIsExact, hits: hits)
        case .ascending(let field), .descending(let field):
            let sort = try FieldSort(schema: schema, field: field, descending: orderBy != .ascending(field))
            var top = sort.collector(k: k)
            try collect(weight, into: &top)
            var hits: [SearchHit] = []
            for entry in top.sorted().dropFirst(offset) {
                hits.append(
                    SearchHit(
                        score: entry.score, document: try document(entry.address),
                        sortValue: sort.fieldValue(of: entry),
                        highlighter: highlighter))
            }
            return SearchResults(totalCount: top.count, hits: hits)
        }
    }

    /// The best `k` hits' addresses and scores, and the count, without fetching any stored document.
    package func topDocs(_ weight: Weight, k: Int, counting: CountPolicy) throws(IndexError) -> TopDocsCollector {
        let countLimit: Int
        switch counting {
        case .exact: countLimit = .max
        case .atLeast(let n):
            guard n >= 0 else { throw IndexError(.invalidArgument, "a count limit must be ≥ 0 (got \(n))") }
            countLimit = n
        case .hitsOnly: countLimit = 0
        }
        var top = TopDocsCollector(k: k, countLimit: countLimit)
        try collect(weight, into: &top)
        return top
    }

    /// Runs `weight` over every segment into `collector`.
    /// - Throws: `IndexError` `.corruption` for damaged postings; `.cancelled` once `stop` is met (checked before
    ///   each segment).
    package func collect<C: Collector>(_ weight: Weight, into collector: inout C) throws(IndexError) {
        try SegmentSearch.run(weight, over: segments, scratch: scratch, stop: stop, into: &collector)
    }

    /// The number of documents matching `query`, without scoring.
    public func count(_ query: Query) throws(IndexError) -> Int {
        var counter = CountCollector()
        try collect(compile(query), into: &counter)
        return counter.count
    }

    /// Searches with a query string (tantivy syntax, see `parseQuery`): the best `limit` hits after skipping
    /// `offset`, and the number of matches.
    ///
    /// - Parameters:
    ///   - fields: the fields unqualified words search; empty (the default) means the schema's default fields,
    ///     or every indexed text field when it declares none.
    ///   - options: AND by default, lenient parsing.
    /// - Throws: `IndexError` `.invalidQuery` with the byte offset of a syntax error, and what `search(_ query:)`
    ///   throws.
    public func search(
        _ text: String, limit: Int = 10, offset: Int = 0, fields: [String] = [], orderBy: SearchOrder = .relevance,
        boosts: [String: Float] = [:], counting: CountPolicy = .standard, options: QueryParserOptions = .init()
    ) throws(IndexError) -> SearchResults {
        try search(
            parseQuery(text, defaultFields: fields, options: options), limit: limit, offset: offset, orderBy: orderBy,
            boosts: boosts, counting: counting)
    }

    /// The number of documents matching a query string, without scoring (see `search(_ text:)` for `fields`).
    public func count(
        _ text: String, fields: [String] = [], options: QueryParserOptions = .init()
    ) throws(IndexError)
        -> Int
    {
        try count(parseQuery(text, defaultFields: fields, options: options))
    }

    /// Parses a query string (tantivy syntax plus fuzzy, prefix and wildcard words; see Docs/QUERY-SYNTAX.md)
    /// whose unqualified words search `defaultFields`; nil or empty means the schema's default fields, or every
    /// indexed text field when the schema declares none.
    /// - Throws: `IndexError` `.invalidQuery` with the byte offset of the problem (never in lenient mode).
    public func parseQuery(
        _ text: String, defaultFields: [String]? = nil, options: QueryParserOptions = .init()
    ) throws(IndexError) -> Query {
        let fields = defaultFields.flatMap { $0.isEmpty ? nil : $0 } ?? schema.searchedByDefault
        return try QueryStringCompiler(schema: schema, analyzers: analyzers, defaultFields: fields, options: options)
            .compile(text)
    }

    /// Documents like the one whose `idField` holds `id`: a more-like-this query over the stored text of
    /// `fields` (every stored text field when empty), the source document excluded.
    /// - Throws: `IndexError` `.notFound` when no document has that id; `.invalidQuery` for unknown fields.
    public func moreLikeThis(
        idField: String, id: some FieldValueConvertible, fields: [String] = [], limit: Int = 10,
        options: MoreLikeThisOptions = .init()
    ) throws(IndexError) -> SearchResults {
        let id = id.fieldValue
        let source = Query.term(field: idField, value: id)
        let found = try search(source, limit: 1, counting: .hitsOnly)
        guard let hit = found.hits.first else {
            throw IndexError(.notFound, "no document has \(idField) = \(id)", context: .init(field: idField))
        }
        let names =
            fields.isEmpty ? schema.fields.filter { $0.stored && $0.indexed && $0.type == .text }.map(\.name) : fields
        var likes: [Query] = []
        for name in names {
            let text = hit.document[name].compactMap { value -> String? in
                if case .text(let s) = value { return s }
                return nil
            }.joined(separator: "\n")
            if !text.isEmpty { likes.append(.moreLikeThis(field: name, text: text, options: options)) }
        }
        guard !likes.isEmpty else { return SearchResults(totalCount: 0, hits: []) }
        return try search(Query.anyOf(likes).excluding(source), limit: limit)
    }

    package func compile(_ query: Query) throws(IndexError) -> Weight {
        try WeightBuilder(searcher: self).build(query)
    }

    package func document(_ address: DocAddress) throws(IndexError) -> StoredDocument {
        let segment = segments[address.segment]
        do {
            return StoredDocument(schema: schema, encoded: try segment.store.documentBytes(address.doc, schema: schema))
        } catch {
            throw IndexError(format: error, file: SegmentComponent.store.fileName(segment.id), segment: segment.id)
        }
    }
}

/// What `Searcher.segmentInfos` reports of one segment.
public struct SegmentInfo: Sendable, Hashable {
    /// The segment's name (32 hex digits), as in its file names.
    public let id: String
    /// Live documents.
    public let documentCount: Int
    /// Documents ever written to the segment, deleted ones included.
    public let maxDoc: Int
    /// Documents deleted but still held by the segment (until a merge drops them).
    public let deletedCount: Int
    /// Bytes of the segment's files.
    public let byteCount: Int
    /// Bytes per file kind: `terms`, `postings`, `positions`, `norms`, `store`, `fast`, and `del` when documents
    /// are deleted.
    public let bytesByKind: [String: Int]
}

extension Searcher {
    /// One entry per segment of the snapshot, in search order.
    public var segmentInfos: [SegmentInfo] {
        segments.map {
            SegmentInfo(
                id: $0.id.description, documentCount: $0.liveCount, maxDoc: $0.maxDoc,
                deletedCount: $0.deleted?.count ?? 0,
                byteCount: $0.byteCount, bytesByKind: $0.bytesByKind)
        }
    }
}
