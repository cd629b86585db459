/// One value of a field and the number of matching documents that hold it.
public struct FacetCount: Sendable, Hashable {
    /// The value (`.text` for string fields).
    public let value: FieldValue
    /// How many matching documents hold it.
    public let count: Int

    /// A value and its count, as `termCounts` returns them (and as tests compare them).
    public init(value: FieldValue, count: Int) {
        self.value = value
        self.count = count
    }
}

extension Searcher {
    /// The `limit` values of `field` held by the most documents matching `query`, most first; ties go to the
    /// smaller value (byte order for strings), so the result is deterministic. The filter sidebar of a search page.
    ///
    /// - Parameters:
    ///   - field: a fast field of any type (declared with `fast: true`).
    ///   - limit: how many values to return (≥ 0).
    /// - Throws: `IndexError` `.invalidArgument` when the field is unknown or not fast, or `limit` is negative;
    ///   `.invalidQuery` for a bad query; `.corruption` when the postings cannot be read.
    public func termCounts(
        _ field: String, matching query: Query = .matchAll, limit: Int = 10
    ) throws(IndexError)
        -> [FacetCount]
    {
        let facet = try facetField(field, for: "termCounts")
        guard limit >= 0 else { throw IndexError(.invalidArgument, "termCounts: limit must be ≥ 0 (got \(limit))") }
        var counts = TermCountsCollector(field: facet.ordinal)
        try collect(compile(query), into: &counts)
        return counts.top(limit, type: facet.type)
    }

    /// A fast field whose values `what` counts.
    func facetField(
        _ name: String, for what: String
    ) throws(IndexError) -> (name: String, ordinal: Int, type: FieldType) {
        guard let ordinal = schema.fieldIndex[name] else {
            throw IndexError(
                .invalidArgument, "\(what): unknown field '\(name)'\(schema.suggestion(for: name))",
                context: .init(field: name))
        }
        let entry = schema.fields[ordinal]
        guard entry.fast else {
            throw IndexError(
                .invalidArgument, "\(what): field '\(name)' is not fast (declare it with fast: true)",
                context: .init(field: name))
        }
        return (name, ordinal, entry.type)
    }
}

extension Index {
    /// The values of `field` held by the most documents matching `query` (see `Searcher.termCounts`).
    public func termCounts(
        _ field: String, matching query: Query = .matchAll, limit: Int = 10
    ) throws(IndexError)
        -> [FacetCount]
    {
        try searcher().termCounts(field, matching: query, limit: limit)
    }
}
