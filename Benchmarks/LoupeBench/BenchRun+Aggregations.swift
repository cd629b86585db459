import Foundation
import Loupe

/// The facet and aggregation rows (issue #10): `termCounts` and `aggregate` calls timed as bench/aggregations.py
/// times tantivy's `searcher.aggregate`: the query parsed before the clock starts, one warm-up pass that keeps
/// each answer, then `--agg-repeat` interleaved passes; per row the median and minimum, and the floor, the same
/// call over the absent-term query (100 runs after one untimed run).
extension BenchRun {
    func aggregate(_ rows: [AggregationRow], directory: String) throws -> [BenchReport.AggregationResult] {
        let index = try Index(path: directory)
        let searcher = index.searcher()
        var results: [BenchReport.AggregationResult] = []
        var queries: [Query?] = []
        for row in rows {
            var result = BenchReport.AggregationResult(name: row.name, kind: row.kindName, query: row.query)
            do {
                let query = try row.query.map { text throws(IndexError) in try searcher.parseQuery(text) } ?? .matchAll
                result.hits = try searcher.count(query)
                queries.append(query)
            } catch {
                result.status = "error"
                result.error = error.message
                queries.append(nil)
            }
            results.append(result)
        }
        let absent = Query.term(field: searcher.schema.defaultFields.first ?? "", value: .text("zqxjvkwpq"))
        let clock = ContinuousClock()
        var times = [[Double]](repeating: [], count: rows.count)
        for pass in 0...options.aggregationRepetitions {
            for i in rows.indices {
                guard let query = queries[i] else { continue }
                do {
                    let start = clock.now
                    let answer = try Self.answer(rows[i], query: query, searcher: searcher)
                    let elapsed = (clock.now - start).micros
                    if pass == 0 { results[i].result = try answer.json() } else { times[i].append(elapsed) }
                } catch {
                    results[i].status = "error"
                    results[i].error = "\(error)"
                    queries[i] = nil
                }
            }
        }
        for i in rows.indices where queries[i] != nil {
            results[i].latencyMedian = median(times[i])
            results[i].latencyMin = times[i].min() ?? 0
            results[i].repeats = times[i].count
            var floor: [Double] = []
            for run in 0...100 {
                let start = clock.now
                guard (try? Self.answer(rows[i], query: absent, searcher: searcher)) != nil else { break }
                if run > 0 { floor.append((clock.now - start).micros) }
            }
            results[i].floor = median(floor)
        }
        return results
    }

    /// What one row's call returns: the facet counts, or the response JSON.
    enum Answer {
        case counts([FacetCount])
        case response(String)

        func json() throws -> Any {
            switch self {
            case .counts(let counts):
                return counts.map { ["value": Self.json(of: $0.value), "count": $0.count] as [String: Any] }
            case .response(let text):
                return try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            }
        }

        static func json(of value: FieldValue) -> Any {
            switch value {
            case .text(let s): s
            case .u64(let v): v
            case .i64(let v): v
            case .f64(let v): v
            case .bool(let v): v
            case .date(let d): d.timeIntervalSince1970
            }
        }
    }

    @inline(never)
    static func answer(_ row: AggregationRow, query: Query, searcher: Searcher) throws -> Answer {
        switch row.kind {
        case .termCounts(let field, let limit):
            return .counts(try searcher.termCounts(field, matching: query, limit: limit))
        case .aggregate(let request):
            return .response(try searcher.aggregate(request, matching: query))
        }
    }
}
