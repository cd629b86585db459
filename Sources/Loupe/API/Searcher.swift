import LoupeAnalysis

/// An immutable snapshot of an index's committed segments. Any number of threads may search one searcher at
/// once, while a writer keeps adding and committing; it never sees changes made after it was opened.
public final class Searcher: Sendable {
    package let schema: Schema
    package let segments: [SegmentReader]
    package let analyzers: AnalyzerRegistry

    package init(schema: Schema, segments: [SegmentReader], analyzers: AnalyzerRegistry) {
        self.schema = schema
        self.segments = segments
        self.analyzers = analyzers
    }

    /// Live (not deleted) documents in the snapshot.
    public var documentCount: Int { segments.reduce(0) { $0 + $1.liveCount } }

    /// Segments in the snapshot.
    public var segmentCount: Int { segments.count }

    /// The best `limit` hits after skipping `offset`, and the total number of matches.
    ///
    /// - Parameters:
    ///   - orderBy: `.relevance` (BM25, best first) or a fast numeric, date or bool field; ties go to the earlier
    ///     document.
    ///   - boosts: per-field factors multiplying the scores of every leaf query on that field (`["title": 2]`).
    /// - Throws: `IndexError` `.invalidQuery` for fields the schema lacks or values of the wrong type;
    ///   `.invalidArgument` for a bad limit, offset, boost or sort field; `.corruption` if a stored document
    ///   cannot be read.
    public func search(
        _ query: Query, limit: Int = 10, offset: Int = 0, orderBy: SearchOrder = .relevance, boosts: [String: Float] = [:]
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
            let (count, entries) = collectByScore(weight, k: k)
            var hits: [SearchHit] = []
            for entry in entries.dropFirst(offset) {
                hits.append(SearchHit(score: entry.score, document: try document(entry.address), highlighter: highlighter))
            }
            return SearchResults(count: count, hits: hits)
        case .ascending(let field), .descending(let field):
            let sort = try FieldSort(schema: schema, field: field, descending: orderBy != .ascending(field))
            let (count, entries) = sort.collect(weight, segments: segments, k: k)
            var hits: [SearchHit] = []
            for entry in entries.dropFirst(offset) {
                hits.append(
                    SearchHit(
                        score: entry.score, document: try document(entry.address), sortValue: entry.value.map(sort.fieldValue),
                        highlighter: highlighter))
            }
            return SearchResults(count: count, hits: hits)
        }
    }

    private func collectByScore(_ weight: Weight, k: Int) -> (Int, [TopDocs.Entry]) {
        var top = TopDocs(k: k)
        var count = 0
        var scratch = Union.Scratch()
        for (i, segment) in segments.enumerated() {
            let deleted = segment.deleted
            let unioned = weight.withUnion(segment, ordinal: i) { terms, mixed, excluded in
                if let terms {
                    return Union.collect(terms, excluding: excluded, deleted: deleted, segment: i, into: &top, scratch: &scratch)
                }
                return Union.collect(mixed, excluding: excluded, deleted: deleted, segment: i, into: &top, scratch: &scratch)
            }
            count += unioned ?? collectTopDocs(weight.scorer(segment, ordinal: i), segment: i, deleted: deleted, into: &top)
        }
        return (count, top.sorted())
    }

    /// The number of documents matching `query`, without scoring.
    public func count(_ query: Query) throws(IndexError) -> Int {
        let weight = try compile(query)
        var scratch = Union.Scratch()
        return segments.enumerated().reduce(0) { $0 + weight.count($1.element, ordinal: $1.offset, scratch: &scratch) }
    }

    /// Parses a query string (tantivy syntax plus fuzzy, prefix and wildcard words; see Docs/QUERY-SYNTAX.md)
    /// over `defaultFields` (the schema's when nil).
    /// - Throws: `IndexError` `.invalidQuery` with the byte offset of the problem (never in lenient mode).
    public func parseQuery(
        _ text: String, defaultFields: [String]? = nil, options: QueryParserOptions = .init()
    ) throws(IndexError) -> Query {
        try QueryStringCompiler(
            schema: schema, analyzers: analyzers, defaultFields: defaultFields ?? schema.defaultFields, options: options
        ).compile(text)
    }

    /// Documents like the one whose `idField` holds `id`: a more-like-this query over the stored text of
    /// `fields` (every stored text field when empty), the source document excluded.
    /// - Throws: `IndexError` `.notFound` when no document has that id; `.invalidQuery` for unknown fields.
    public func moreLikeThis(
        idField: String, id: FieldValue, fields: [String] = [], limit: Int = 10, options: MoreLikeThisOptions = .init()
    ) throws(IndexError) -> SearchResults {
        let source = Query.term(field: idField, value: id)
        let found = try search(source, limit: 1)
        guard let hit = found.hits.first else {
            throw IndexError(.notFound, "no document has \(idField) = \(id)", context: .init(field: idField))
        }
        let names = fields.isEmpty ? schema.fields.filter { $0.stored && $0.indexed && $0.type == .text }.map(\.name) : fields
        var likes: [Query] = []
        for name in names {
            let text = hit.document[name].compactMap { value -> String? in
                if case .text(let s) = value { return s }
                return nil
            }.joined(separator: "\n")
            if !text.isEmpty { likes.append(.moreLikeThis(field: name, text: text, options: options)) }
        }
        guard !likes.isEmpty else { return SearchResults(count: 0, hits: []) }
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
                id: $0.id.description, documentCount: $0.liveCount, maxDoc: $0.maxDoc, deletedCount: $0.deleted?.count ?? 0,
                byteCount: $0.byteCount, bytesByKind: $0.bytesByKind)
        }
    }
}
