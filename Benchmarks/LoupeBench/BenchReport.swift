import Foundation

/// Everything loupe-bench measured, written as "anchor-bench/1" JSON.
struct BenchReport {
    struct IndexResult {
        var docs = 0
        var failed = 0
        var inputBytes = 0
        var seconds = 0.0
        var sizeBytes = 0
        var peakRSSMB = 0.0
        var segments = 0
    }

    struct OpenResult {
        var firstMS = 0.0
        var medianMS = 0.0
        var `repeat` = 0
    }

    struct QueryResult {
        var query: String
        var queryClass: String
        var status = "ok"
        var error: String?
        var latencyMedian = 0.0
        var latencyMin = 0.0
        var prunedLatencyMedian = 0.0
        var countLatencyMedian = 0.0
        var repeats = 0
        var count = 0
        var top10: [String] = []
        var scores: [Double] = []
    }

    let corpus: String
    let memoryMB: Int
    let threads: Int
    let repetitions: Int
    var index = IndexResult()
    var open = OpenResult()
    var queries: [QueryResult] = []
    /// What a query for an absent term costs in each of the three timings: the engine's fixed cost per query.
    struct Floor {
        var top10 = 0.0
        var pruned = 0.0
        var count = 0.0
    }

    var floor = Floor()
    /// The update-heavy phase, when loupe-bench ran one (`--upserts`).
    var updates: UpdateResult?
    /// The facet and aggregation rows, when loupe-bench was given `--aggregations`.
    var aggregations: [AggregationResult] = []
    /// The instant-search rows, when loupe-bench was given `--instant`.
    var instant: InstantResult?
    /// The suggestion-quality cases, when loupe-bench was given `--suggest-quality`.
    var suggestQuality: SuggestQualityResult?

    init(corpus: String, memoryMB: Int, threads: Int, repetitions: Int) {
        self.corpus = corpus
        self.memoryMB = memoryMB
        self.threads = threads
        self.repetitions = repetitions
    }

    /// Per class: query count, median and p90 of the per-query median latencies, mean hit count.
    static func classes(of queries: [QueryResult]) -> [String: [String: Any]] {
        var grouped: [String: [QueryResult]] = [:]
        for q in queries where q.status == "ok" { grouped[q.queryClass, default: []].append(q) }
        return grouped.mapValues { qs in
            let latencies = qs.map(\.latencyMedian).sorted()
            return [
                "n": qs.count,
                "latency_us_median": median(latencies),
                "latency_us_p90": latencies[
                    min(latencies.count - 1, Int((Double(latencies.count) * 0.9).rounded(.up)) - 1)],
                "mean_count": Double(qs.map(\.count).reduce(0, +)) / Double(qs.count),
                "count_latency_us_median": median(qs.map(\.countLatencyMedian)),
                "top10_pruned_nofetch_latency_us_median": median(qs.map(\.prunedLatencyMedian)),
            ]
        }
    }

    /// The "queries" list of an engine record.
    static func json(of queries: [QueryResult]) -> [[String: Any]] {
        queries.map { q -> [String: Any] in
            var entry: [String: Any] = [
                "query": q.query, "class": q.queryClass, "status": q.status, "latency_us_median": q.latencyMedian,
                "latency_us_min": q.latencyMin, "repeats": q.repeats, "count": q.count, "top10": q.top10,
                "scores": q.scores, "count_latency_us_median": q.countLatencyMedian,
                "top10_pruned_nofetch_latency_us_median": q.prunedLatencyMedian,
            ]
            if let error = q.error { entry["error"] = error }
            return entry
        }
    }

    var json: [String: Any] {
        let megabytes = Double(index.inputBytes) / 1e6
        let seconds = index.seconds > 0 ? index.seconds : .infinity // an index reused, not built, was not timed
        var engine: [String: Any] = [
            "engine": "loupe",
            "version": "0.1.0-dev",
            "config": ["memory_budget_mb": memoryMB, "threads": threads, "repeat": repetitions, "build": "release"],
            "index": [
                "docs": index.docs, "docs_failed": index.failed, "input_bytes": index.inputBytes,
                "index_s": index.seconds,
                "docs_per_s": Double(index.docs) / seconds, "mb_per_s": megabytes / seconds,
                "size_bytes": index.sizeBytes, "peak_rss_mb": index.peakRSSMB, "segments": index.segments,
            ],
            "open": ["first_ms": open.firstMS, "median_ms": open.medianMS, "repeat": open.repeat],
            "queries": Self.json(of: queries),
            "floor_us": ["top10": floor.top10, "pruned": floor.pruned, "count": floor.count],
            "classes": Self.classes(of: queries),
        ]
        if let updates { engine["updates"] = updates.json }
        if !aggregations.isEmpty { engine["aggregations"] = aggregations.map(\.json) }
        if let instant { engine["instant"] = instant.json }
        if let suggestQuality { engine["suggest_quality"] = suggestQuality.json }
        return [
            "format": "anchor-bench/1",
            "corpus": ["path": corpus, "docs": index.docs + index.failed, "bytes": index.inputBytes],
            "engines": ["loupe": engine],
        ]
    }

    func write(to path: String) throws {
        let data = try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
    }

    func printSummary() {
        func f(_ v: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", v) }
        if index.seconds > 0 {
            print(
                "indexed \(index.docs) docs (\(index.failed) failed) in \(f(index.seconds, 2)) s: \(Int(Double(index.docs) / index.seconds)) docs/s, "
                    + "\(f(Double(index.inputBytes) / 1e6 / index.seconds)) MB/s; \(index.sizeBytes) bytes, \(index.segments) segments, "
                    + "peak RSS \(f(index.peakRSSMB)) MB")
        }
        print("open: first \(f(open.firstMS, 2)) ms, median \(f(open.medianMS, 2)) ms")
        Self.printClasses(of: queries)
        Self.printAggregations(aggregations)
        instant?.printSummary()
        suggestQuality?.printSummary()
        if let updates { updates.printSummary() }
    }

    /// The per-class latency table, and how many queries were not run.
    static func printClasses(of queries: [QueryResult]) {
        print("class            n   top-10+count+id p50 µs   p90 µs   pruned p50 µs   count p50 µs")
        for (name, c) in classes(of: queries).sorted(by: { $0.key < $1.key }) {
            let n = c["n"] as? Int ?? 0
            let p50 = c["latency_us_median"] as? Double ?? 0
            let p90 = c["latency_us_p90"] as? Double ?? 0
            let pruned = c["top10_pruned_nofetch_latency_us_median"] as? Double ?? 0
            let count = c["count_latency_us_median"] as? Double ?? 0
            print(
                name.padding(toLength: 15, withPad: " ", startingAt: 0)
                    + String(format: "%3d %24.1f %8.1f %15.1f %14.1f", n, p50, p90, pruned, count))
        }
        let skipped = queries.filter { $0.status != "ok" }
        if !skipped.isEmpty {
            print("\(skipped.count) queries not run (\(Set(skipped.map(\.status)).sorted().joined(separator: ", ")))")
        }
    }
}
