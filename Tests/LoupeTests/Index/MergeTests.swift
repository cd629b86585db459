import Foundation
import Loupe
import TestSupport
import Testing

@Suite struct MergeTests {
    static func schema() throws -> Schema {
        try SchemaBuilder()
            .addStringField("id", stored: true)
            .addTextField("title", stored: true)
            .addTextField("body")
            .addU64Field("year", stored: true, fast: true)
            .addF64Field("rating", fast: true)
            .build(defaultFields: ["title", "body"], idField: "id")
    }

    static let words = ["heat", "heart", "night", "light", "dark", "knight", "city", "river", "stone", "fire"]

    /// Several segments of random documents, committed with merges off.
    static func fragmented(seed: UInt64, documents: Int, commits: Int) throws -> (Index, IndexWriter) {
        var rng = SplitMix64(seed: seed)
        let index = try Index.inMemory(schema: try schema())
        let writer = try index.writer()
        writer.mergePolicy = .never
        for i in 0..<documents {
            let title = (0..<Int.random(in: 1...3, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(
                separator: " ")
            let body = (0..<Int.random(in: 0...12, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(
                separator: " ")
            var doc: Document = [
                "id": DocumentValue(.text("d\(i)")), "title": DocumentValue(.text(title)),
                "body": DocumentValue(.text(body)),
            ]
            doc.add("year", .i64(Int64.random(in: 1950...2020, using: &rng)))
            if Bool.random(using: &rng) { doc.add("rating", .f64(Double(Int.random(in: 10...90, using: &rng)) / 10)) }
            try writer.addDocument(doc)
            if (i + 1) % (documents / commits) == 0 { try writer.commit() }
        }
        try writer.commitAndReload()
        return (index, writer)
    }

    static let queries: [Query] = [
        .term("title", "heat"), .term("body", "night"), .parsed("heat night"), .parsed("+dark -fire"),
        .phrase("body", ["dark", "knight"], slop: 1), .fuzzy("title", "hert", distance: 1), .prefix("body", "ri"),
        .regex("title", "(heat|light)"), .range("year", 1980...1999), .exists("rating"),
        .parsed("\"city river\"~2 stone"),
    ]

    static func results(_ index: Index, _ query: Query, order: SearchOrder = .relevance) throws -> [(String, Float)] {
        try index.search(query, limit: 1000, orderBy: order).hits.map { ($0.document.string("id") ?? "", $0.score) }
    }

    @Test(arguments: 0..<3 as Range<UInt64>)
    func optimizeKeepsHitsScoresAndOrder(seed: UInt64) throws {
        let (index, _) = try Self.fragmented(seed: seed, documents: 240, commits: 6)
        #expect(index.stats().segmentCount == 6)
        let before = try Self.queries.map { try Self.results(index, $0) }
        let sorted = try Self.results(index, .matchAll, order: .descending("year"))
        try index.optimize()
        #expect(index.stats().segmentCount == 1)
        for (query, expected) in zip(Self.queries, before) {
            let after = try Self.results(index, query)
            #expect(after.map(\.0) == expected.map(\.0), "\(query)")
            for (a, b) in zip(after, expected) { #expect(abs(a.1 - b.1) <= 1e-5 * max(1, abs(b.1)), "\(query)") }
        }
        #expect(try Self.results(index, .matchAll, order: .descending("year")).map(\.0) == sorted.map(\.0))
        let doc = try #require(try index.get("id", equals: "d7"))
        #expect(doc.string("title") != nil && doc.uint("year") != nil, "stored fields survive the merge")
    }

    @Test func mergesDropDeletedDocuments() throws {
        let (index, writer) = try Self.fragmented(seed: 7, documents: 200, commits: 5)
        for i in stride(from: 0, to: 200, by: 3) { try writer.deleteDocuments(field: "id", equals: .text("d\(i)")) }
        try writer.commitAndReload()
        let before = try Self.queries.map { try Set(Self.results(index, $0).map(\.0)) }
        let counts = try Self.queries.map { try index.count($0) }
        #expect(index.stats().deletedCount == 67)
        try writer.merge()
        try index.reload()
        let stats = index.stats()
        #expect(stats.deletedCount == 0 && stats.maxDoc == 133 && stats.documentCount == 133 && stats.segmentCount == 1)
        for (i, query) in Self.queries.enumerated() {
            #expect(try Set(Self.results(index, query).map(\.0)) == before[i], "\(query)")
            #expect(try index.count(query) == counts[i], "\(query)")
        }
    }

    @Test func frequentSmallCommitsKeepFewSegmentsAndLeaveNoGarbage() throws {
        let folder = TemporaryDirectory()
        let index = try Index(path: folder.path, schema: Self.schema())
        let writer = try index.writer()
        for i in 0..<300 {
            try writer.addDocument(["id": DocumentValue(.text("d\(i)")), "title": "small commit", "year": 2000])
            try writer.commit()
        }
        writer.waitForMerges()
        try index.reload()
        let stats = index.stats()
        #expect(stats.documentCount == 300)
        #expect(stats.segmentCount < 8, "got \(stats.segmentCount) segments")
        #expect(try writer.garbageCollect(dryRun: true).files.isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            !$0.hasPrefix(".") && !$0.hasPrefix("meta.")
        }
        let directory = try MmapDirectory(path: folder.path, create: false)
        let kept = Set(
            try
                (Index.readMeta(directory).segments
                + Index.readMeta(directory, name: IndexMeta.previousFileName).segments).map(\.id))
        #expect(files.count == kept.count * 6, "only the segments of the last two commits remain")
    }

    @Test func garbageCollectionSparesSegmentsASearcherHolds() throws {
        let (index, writer) = try Self.fragmented(seed: 3, documents: 60, commits: 3)
        let held = index.searcher()
        try writer.merge()
        #expect(try writer.garbageCollect().files.isEmpty, "the merged-away segments wait for their searcher")
        try index.reload()
        #expect(try held.count(.matchAll) == 60, "the held searcher still reads its segments")
        #expect(try writer.garbageCollect().files.isEmpty)
        _ = consume held
        #expect(try writer.garbageCollect().files.isEmpty, "the commit before the merge still lists them")
        let before = try index.directory.list().count
        try writer.commit()
        #expect(try index.directory.list().count == before - 18, "three segments of six files went at the next commit")
        #expect(try index.count(.matchAll) == 60)
    }

    /// A delete committed while a background merge runs reaches the merged segment when it is published.
    @Test(arguments: 0..<5) func deletesDuringABackgroundMergeAreKept(round: Int) throws {
        let (index, writer) = try Self.fragmented(seed: UInt64(round), documents: 200, commits: 4)
        writer.mergePolicy = MergePolicy(mergeFactor: 2)
        try writer.commit()
        try writer.deleteDocuments(field: "id", equals: .text("d\(7 + round)"))
        try writer.addDocument(["id": "late", "title": "added while merging"])
        try writer.commit()
        writer.waitForMerges()
        try index.reload()
        #expect(try index.get("id", equals: .text("d\(7 + round)")) == nil)
        #expect(try index.get("id", equals: "late") != nil)
        #expect(index.documentCount == 200)
        #expect(try index.count(.matchAll) == 200)
        #expect(index.stats().segmentCount <= 2)
    }

    @Test func garbageCollectionRemovesOrphansAndReportsThem() throws {
        let folder = TemporaryDirectory()
        let index = try Index(path: folder.path, schema: Self.schema())
        let writer = try index.writer()
        try writer.addDocument(["id": "a", "title": "kept"])
        try writer.commitAndReload()
        // A merge interrupted by a crash leaves a segment file nothing references.
        let orphan = folder.path + "/0123456789abcdef0123456789abcdef.store"
        try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: orphan))
        let listed = try writer.garbageCollect(dryRun: true)
        #expect(listed.files == ["0123456789abcdef0123456789abcdef.store"] && listed.byteCount == 100)
        #expect(FileManager.default.fileExists(atPath: orphan), "a dry run removes nothing")
        try writer.garbageCollect()
        #expect(!FileManager.default.fileExists(atPath: orphan))
        #expect(try index.count(.term("id", "a")) == 1)
    }
}

/// 10,000 one-document commits (set LOUPE_SOAK=1 to run; about a minute): the segment count stays small, the
/// index opens fast, and nothing is left behind.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["LOUPE_SOAK"] == "1")) struct ManySmallCommitsSoak {
    @Test func tenThousandOneDocumentCommits() throws {
        let folder = TemporaryDirectory()
        let index = try Index(path: folder.path, schema: MergeTests.schema())
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let writer = try index.writer()
            for i in 0..<10_000 {
                try writer.addDocument(["id": DocumentValue(.text("d\(i)")), "title": "one small commit", "year": 2000])
                try writer.commit()
            }
            writer.waitForMerges()
            #expect(try writer.garbageCollect(dryRun: true).files.isEmpty)
        }
        let writing = clock.now - start
        var opens: [Duration] = []
        for _ in 0..<5 {
            let t = clock.now
            let reopened = try Index(path: folder.path)
            _ = reopened.searcher()
            opens.append(clock.now - t)
        }
        let reopened = try Index(path: folder.path)
        let stats = reopened.stats()
        print("10,000 commits: \(writing); segments \(stats.segmentCount); open median \(opens.sorted()[2])")
        #expect(stats.documentCount == 10_000)
        #expect(stats.segmentCount <= 16)
        #expect(opens.sorted()[2] < .milliseconds(50))
    }
}
