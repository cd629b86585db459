import Loupe
import TestSupport
import Testing

/// A writer with several indexing threads must hold exactly what a one-thread writer holds after the same adds,
/// deletes and commits: the same documents and counts whichever thread indexed each document, and the same
/// scores where no delete makes them depend on the segments.
@Suite struct ParallelIndexingTests {
    static func schema() throws -> Schema {
        try SchemaBuilder()
            .addStringField("id", stored: true)
            .addTextField("body", stored: true)
            .addU64Field("rank", stored: true, fast: true)
            .build(defaultFields: ["body"], idField: "id")
    }

    /// The threads share the budget: when their writers hold it, the one holding the most flushes, and the first of
    /// equals, so threads that grew alike are staggered.
    @Test func theThreadHoldingTheMostFlushesWhenTheThreadsHoldTheBudget() {
        #expect(!IndexingThreads.flushes(0, usage: [30, 19], budget: 50))
        #expect(IndexingThreads.flushes(0, usage: [30, 20], budget: 50))
        #expect(!IndexingThreads.flushes(1, usage: [30, 20], budget: 50))
        #expect(IndexingThreads.flushes(1, usage: [20, 30], budget: 50))
        #expect(IndexingThreads.flushes(0, usage: [25, 25], budget: 50))
        #expect(!IndexingThreads.flushes(1, usage: [25, 25], budget: 50))
        #expect(IndexingThreads.flushes(2, usage: [10, 10, 40, 0], budget: 50))
        #expect(!IndexingThreads.flushes(0, usage: [10, 10, 40, 0], budget: 50))
    }

    static let words = ["red", "green", "blue", "apple", "berry", "stone", "river", "cloud", "light", "night"]

    enum Operation {
        case add(id: String, body: String, rank: Int64)
        case deleteID(String)
        case deleteWord(String)
        case commit
    }

    /// Mostly adds, and commits; when `deleting`, ids repeat (so some documents are upserted), with deletes by
    /// id and by a rare word (one of 200 tagged on every body).
    static func operations(seed: UInt64, count: Int, deleting: Bool) -> [Operation] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { n in
            switch Int.random(in: 0..<1000, using: &random) {
            case 0..<930:
                let body =
                    (0..<Int.random(in: 1...12, using: &random)).map { _ in words.randomElement(using: &random)! }
                    + ["w\(Int.random(in: 0..<200, using: &random))"]
                return .add(
                    id: deleting ? "d\(Int.random(in: 0..<4000, using: &random))" : "d\(n)",
                    body: body.joined(separator: " "), rank: Int64.random(in: 0..<100, using: &random))
            case 930..<980 where !deleting: return .commit
            case 930..<975: return .deleteID("d\(Int.random(in: 0..<4000, using: &random))")
            case 975..<980: return .deleteWord("w\(Int.random(in: 0..<200, using: &random))")
            default: return .commit
            }
        }
    }

    /// Runs `operations` on a new in-memory index written with `threads` threads (1 MB of budget each, so the
    /// threads flush several segments) and commits at the end.
    static func build(_ operations: [Operation], threads: Int) throws -> Index {
        let index = try Index.inMemory(schema: try schema())
        let writer = try index.writer(memoryBudget: threads * 1_000_000, threads: threads)
        for operation in operations {
            switch operation {
            case .add(let id, let body, let rank):
                try writer.addDocument([
                    "id": DocumentValue(.text(id)), "body": DocumentValue(.text(body)),
                    "rank": DocumentValue(.i64(rank)),
                ])
            case .deleteID(let id): try writer.deleteDocuments(field: "id", equals: id)
            case .deleteWord(let word): try writer.deleteDocuments(matching: .term("body", word))
            case .commit: try writer.commit()
            }
        }
        try writer.commitAndReload()
        return index
    }

    /// Every hit of `query` as "id|body|rank", with "|score" when `scores`, sorted: the same set whatever
    /// segment holds each document.
    static func hits(_ index: Index, _ query: Query, scores: Bool) throws -> [String] {
        try index.search(query, limit: 10_000).hits.map { hit in
            let id = hit.document.string("id") ?? "?"
            let body = hit.document.string("body") ?? "?"
            let rank = hit.document.uint("rank").map(String.init) ?? "?"
            return "\(id)|\(body)|\(rank)" + (scores ? "|\((hit.score * 10_000).rounded())" : "")
        }.sorted()
    }

    static let queries = [
        Query.matchAll, .term("body", "red"), .allOf([.term("body", "apple"), .term("body", "berry")]),
        .phrase("body", ["green", "stone"]), .range("rank", 10...40),
    ]

    /// Without deletes, the statistics BM25 reads (document count, document frequencies, field lengths) do not
    /// depend on how the documents are split into segments, so the scores are the same too.
    @Test(
        .timeLimit(.minutes(10)),
        arguments: [(seed: UInt64(4), threads: 2), (seed: 5, threads: 3)])
    func severalThreadsScoreAsOneThread(seed: UInt64, threads: Int) throws {
        let operations = Self.operations(seed: seed, count: 4_000, deleting: false)
        let one = try Self.build(operations, threads: 1)
        let parallel = try Self.build(operations, threads: threads)
        #expect(parallel.documentCount == one.documentCount && one.documentCount > 3_000, "seed \(seed)")
        for query in Self.queries {
            #expect(
                try Self.hits(parallel, query, scores: true) == Self.hits(one, query, scores: true),
                "seed \(seed), query \(query)")
        }
    }

    @Test(
        .timeLimit(.minutes(10)),
        arguments: [(seed: UInt64(1), threads: 2), (seed: 2, threads: 3), (seed: 3, threads: 4)])
    func severalThreadsHoldWhatOneThreadHolds(seed: UInt64, threads: Int) throws {
        let operations = Self.operations(seed: seed, count: 6_000, deleting: true)
        let one = try Self.build(operations, threads: 1)
        let parallel = try Self.build(operations, threads: threads)
        #expect(parallel.documentCount == one.documentCount, "seed \(seed)")
        #expect(parallel.documentCount > 2_000, "seed \(seed): enough documents survive to compare")
        for query in Self.queries {
            #expect(
                try Self.hits(parallel, query, scores: false) == Self.hits(one, query, scores: false),
                "seed \(seed), query \(query)")
        }
        try parallel.checkIntegrity()
    }

    /// The threads merge the segments they flush while they index, as the writer's merge policy picks them: with a
    /// policy that merges any two segments, the commit has a segment larger than any flush can make (one thread
    /// holding the whole budget, `.never`), and the same documents as one thread holds, though a merged segment's
    /// documents come from both threads and deletes by id (of documents added again and again) and by word fall
    /// between its flushes.
    @Test(.timeLimit(.minutes(10))) func theThreadsMergeTheirSegmentsWhileTheyIndexAndLoseNothing() throws {
        var random = SplitMix64(seed: 13)
        var operations: [Operation] = []
        for n in 0..<8_000 {
            // About 2 KB a body, so each thread's 1 MB fills every few hundred documents.
            let body = (0..<60).map { _ in "t\(Int.random(in: 0..<3_000, using: &random))" }
            operations.append(
                .add(
                    id: "d\(Int.random(in: 0..<6_000, using: &random))",
                    body: (body + [Self.words[n % Self.words.count], "g\(n % 40)"]).joined(separator: " "),
                    rank: Int64(n % 100)))
            if n % 97 == 0 { operations.append(.deleteID("d\(Int.random(in: 0..<6_000, using: &random))")) }
            if n % 150 == 0 { operations.append(.deleteWord("g\(n / 150 % 40)")) }
            if n == 5_000 { operations.append(.commit) }
        }
        let one = try Self.build(operations, threads: 1)
        let merging = MergePolicy(mergeFactor: 2, minimumSegmentSize: 100_000)
        var largestSegment: [MergePolicy: Int] = [:]
        for (threads, policy) in [(1, MergePolicy.never), (2, merging)] {
            let index = try Index.inMemory(schema: try Self.schema())
            let writer = try index.writer(memoryBudget: 2_000_000, threads: threads)
            writer.mergePolicy = policy
            for operation in operations {
                switch operation {
                case .add(let id, let body, let rank):
                    try writer.addDocument([
                        "id": DocumentValue(.text(id)), "body": DocumentValue(.text(body)),
                        "rank": DocumentValue(.i64(rank)),
                    ])
                case .deleteID(let id): try writer.deleteDocuments(field: "id", equals: id)
                case .deleteWord(let word): try writer.deleteDocuments(matching: .term("body", word))
                case .commit:
                    // No merge after the commit: only the threads' merges make the segments differ.
                    writer.mergePolicy = .never
                    try writer.commit()
                    writer.mergePolicy = policy
                }
            }
            writer.mergePolicy = .never
            try writer.commit()
            try index.reload()
            largestSegment[policy] = index.searcher().segmentInfos.map(\.maxDoc).max()
            #expect(index.documentCount == one.documentCount, "\(policy)")
            for query in Self.queries + [.term("body", "t7"), .term("id", "d42")] {
                #expect(
                    try Self.hits(index, query, scores: false) == Self.hits(one, query, scores: false),
                    "\(policy), query \(query)")
            }
            try index.checkIntegrity()
        }
        let merged = try #require(largestSegment[merging])
        let flushed = try #require(largestSegment[.never])
        #expect(merged > flushed, "merged while indexing: \(largestSegment)")
    }

    @Test(.timeLimit(.minutes(10))) func aDeleteRemovesOnlyTheDocumentsAddedBeforeItWhicheverThreadHasThem() throws {
        let index = try Index.inMemory(schema: try Self.schema())
        let writer = try index.writer(memoryBudget: 2_000_000, threads: 2)
        for i in 0..<500 {
            try writer.addDocument(["id": DocumentValue(.text("old\(i)")), "body": "before"])
        }
        try writer.deleteDocuments(matching: .term("body", "before"))
        for i in 0..<500 {
            try writer.addDocument(["id": DocumentValue(.text("new\(i)")), "body": "before after"])
        }
        try writer.commitAndReload()
        #expect(index.documentCount == 500)
        #expect(try index.count(.term("body", "after")) == 500)
        #expect(try index.search(.term("id", "old7")).totalCount == 0)
    }

    @Test(.timeLimit(.minutes(10))) func rollbackDropsTheSegmentsTheThreadsFlushed() throws {
        let folder = TemporaryDirectory()
        let index = try Index(path: folder.path, schema: try Self.schema())
        let writer = try index.writer(memoryBudget: 2_000_000, threads: 2)
        try writer.addDocument(["id": DocumentValue(.text("kept")), "body": "kept"])
        try writer.commit()
        let committedFiles = try Set(index.directory.list())
        // About 3 MB of postings and stored text: each thread passes its 1 MB at least once, and writes that
        // segment before it takes another batch, while at most a few batches are still queued.
        for i in 0..<4_000 {
            let body = (0..<50).map { "t\((i * 31 + $0) % 5_000)" }.joined(separator: " ")
            try writer.addDocument(["id": DocumentValue(.text("d\(i)")), "body": DocumentValue(.text(body))])
        }
        #expect(try Set(index.directory.list()).count > committedFiles.count, "the threads flushed segments")
        try writer.rollback()
        #expect(try Set(index.directory.list()) == committedFiles, "no file of the rolled-back segments is left")
        try writer.commitAndReload()
        #expect(index.documentCount == 1)
    }

    @Test(.timeLimit(.minutes(10))) func aFailedFlushOnAThreadFailsTheCommitUntilRollback() throws {
        let directory = FaultyDirectory()
        let index = try Index(directory: directory, schema: try Self.schema(), verifyChecksums: false)
        let writer = try index.writer(memoryBudget: 2_000_000, threads: 2)
        try writer.addDocument(["id": DocumentValue(.text("kept")), "body": "kept"])
        try writer.commit()
        directory.fail(filesEndingWith: ".store")
        for i in 0..<200 {
            try writer.addDocument(["id": DocumentValue(.text("d\(i)")), "body": "lost"])
        }
        #expect(throws: IndexError.self) { try writer.commit() }
        #expect(throws: IndexError.self, "a later commit would publish the batch without the failed segment") {
            try writer.commit()
        }
        directory.fail(filesEndingWith: nil)
        try writer.rollback()
        try writer.addDocument(["id": DocumentValue(.text("again")), "body": "again"])
        try writer.commitAndReload()
        #expect(index.documentCount == 2)
        #expect(try index.count(.term("body", "lost")) == 0)
    }

    /// JSON lines added as a batch are parsed on the writer's threads and added in line order: each line gets the
    /// opstamp or the error `addJSON(bytes:)` would give it, and with `stoppingAtFirstError` nothing after the
    /// first refused line is added.
    @Test(.timeLimit(.minutes(10)), arguments: [1, 2, 3])
    func jsonLinesAreParsedOnTheThreadsAndAddedInOrder(threads: Int) throws {
        let lines = (0..<500).map { i in
            switch i {
            case 100: #"{"id": "bad1", "rank": "not a number"}"#
            case 300: #"{"id": "bad2", "body": "unterminated"#
            default: #"{"id": "d\#(i)", "body": "line \#(i) \#(Self.words[i % Self.words.count])", "rank": \#(i)}"#
            }
        }
        var batch = JSONLines()
        for line in lines { line.utf8.withContiguousStorageIfAvailable { batch.append(UnsafeRawBufferPointer($0)) } }
        #expect(batch.count == 500)

        let index = try Index.inMemory(schema: try Self.schema())
        let writer = try index.writer(memoryBudget: threads * 1_000_000, threads: threads)
        let results = writer.addJSON(lines: batch, stoppingAtFirstError: false)
        #expect(results.count == 500)
        for (i, result) in results.enumerated() {
            switch (i, result) {
            case (100, .failure(let error)), (300, .failure(let error)):
                #expect(error.code == .invalidDocument)
            case (_, .success(let opstamp)):
                #expect(opstamp == UInt64(i < 100 ? i + 1 : i < 300 ? i : i - 1), "line \(i)")
            default:
                Issue.record("line \(i): \(result)")
            }
        }
        let stopped = writer.addJSON(lines: batch, stoppingAtFirstError: true)
        #expect(stopped.count == 101)
        if case .failure(let error) = stopped.last { #expect(error.context.field == "rank") }
        try writer.commitAndReload()
        #expect(index.documentCount == 598)
        #expect(try index.count(.term("id", "d499")) == 1)
        #expect(try index.count(.term("id", "d99")) == 2)
        #expect(try index.count(.term("id", "d101")) == 1)
        #expect(try index.count(.term("id", "bad1")) == 0)
    }

    @Test func threadCountsAndBudgetsAreChecked() throws {
        let index = try Index.inMemory(schema: try Self.schema())
        #expect(throws: IndexError.self) { try index.writer(threads: 0) }
        #expect(throws: IndexError.self) { try index.writer(threads: IndexWriter.maxThreads + 1) }
        #expect(throws: IndexError.self, "under 1 MB a thread") {
            try index.writer(memoryBudget: 3_000_000, threads: 4)
        }
        #expect(throws: IndexError.self, "over 4 GB") {
            try index.writer(memoryBudget: IndexWriter.maxMemoryBudget + 1)
        }
        #expect(IndexWriter.defaultThreads(memoryBudget: 50_000_000) >= 1)
        #expect(IndexWriter.defaultThreads(memoryBudget: 50_000_000) <= 3, "at least 15 MB a thread")
        #expect(IndexWriter.defaultThreads(memoryBudget: 1_000_000) == 1)
        let writer = try index.writer(memoryBudget: 4_000_000, threads: 4)
        try writer.addDocument(["id": DocumentValue(.text("a")), "body": "word"])
        try writer.commitAndReload()
        #expect(index.documentCount == 1)
    }
}
