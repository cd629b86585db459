import Foundation
import Loupe
import Synchronization
import TestSupport
import Testing

/// Concurrent searching: many tasks searching one index while a writer adds, deletes, commits and reloads, each
/// result equal to the same search run alone on the same snapshot; the async calls (same results as the
/// synchronous ones, `.cancelled` once their task is cancelled); and that the synchronous calls still compile
/// unchanged inside async code. Run under ThreadSanitizer too: `swift test --sanitize=thread --filter ConcurrencyTests`.
@Suite struct ConcurrencyTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("body", stored: true)
        .addStringField("tag", stored: true, fast: true)
        .addI64Field("n", stored: true, fast: true)
        .build(defaultFields: ["body"])

    static let words = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "sigma",
    ]
    static let tags = ["red", "green", "blue", "cyan", "magenta"]

    static func document(_ i: Int, _ rng: inout SplitMix64) -> Document {
        var doc = Document()
        doc.add("id", .text("d\(i)"))
        let length = Int.random(in: 3...12, using: &rng)
        doc.add("body", .text((0..<length).map { _ in rng.pick(words) }.joined(separator: " ")))
        doc.add("tag", .text(rng.pick(tags)))
        if rng.chance(9, in: 10) { doc.add("n", .i64(Int64.random(in: -50...150, using: &rng))) }
        return doc
    }

    /// An in-memory index of `commits` segments of `perCommit` documents each.
    static func makeIndex(commits: Int, perCommit: Int, mergePolicy: MergePolicy = .logarithmic) throws -> Index {
        let index = try Index.inMemory(schema: schema)
        let writer = try index.writer()
        writer.mergePolicy = mergePolicy
        var rng = SplitMix64(seed: 0xC0FFEE)
        var next = 0
        for _ in 0..<commits {
            for _ in 0..<perCommit {
                try writer.addDocument(document(next, &rng))
                next += 1
            }
            try writer.commit()
        }
        writer.waitForMerges()
        try index.reload()
        return index
    }

    /// One kind of read, and what it returned: equal outcomes mean equal hits (scores, stored fields, sort
    /// values), counts, snippets, aggregation JSON and term counts.
    enum Kind: CaseIterable, Sendable {
        case term, boolean, phrase, fuzzy, sorted, aggregations, termCounts, snippets, count, moreLikeThis
    }

    enum Outcome: Equatable, Sendable, CustomTestStringConvertible {
        case hits(SearchResults, snippets: [String?])
        case count(Int)
        case json(String)
        case facets([FacetCount])

        /// Short enough to read in a failure: the count, then each hit's id and score.
        var testDescription: String {
            switch self {
            case .hits(let results, let snippets):
                let hits = results.hits.map { "\($0.document.string("id") ?? "?")@\($0.score)" }
                return
                    "\(results.totalCount) matches: \(hits.joined(separator: " "))\(snippets.isEmpty ? "" : " \(snippets)")"
            case .count(let n): return "count \(n)"
            case .json(let json): return json
            case .facets(let counts): return counts.map { "\($0.value)=\($0.count)" }.joined(separator: " ")
            }
        }
    }

    static let aggregationRequest = #"""
        {"tags": {"terms": {"field": "tag"}, "aggs": {"avg_n": {"avg": {"field": "n"}}}},
         "hist": {"histogram": {"field": "n", "interval": 25}},
         "spread": {"percentiles": {"field": "n", "percents": [50, 90]}},
         "distinct": {"cardinality": {"field": "tag"}}}
        """#

    static let booleanQuery: Query = .boolean([
        (.must, .term("body", "alpha")), (.should, .term("body", "delta")), (.should, .term("body", "kappa")),
        (.mustNot, .term("tag", "red")),
    ])

    /// Snippets of every hit, rendered.
    static func snippets(_ results: SearchResults) -> [String?] {
        results.hits.map { $0.snippet("body", maxChars: 60)?.html }
    }

    static func run(_ kind: Kind, on s: Searcher) throws(IndexError) -> Outcome {
        switch kind {
        case .term: .hits(try s.search(.term("body", "gamma"), limit: 15), snippets: [])
        case .boolean: .hits(try s.search(booleanQuery, limit: 15, counting: .exact), snippets: [])
        case .phrase: .hits(try s.search(.phrase("body", ["beta", "gamma"]), limit: 15), snippets: [])
        case .fuzzy: .hits(try s.search(.fuzzy("body", "lambad", distance: 2), limit: 15), snippets: [])
        case .sorted: .hits(try s.search(.term("body", "delta"), limit: 15, orderBy: .descending("n")), snippets: [])
        case .aggregations: .json(try s.aggregate(aggregationRequest, matching: .term("body", "epsilon")))
        case .termCounts: .facets(try s.termCounts("tag", matching: .term("body", "zeta"), limit: 10))
        case .snippets:
            try {
                () throws(IndexError) -> Outcome in
                let results = try s.search(.parsed("\"theta iota\" OR sigma~1"), limit: 8)
                return .hits(results, snippets: snippets(results))
            }()
        case .count: .count(try s.count(.term("body", "eta") || .term("tag", "blue")))
        case .moreLikeThis:
            .hits(
                try s.moreLikeThis(
                    idField: "id", id: "d3", fields: ["body"], limit: 10,
                    options: .init(minTermFrequency: 1, minDocFrequency: 1)),
                snippets: [])
        }
    }

    static func runAsync(_ kind: Kind, on s: Searcher) async throws(IndexError) -> Outcome {
        switch kind {
        case .term: .hits(try await s.searchAsync(.term("body", "gamma"), limit: 15), snippets: [])
        case .boolean: .hits(try await s.searchAsync(booleanQuery, limit: 15, counting: .exact), snippets: [])
        case .phrase: .hits(try await s.searchAsync(.phrase("body", ["beta", "gamma"]), limit: 15), snippets: [])
        case .fuzzy: .hits(try await s.searchAsync(.fuzzy("body", "lambad", distance: 2), limit: 15), snippets: [])
        case .sorted:
            .hits(try await s.searchAsync(.term("body", "delta"), limit: 15, orderBy: .descending("n")), snippets: [])
        case .aggregations: .json(try await s.aggregateAsync(aggregationRequest, matching: .term("body", "epsilon")))
        case .termCounts: .facets(try await s.termCountsAsync("tag", matching: .term("body", "zeta"), limit: 10))
        case .snippets:
            try await {
                () async throws(IndexError) -> Outcome in
                let results = try await s.searchAsync(.parsed("\"theta iota\" OR sigma~1"), limit: 8)
                return .hits(results, snippets: snippets(results))
            }()
        case .count: .count(try await s.countAsync(.term("body", "eta") || .term("tag", "blue")))
        case .moreLikeThis:
            .hits(
                try await s.moreLikeThisAsync(
                    idField: "id", id: "d3", fields: ["body"], limit: 10,
                    options: .init(minTermFrequency: 1, minDocFrequency: 1)),
                snippets: [])
        }
    }

    /// Set once, read from any thread.
    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .releasing) }
        var isSet: Bool { value.load(ordering: .acquiring) }
    }

    /// Runs `body` on a thread of its own rather than on one of the few threads async tasks share (as many as
    /// cores): a writer blocking one of them would leave the searches a single thread, where ThreadSanitizer can
    /// see no race between them.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// Adds, deletes (never d0…d9, which `moreLikeThis` looks up), commits and reloads until `stop` is set,
    /// letting the default merge policy merge in the background; returns the number of commits.
    static func write(_ index: Index, firstID: Int, until stop: Flag) throws -> Int {
        let writer = try index.writer()
        var rng = SplitMix64(seed: 0xBEEF)
        var next = firstID
        var commits = 0
        while !stop.isSet {
            for _ in 0..<12 {
                try writer.addDocument(document(next, &rng))
                next += 1
            }
            for _ in 0..<3 {
                try writer.deleteDocuments(field: "id", equals: .text("d\(Int.random(in: 10..<next, using: &rng))"))
            }
            if rng.chance(1, in: 4) {
                try writer.deleteDocuments(matching: .term("body", .text(rng.pick(words))) && .term("tag", "cyan"))
            }
            try writer.commit()
            try index.reload()
            commits += 1
        }
        writer.waitForMerges()
        return commits
    }

    /// Eight tasks run every kind of read on one snapshot per round, through the synchronous and the async calls,
    /// while a writer keeps changing the index; every result must equal the one the same read gave alone.
    @Test func concurrentSearchesMatchSoloSearches() async throws {
        let index = try Self.makeIndex(commits: 6, perCommit: 60)
        let stop = Flag()
        let writer = Task { try await Self.onThread { try Self.write(index, firstID: 360, until: stop) } }
        var checked = 0
        for round in 0..<4 {
            let snapshot = index.searcher()
            var solo: [Kind: Outcome] = [:]
            for kind in Kind.allCases { solo[kind] = try Self.run(kind, on: snapshot) }
            let expected = solo
            #expect(expected.values.contains { if case .hits(let r, _) = $0 { !r.hits.isEmpty } else { false } })
            checked += try await withThrowingTaskGroup(of: Int.self) { group in
                for t in 0..<8 {
                    group.addTask {
                        let kinds = Kind.allCases
                        var compared = 0
                        for repetition in 0..<2 {
                            for i in 0..<kinds.count {
                                let kind = kinds[(i + t) % kinds.count]
                                let outcome =
                                    (repetition + t) % 2 == 0
                                    ? try Self.run(kind, on: snapshot) : try await Self.runAsync(kind, on: snapshot)
                                #expect(outcome == expected[kind], "round \(round), task \(t), \(kind)")
                                compared += 1
                            }
                            // The index's current searcher moves on under the writer; its reads must still succeed.
                            let current = try await index.searchAsync(.term("body", .text(Self.words[t])), limit: 5)
                            #expect(current.count <= 5 && current.totalCount >= current.count)
                            _ = try index.termCounts("tag", limit: 3)
                        }
                        return compared
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        stop.set()
        let commits = try await writer.value
        #expect(checked == 4 * 8 * 2 * Kind.allCases.count)
        #expect(commits > 0, "the writer never committed while the searches ran")
    }

    /// A stored document as a model, for the typed searches.
    struct Row: Decodable, Sendable, Equatable {
        var id: String
        var body: String
        var tag: String
        var n: Int64?
    }

    /// The async calls give the synchronous calls' results, on a searcher and on the index.
    @Test func asyncCallsReturnWhatSyncCallsReturn() async throws {
        let index = try Self.makeIndex(commits: 4, perCommit: 50)
        let searcher = index.searcher()
        for kind in Kind.allCases {
            let sync = try Self.run(kind, on: searcher)
            #expect(try await Self.runAsync(kind, on: searcher) == sync, "\(kind)")
        }
        let query: Query = .term("body", "alpha")
        #expect(try await index.searchAsync(query, limit: 7, offset: 2) == index.search(query, limit: 7, offset: 2))
        #expect(try await index.countAsync(query) == index.count(query))
        #expect(try await index.searchAsync("alpha beta", limit: 5) == index.search("alpha beta", limit: 5))
        #expect(
            try await searcher.searchAsync("gamma -delta", offset: 1, fields: ["body"], orderBy: .ascending("n"))
                == searcher.search("gamma -delta", offset: 1, fields: ["body"], orderBy: .ascending("n")))
        #expect(try await index.countAsync("alpha OR tag:red") == index.count("alpha OR tag:red"))
        let rows = try await index.searchAsync("alpha", as: Row.self, limit: 5)
        #expect(rows.count == 5)
        #expect(try rows == index.search("alpha", as: Row.self, limit: 5))
        #expect(
            try await index.searchAsync(query, as: Row.self, offset: 3, orderBy: .descending("n"))
                == index.search(query, as: Row.self, offset: 3, orderBy: .descending("n")))
        #expect(try await searcher.countAsync("beta", fields: ["body"]) == searcher.count("beta", fields: ["body"]))
        #expect(try await index.aggregateAsync(Self.aggregationRequest) == index.aggregate(Self.aggregationRequest))
        #expect(
            try await index.termCountsAsync("tag", matching: query, limit: 2)
                == index.termCounts("tag", matching: query, limit: 2))
        let options = MoreLikeThisOptions(minTermFrequency: 1, minDocFrequency: 1)
        #expect(
            try await index.moreLikeThisAsync(idField: "id", id: "d1", options: options)
                == index.moreLikeThis(idField: "id", id: "d1", options: options))
        // Errors come through typed and unchanged.
        await #expect(throws: IndexError.self) { try await index.searchAsync(.term("nope", "x")) }
        do {
            _ = try await index.moreLikeThisAsync(idField: "id", id: "missing")
            Issue.record("moreLikeThisAsync found a missing document")
        } catch {
            #expect(error.code == .notFound)
        }
    }

    /// A task cancelled before its call starts gets `.cancelled` from every async call, on a searcher and on the
    /// index, while the synchronous calls in that same task ignore the cancellation and answer.
    @Test func asyncCallsInACancelledTaskThrowCancelled() async throws {
        let index = try Self.makeIndex(commits: 50, perCommit: 4, mergePolicy: .never)
        #expect(index.searcher().segmentCount == 50)
        let task = Task { () async -> [IndexError.Code?] in
            // Wait for the cancellation, so every call below starts in a cancelled task.
            while !Task.isCancelled { await Task.yield() }
            let searcher = index.searcher()
            func code(_ body: () async throws(IndexError) -> Void) async -> IndexError.Code? {
                do {
                    try await body()
                    return nil
                } catch {
                    return error.code
                }
            }
            var codes: [IndexError.Code?] = []
            codes.append(await code { () async throws(IndexError) in _ = try await index.searchAsync(.matchAll) })
            codes.append(
                await code { () async throws(IndexError) in _ = try await searcher.searchAsync(.term("body", "alpha")) }
            )
            codes.append(
                await code { () async throws(IndexError) in
                    _ = try await searcher.searchAsync(.matchAll, orderBy: .ascending("n"))
                })
            codes.append(await code { () async throws(IndexError) in _ = try await index.searchAsync("alpha") })
            codes.append(await code { () async throws(IndexError) in _ = try await searcher.searchAsync("alpha beta") })
            codes.append(
                await code { () async throws(IndexError) in _ = try await index.searchAsync("alpha", as: Row.self) })
            codes.append(
                await code { () async throws(IndexError) in _ = try await index.countAsync(.term("body", "beta")) })
            codes.append(await code { () async throws(IndexError) in _ = try await index.countAsync("beta") })
            codes.append(await code { () async throws(IndexError) in _ = try await searcher.countAsync("beta") })
            codes.append(await code { () async throws(IndexError) in _ = try await searcher.countAsync(.matchAll) })
            codes.append(
                await code { () async throws(IndexError) in _ = try await index.aggregateAsync(Self.aggregationRequest)
                })
            codes.append(
                await code { () async throws(IndexError) in
                    _ = try await searcher.aggregateAsync(Self.aggregationRequest)
                })
            codes.append(await code { () async throws(IndexError) in _ = try await index.termCountsAsync("tag") })
            codes.append(await code { () async throws(IndexError) in _ = try await searcher.termCountsAsync("tag") })
            codes.append(
                await code { () async throws(IndexError) in
                    _ = try await index.moreLikeThisAsync(idField: "id", id: "d1")
                })
            codes.append(
                await code { () async throws(IndexError) in
                    _ = try await searcher.moreLikeThisAsync(idField: "id", id: "d1")
                })
            // The synchronous calls never check for cancellation.
            codes.append(await code { () async throws(IndexError) in _ = try index.search(.matchAll) })
            codes.append(
                await code { () async throws(IndexError) in _ = try searcher.aggregate(Self.aggregationRequest) })
            return codes
        }
        task.cancel()
        let codes = await task.value
        #expect(codes == Array(repeating: .cancelled, count: 16) + [nil, nil])
        // The index is untouched: the same calls in a live task succeed.
        #expect(try await index.countAsync(.matchAll) == 200)
        #expect(try await index.searchAsync(.matchAll, limit: 3).totalCount == 200)
    }

    /// The synchronous calls keep compiling, without `await`, inside an async function: had the async variants
    /// been overloads of the same names, Swift would pick them here and reject each line below.
    @Test func synchronousCallsCompileUnchangedInAsyncFunctions() async throws {
        let index = try Self.makeIndex(commits: 1, perCommit: 20)
        let searcher = index.searcher()
        let results = try index.search(.term("body", "alpha"), limit: 5)
        let fromSearcher = try searcher.search(.term("body", "alpha"), limit: 5)
        let count = try index.count(.matchAll)
        let fromText = try index.search("alpha", limit: 5)
        let countOfText = try searcher.count("alpha")
        let aggregation = try index.aggregate(#"{"n": {"max": {"field": "n"}}}"#)
        let counts = try searcher.termCounts("tag")
        let similar = try index.moreLikeThis(idField: "id", id: "d1")
        await Task.yield()
        #expect(results == fromSearcher)
        #expect(count == 20)
        #expect(fromText == results && countOfText == results.totalCount)
        #expect(aggregation.hasPrefix(#"{"n":"#))
        #expect(counts.reduce(0) { $0 + $1.count } == 20)
        #expect(similar.hits.allSatisfy { $0.document.string("id") != "d1" })
    }

    /// The public value and reference types cross tasks as plain `Sendable` (a compile-time check).
    @Test func publicTypesAreSendable() {
        func sendable<T: Sendable>(_: T.Type) {}
        sendable(Index.self)
        sendable(Searcher.self)
        sendable(SearchHit.self)
        sendable(SearchResults.self)
        sendable(StoredDocument.self)
        sendable(Query.self)
        sendable(Snippet.self)
        sendable(FacetCount.self)
        sendable(IndexStats.self)
        sendable(IndexError.self)
    }
}
