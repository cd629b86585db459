import Foundation

extension BenchReport {
    /// One facet or aggregation row as timed: the median and minimum µs over the passes, the floor (the same call
    /// over the absent-term query) and the answer of the warm-up pass, as JSON (compare.py checks it against
    /// tantivy's).
    struct AggregationResult {
        var name: String
        var kind: String
        var query: String?
        var status = "ok"
        var error: String?
        /// Documents the row's query matches (untimed).
        var hits = 0
        var latencyMedian = 0.0
        var latencyMin = 0.0
        var repeats = 0
        var floor = 0.0
        /// termCounts: `[{"value", "count"}]`; aggregate: the response JSON, parsed.
        var result: Any?

        /// The engine record's "aggregations" entry, in the shape bench/aggregations.py writes for tantivy.
        var json: [String: Any] {
            var entry: [String: Any] = [
                "name": name, "kind": kind, "query": query ?? NSNull(), "status": status, "hits": hits,
                "latency_us_median": latencyMedian, "latency_us_min": latencyMin, "repeats": repeats,
                "floor_us": floor, "result": result ?? NSNull(),
            ]
            if let error { entry["error"] = error }
            return entry
        }
    }

    static func printAggregations(_ rows: [AggregationResult]) {
        guard !rows.isEmpty else { return }
        print("facets and aggregations                           hits   p50 µs    min µs  floor µs")
        for row in rows {
            let name = row.name.padding(toLength: 44, withPad: " ", startingAt: 0)
            if row.status != "ok" {
                print(name + " \(row.status): \(row.error ?? "")")
            } else {
                print(
                    name
                        + String(
                            format: "%11d %8.1f %9.1f %9.1f", row.hits, row.latencyMedian, row.latencyMin, row.floor))
            }
        }
    }
}
