import Foundation
import Loupe
import LoupeCodec

/// Runs the three measurements of loupe-bench and collects them into a `BenchReport`.
struct BenchRun {
    let options: BenchOptions

    func run() throws -> BenchReport {
        let schema = try Schema(json: String(contentsOfFile: options.schema, encoding: .utf8))
        let directory = options.indexDirectory ?? NSTemporaryDirectory() + "loupe-bench-" + UUID().uuidString
        if !options.reuseIndex { try? FileManager.default.removeItem(atPath: directory) }
        defer { if options.indexDirectory == nil { try? FileManager.default.removeItem(atPath: directory) } }
        var report = BenchReport(
            corpus: options.corpus, memoryMB: options.memoryMB, threads: options.threads,
            repetitions: options.repetitions)
        if !options.reuseIndex { try index(schema: schema, into: directory, report: &report) }
        try open(directory, report: &report)
        let queries = BenchQuery.load(
            try String(contentsOfFile: options.queries, encoding: .utf8), limit: options.queriesLimit)
        (report.queries, report.floor) = try search(queries, directory: directory, idField: schema.idField)
        if let path = options.aggregations {
            report.aggregations = try aggregate(AggregationRow.load(path: path), directory: directory)
        }
        if let facet = options.instant {
            report.instant = instant(facet, queries: queries, directory: directory)
        }
        if let path = options.suggestQuality {
            report.suggestQuality = try suggestQuality(path: path, directory: directory)
        }
        if let path = options.upserts {
            var updates = try update(directory: directory, upserts: UpsertList(path: path, schema: schema))
            updates.queries = try search(queries, directory: directory, idField: schema.idField).queries
            report.updates = updates
        }
        return report
    }

    private func index(schema: Schema, into directory: String, report: inout BenchReport) throws {
        let reader = try LineReader(path: options.corpus)
        let clock = ContinuousClock()
        let start = clock.now
        let index = try Index(path: directory, schema: schema)
        let writer = try index.writer(memoryBudget: options.memoryMB * 1_000_000, threads: options.threads)
        var docs = 0
        var failed = 0
        // Lines go to the writer in batches, as `idx index` hands them over, so that it parses them on all of its
        // indexing threads.
        var batch = JSONLines()
        func add() {
            for result in writer.addJSON(lines: batch, stoppingAtFirstError: false) {
                if case .success = result { docs += 1 } else { failed += 1 }
            }
            batch.removeAll()
        }
        while let line = try reader.nextLine() {
            if line.isEmpty { continue }
            if let limit = options.limitDocs, docs + failed + batch.count == limit { break }
            batch.append(line)
            if batch.count == 128 * options.threads { add() }
        }
        add()
        try writer.commit()
        // The merges the commit started, as tantivy's side waits for its merging threads.
        writer.waitForMerges()
        let seconds = (clock.now - start).seconds
        try index.reload()
        report.index = .init(
            docs: docs, failed: failed, inputBytes: reader.bytesRead, seconds: seconds,
            sizeBytes: try Self.directorySize(directory), peakRSSMB: Self.peakRSSMegabytes(),
            segments: index.searcher().segmentCount)
    }

    private func open(_ directory: String, report: inout BenchReport) throws {
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<max(5, min(options.repetitions, 20)) {
            let start = clock.now
            let index = try Index(path: directory)
            _ = index.searcher()
            times.append((clock.now - start).seconds * 1000)
        }
        report.open = .init(firstMS: times[0], medianMS: median(times), repeat: times.count)
    }

    /// Runs `queries` on the index at `directory` as the header of main.swift says: one warm-up pass, then
    /// `repetitions` timed passes, each timing every query three ways back to back.
    func search(
        _ queries: [BenchQuery], directory: String, idField: String?
    ) throws -> (
        queries: [BenchReport.QueryResult], floor: BenchReport.Floor
    ) {
        let index = try Index(path: directory)
        let searcher = index.searcher()
        var parsed: [Query?] = []
        var results: [BenchReport.QueryResult] = []
        for q in queries {
            var result = BenchReport.QueryResult(query: q.text, queryClass: q.queryClass)
            do {
                parsed.append(try searcher.parseQuery(q.text))
            } catch {
                parsed.append(nil)
                result.status = "error"
                result.error = error.message
            }
            results.append(result)
        }
        let absent = Query.term(field: searcher.schema.defaultFields.first ?? "", value: .text("zqxjvkwpq"))
        var floorTimes = [[Double]](repeating: [], count: 3)
        var times = [[[Double]]](repeating: [[], [], []], count: queries.count)
        for pass in 0...options.repetitions {
            for i in parsed.indices {
                guard let query = parsed[i] else { continue }
                do {
                    let timed = try Self.timeThreeWays(query, searcher: searcher, idField: idField)
                    if pass == 0 {
                        results[i].count = timed.count
                        results[i].top10 = timed.ids
                        results[i].scores = timed.scores
                    } else {
                        for mode in 0..<3 { times[i][mode].append(timed.micros[mode]) }
                    }
                } catch {
                    // A query the engine parses but cannot run (say, a regex it rejects on compile) is one error
                    // row; the other queries still run and get timed.
                    results[i].status = "error"
                    results[i].error = error.message
                    parsed[i] = nil
                }
            }
        }
        // The floor as the Python engines time theirs: one untimed run, then 100 timed ones, the modes interleaved.
        for run in 0...100 {
            guard let floor = try? Self.timeThreeWays(absent, searcher: searcher, idField: idField), run > 0 else {
                continue
            }
            for mode in 0..<3 { floorTimes[mode].append(floor.micros[mode]) }
        }
        for i in results.indices where parsed[i] != nil {
            results[i].latencyMedian = median(times[i][0])
            results[i].latencyMin = times[i][0].min() ?? 0
            results[i].prunedLatencyMedian = median(times[i][1])
            results[i].countLatencyMedian = median(times[i][2])
            results[i].repeats = times[i][0].count
        }
        let floor = BenchReport.Floor(
            top10: median(floorTimes[0]), pruned: median(floorTimes[1]), count: median(floorTimes[2]))
        return (results, floor)
    }

    /// One query, three ways, in µs: the top-10 with an exact count and the id of each hit (tantivy's
    /// `search(limit=10, count=True)` plus `doc()` per hit); the pruned top-10 with no count and no fetch (the
    /// search-benchmark-game's TOP_10); the count alone.
    private static func timeThreeWays(
        _ query: Query, searcher: Searcher, idField: String?
    ) throws(IndexError) -> (
        micros: [Double], count: Int, ids: [String], scores: [Double]
    ) {
        let clock = ContinuousClock()
        let start = clock.now
        let found = try searcher.search(query, limit: 10, counting: .exact)
        let ids = found.hits.map { hit in idField.flatMap { hit.document.string($0) } ?? "" }
        let fetched = clock.now
        let pruned = try searcher.topDocs(searcher.compile(query), k: 10, counting: .hitsOnly)
        let prunedEnd = clock.now
        let count = try searcher.count(query)
        let counted = clock.now
        precondition(pruned.sorted().count == found.hits.count, "pruned and exact top-10 differ in size")
        return (
            [(fetched - start).micros, (prunedEnd - fetched).micros, (counted - prunedEnd).micros], count, ids,
            found.hits.map { Double($0.score) }
        )
    }

    static func directorySize(_ path: String) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: path).reduce(0) { total, name in
            let attributes = try FileManager.default.attributesOfItem(atPath: path + "/" + name)
            return total + ((attributes[.size] as? Int) ?? 0)
        }
    }

    /// The process's peak resident set: VmHWM from /proc/self/status on Linux; `ru_maxrss` on Darwin, which has no
    /// /proc (and counts `ru_maxrss` in bytes, where Linux counts kilobytes).
    private static func peakRSSMegabytes() -> Double {
        #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kb / 1024
        #elseif canImport(Darwin)
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        return Double(usage.ru_maxrss) / (1024 * 1024)
        #else
        return 0
        #endif
    }
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

extension Duration {
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }

    var micros: Double { seconds * 1_000_000 }
}
