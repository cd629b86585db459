/// Aggregations: Elasticsearch-shaped summaries of the documents a query matches, computed from fast fields and
/// answered in tantivy 0.27's JSON shape (Docs/AGGREGATIONS.md has every kind, its parameters and what differs
/// from tantivy and Elasticsearch).
extension Searcher {
    /// Runs an aggregation request over the documents matching `query`, every document by default:
    /// `try searcher.aggregate(#"{"avg_year": {"avg": {"field": "year"}}}"#)` returns
    /// `{"avg_year":{"value":1995.3}}`.
    ///
    /// The request maps names to aggregations — `terms`, `histogram`, `date_histogram`, `range`, `stats`, `min`,
    /// `max`, `avg`, `sum`, `value_count`, `percentiles`, `cardinality` — each on a fast field, bucket kinds
    /// with sub-aggregations under `aggs`, nested to any depth. The response maps the same names to results.
    ///
    /// - Parameters:
    ///   - json: the request, a JSON object.
    ///   - query: the documents to aggregate over.
    /// - Returns: the response, compact JSON.
    /// - Throws: `IndexError` `.invalidArgument` for malformed JSON (with its byte offset), an invalid request
    ///   (naming its path, such as `aggs.genres.terms.size`), a field the schema lacks or that is not fast or not
    ///   of a type the aggregation reads (naming the field), or a response past 65,000 buckets or per-segment state
    ///   past 500 MB; `.invalidQuery` for a bad query; `.corruption` if postings turn out damaged while matching.
    /// - Complexity: O(matches × values per document) to collect, plus ordering each terms aggregation's buckets.
    public func aggregate(_ json: String, matching query: Query = .matchAll) throws(IndexError) -> String {
        try aggregate(AggregationRequest(json: json), matching: query).jsonText
    }
}

extension Index {
    /// Runs an aggregation request with the current searcher (see `Searcher.aggregate`).
    /// - Throws: `IndexError`, as `Searcher.aggregate` does.
    public func aggregate(_ json: String, matching query: Query = .matchAll) throws(IndexError) -> String {
        try searcher().aggregate(json, matching: query)
    }
}
