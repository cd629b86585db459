import Foundation
import Loupe
import TestSupport
import Testing

/// The writer's lifecycle (open, close, release), its use from many tasks, and the one-call updates of `Index`
/// that reuse the writer it has open.
@Suite struct WriterLifecycleTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("title", stored: true)
        .addU64Field("year", stored: true, fast: true)
        .build(defaultFields: ["title"], idField: "id")

    private static func doc(_ id: String, _ title: String = "dune", year: UInt64 = 1965) -> Document {
        ["id": DocumentValue(.text(id)), "title": DocumentValue(.text(title)), "year": DocumentValue(.u64(year))]
    }

    private static func expectClosed(_ call: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: IndexError.self, sourceLocation: sourceLocation) { try call() }
        #expect(error?.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error?.message.contains("this writer is closed") == true, sourceLocation: sourceLocation)
    }

    @Test func closeReleasesTheLockAndRejectsLaterCalls() throws {
        let folder = TemporaryDirectory()
        let index = try Index(path: folder.path, schema: Self.schema)
        let writer = try index.writer()
        try writer.addDocument(Self.doc("a"))
        try writer.commit()
        try writer.addDocument(Self.doc("uncommitted"))
        try writer.deleteDocuments(field: "id", equals: "a")
        try writer.close()

        let other = try Index(path: folder.path)
        _ = try other.writer()
        #expect(other.documentCount == 1, "close discards the uncommitted add and delete")
        #expect(try other.count(.term("id", "uncommitted")) == 0)

        Self.expectClosed { _ = try writer.addDocument(Self.doc("b")) }
        Self.expectClosed { _ = try writer.addJSON(#"{"id": "c"}"#) }
        Self.expectClosed { _ = try writer.addDocument(["nope": "not in the schema"]) }
        Self.expectClosed { _ = try writer.deleteDocuments(field: "id", equals: "a") }
        Self.expectClosed { _ = try writer.commit() }
        Self.expectClosed { _ = try writer.commitAndReload() }
        Self.expectClosed { try writer.rollback() }
        Self.expectClosed { try writer.merge() }
        Self.expectClosed { _ = try writer.garbageCollect(dryRun: true) }
        Self.expectClosed { try writer.close() }
        writer.waitForMerges()
        #expect(writer.uncommittedDocuments == 0 && writer.lastMergeError == nil)
    }

    @Test func closePublishesTheRunningMerges() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        writer.mergePolicy = MergePolicy(mergeFactor: 2)
        for i in 0..<6 {
            try writer.addDocument(Self.doc("d\(i)"))
            try writer.commit()
        }
        try writer.close()
        try index.reload()
        #expect(index.stats().segmentCount == 1)
        #expect(index.documentCount == 6)
    }

    @Test(arguments: [false, true]) func releasingTheWriterReleasesTheLock(onDisk: Bool) throws {
        let folder = TemporaryDirectory()
        let index = onDisk ? try Index(path: folder.path, schema: Self.schema) : try Index.inMemory(schema: Self.schema)
        var first: IndexWriter? = try index.writer()
        try first?.addDocument(Self.doc("a"))
        #expect(throws: IndexError.self) { try index.writer() }
        first = nil
        let second = try index.writer()
        try second.commitAndReload()
        #expect(index.documentCount == 0, "releasing discards the uncommitted documents")
        try second.close()
        _ = try index.writer()
    }

    @Test func heapSize() throws {
        let index = try Index.inMemory(schema: Self.schema)
        try index.writer(heapSize: 0).close()
        try index.writer(heapSize: 1_000_000).close()
        for tooSmall in [1, 999_999, -5] {
            do {
                _ = try index.writer(heapSize: tooSmall)
                Issue.record("expected \(tooSmall) to be refused")
            } catch {
                #expect(error.code == .invalidArgument)
            }
        }
        _ = try index.writer()
    }

    @Test func mergeLeavesOneSegmentWithoutDeletedDocuments() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        writer.mergePolicy = .never
        for i in 0..<30 {
            try writer.addDocument(Self.doc("d\(i)", i % 2 == 0 ? "even" : "odd"))
            if i % 10 == 9 { try writer.commit() }
        }
        try writer.deleteDocuments(field: "title", equals: "odd")
        try writer.commitAndReload()
        #expect(index.stats().segmentCount == 3 && index.stats().deletedCount == 15)
        try writer.merge()
        try index.reload()
        let stats = index.stats()
        #expect(stats.segmentCount == 1 && stats.deletedCount == 0 && stats.maxDoc == 15 && stats.documentCount == 15)
        #expect(try index.count(.term("title", "even")) == 15)
    }

    @Test func oneCallUpdatesReuseTheOpenWriterAndPublishItsPendingChanges() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        try writer.addDocument(Self.doc("pending"))
        try index.add(Self.doc("a"))
        #expect(index.documentCount == 2, "the helper's commit publishes the writer's pending document")
        #expect(writer.uncommittedDocuments == 0)

        try index.upsert(Self.doc("a", "messiah", year: 1969), idField: "id")
        #expect(try index.get("id", equals: "a")?.uint("year") == 1969)
        try writer.addDocument(Self.doc("b"))
        #expect(try index.delete(matching: .term("id", "pending")) == 1)
        #expect(index.documentCount == 2)
        try index.optimize()
        #expect(index.stats().segmentCount == 1 && index.stats().deletedCount == 0)
        #expect(try index.garbageCollect(dryRun: true).files.isEmpty)
        #expect(try index.write { try $0.addDocument(Self.doc("c")) } > 0)
        #expect(index.documentCount == 3)

        #expect(throws: IndexError.self) { try index.writer() }
        try writer.addDocument(Self.doc("d"))
        try writer.commitAndReload()
        #expect(index.documentCount == 4, "the writer stays usable")
    }

    @Test func oneCallUpdatesOpenATemporaryWriterOnceTheOpenOneIsClosed() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        try writer.close()
        try index.add(Self.doc("a"))
        try index.optimize()
        #expect(index.documentCount == 1)
        _ = try index.writer()
    }

    @Test(arguments: [false, true]) func writeCommitsWhenTheBodyReturns(reusing: Bool) throws {
        let index = try Index.inMemory(schema: Self.schema)
        let open = reusing ? try index.writer() : nil
        let title = try index.write { writer in
            try writer.addDocument(["title": "Dune", "year": 1965])
            try writer.addDocument(Self.doc("b"))
            return "two added"
        }
        #expect(title == "two added")
        #expect(index.documentCount == 2)
        try index.write { w in try w.addDocument(["title": "Dune", "year": 1965]) }
        #expect(index.documentCount == 3)
        if open == nil { _ = try index.writer() }
    }

    private struct Abandon: Error {}

    @Test(arguments: [false, true]) func writeCommitsNothingWhenTheBodyThrows(reusing: Bool) throws {
        let index = try Index.inMemory(schema: Self.schema)
        let open = reusing ? try index.writer() : nil
        try open?.addDocument(Self.doc("earlier"))
        #expect(throws: Abandon.self) {
            try index.write { writer in
                try writer.addDocument(Self.doc("a"))
                try writer.deleteAllDocuments()
                throw Abandon()
            }
        }
        try index.reload()
        #expect(index.documentCount == 0)
        #expect(open?.uncommittedDocuments ?? 0 == 0, "the open writer's earlier changes are rolled back too")
        if let open {
            try open.commitAndReload()
            #expect(index.documentCount == 0)
        } else {
            _ = try index.writer()
        }
    }

    @Test func addContentsOfMakesOneCommit() throws {
        let index = try Index.inMemory(schema: Self.schema)
        try index.add(contentsOf: (0..<50).map { Self.doc("d\($0)") })
        #expect(index.documentCount == 50)
        #expect(index.stats().segmentCount == 1, "one commit, one segment")
        #expect(throws: IndexError.self) {
            try index.add(contentsOf: [Self.doc("fine"), ["year": "not a number"]])
        }
        try index.reload()
        #expect(index.documentCount == 50, "a batch with an invalid document adds none")
        #expect(try index.count(.term("id", "fine")) == 0)
    }

    @Test func manyTasksShareOneWriter() async throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<100 { try writer.addDocument(Self.doc("t\(task)-\(i)", "task\(task)")) }
                }
            }
            try await group.waitForAll()
        }
        #expect(writer.uncommittedDocuments == 800)
        try await writer.commitAsync()
        try index.reload()
        #expect(index.documentCount == 800)
        for task in 0..<8 { #expect(try index.count(.term("title", "task\(task)")) == 100) }
        #expect(try index.get("id", equals: "t7-99") != nil)
    }

    @Test func asyncCommitAndOptimize() async throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        writer.mergePolicy = .never
        for i in 0..<3 {
            try writer.addDocument(Self.doc("d\(i)"))
            let stamp = try await writer.commitAsync()
            #expect(stamp == UInt64(i + 1))
        }
        try index.reload()
        #expect(index.stats().segmentCount == 3)
        try await index.optimizeAsync()
        #expect(index.stats().segmentCount == 1 && index.documentCount == 3)
        // The sync calls stay unambiguous in async code (the async ones have their own names).
        try index.optimize()
        try writer.commit()
    }
}
