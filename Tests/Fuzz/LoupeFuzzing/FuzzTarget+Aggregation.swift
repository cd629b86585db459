import Loupe

extension FuzzTarget {
    /// The input as an aggregation request, run against `FuzzIndex` over every document and over a query's.
    static func aggregation(_ input: [UInt8]) -> FuzzOutcome {
        let text = String(decoding: input, as: UTF8.self)
        let index = FuzzIndex.shared
        var steps = FuzzSteps()
        steps.run { () throws(IndexError) in _ = try index.aggregate(text) }
        steps.run { () throws(IndexError) in _ = try index.aggregate(text, matching: .parsed("alpha -beta")) }
        return steps.outcome
    }

    static let aggregationSeeds = [
        #"{"g": {"terms": {"field": "genre", "size": 3}, "aggs": {"y": {"avg": {"field": "year"}}}}}"#,
        #"{"h": {"histogram": {"field": "year", "interval": 5, "min_doc_count": 1}}}"#,
        #"{"d": {"date_histogram": {"field": "released", "fixed_interval": "30d"}}}"#,
        #"{"r": {"range": {"field": "rating", "ranges": [{"to": 2}, {"from": 2, "to": 4}, {"from": 4}]}}}"#,
        #"{"s": {"stats": {"field": "delta"}}, "m": {"min": {"field": "rating"}}, "x": {"max": {"field": "year"}}}"#,
        #"{"p": {"percentiles": {"field": "rating", "percents": [50, 99]}}}"#,
        #"{"c": {"cardinality": {"field": "tag"}}, "v": {"value_count": {"field": "id"}}}"#,
        #"{"t": {"terms": {"field": "classic"}, "aggs": {"s": {"sum": {"field": "delta"}}}}}"#,
        #"{"t": {"terms": {"field": "tag", "order": {"_key": "asc"}}, "aggs": {"h": {"histogram": {"field": "rating", "interval": 0.5}}}}}"#,
    ]
}
