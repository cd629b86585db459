import Foundation
import Loupe
import TestSupport
import Testing

@Suite struct IndexLifecycleTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("body", stored: true)
        .addU64Field("n", stored: true, fast: true)
        .build(defaultFields: ["body"], idField: "id")

    private func doc(_ i: Int) -> Document {
        ["id": "d\(i)", "body": "word\(i % 7) common text number \(i)", "n": DocumentValue(.u64(UInt64(i)))]
    }

    private func segmentFiles(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter {
            $0.count > 33 && !$0.hasPrefix(".") && $0 != "meta.json"
        }
    }

    @Test func documentsAppearOnlyAfterCommitAndReload() throws {
        let tmp = TemporaryDirectory()
        let index = try Index(path: tmp.path, schema: Self.schema)
        let writer = try index.writer()
        for i in 0..<10 { try writer.addDocument(doc(i)) }
        #expect(index.documentCount == 0)
        let stamp = try writer.commit()
        #expect(stamp == 10)
        #expect(index.documentCount == 0, "not visible before reload")
        try index.reload()
        #expect(index.documentCount == 10)
        #expect(try index.count(.term("body", "common")) == 10)
        #expect(try index.count(.term("n", .u64(3))) == 1)
    }

    @Test func rollbackDropsUncommittedDocumentsAndTheirSegments() throws {
        let tmp = TemporaryDirectory()
        let index = try Index(path: tmp.path, schema: Self.schema)
        let writer = try index.writer(memoryBudget: 1_000_000)
        for i in 0..<5 { try writer.addDocument(doc(i)) }
        try writer.commitAndReload()
        let committedFiles = try segmentFiles(tmp.path)
        // Enough text to overflow the 1 MB budget, so segments are flushed before the rollback.
        let long = String(repeating: "filler words of some length ", count: 2000)
        for i in 0..<40 { try writer.addDocument(["id": "x\(i)", "body": DocumentValue(.text(long + "\(i)"))]) }
        #expect(try segmentFiles(tmp.path).count > committedFiles.count, "a flush happened")
        try writer.rollback()
        #expect(try Set(segmentFiles(tmp.path)) == Set(committedFiles))
        try writer.addDocument(doc(99))
        try writer.commitAndReload()
        #expect(index.documentCount == 6)
        #expect(try index.count(.term("id", "x3")) == 0)
    }

    @Test func secondWriterIsLockedUntilTheFirstIsReleased() throws {
        let tmp = TemporaryDirectory()
        let index = try Index(path: tmp.path, schema: Self.schema)
        var first: IndexWriter? = try index.writer()
        let other = try Index(path: tmp.path)
        #expect(throws: IndexError.self) { try other.writer() }
        do {
            _ = try other.writer()
        } catch {
            #expect(error.code == .writerLocked)
        }
        #expect(first != nil)
        first = nil
        _ = try other.writer()
    }

    /// A lock held a moment longer than its writer, as by a child process being spawned that shares its descriptor
    /// until `exec` closes it: a new writer waits for it rather than report the index locked.
    @Test func aWriterWaitsForALockReleasedAMomentLater() throws {
        let tmp = TemporaryDirectory()
        let index = try Index(path: tmp.path, schema: Self.schema)
        let fd = open(tmp.path + "/.loupe-writer.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
        // A thread of its own: Dispatch's global queues have a thread a core, which the tests running alongside
        // may all hold for longer than the writer waits.
        Thread.detachNewThread {
            usleep(50_000)
            close(fd)
        }
        let writer = try index.writer()
        try writer.addDocument(doc(1))
        try writer.commitAndReload()
        #expect(index.documentCount == 1)
    }

    @Test func inMemoryIndexLocksToo() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        #expect(throws: IndexError.self) { try index.writer() }
        try writer.addDocument(doc(1))
        try writer.commitAndReload()
        #expect(index.documentCount == 1)
    }

    @Test func reopenAfterCrashIgnoresAndCleansUncommittedSegments() throws {
        let tmp = TemporaryDirectory()
        do {
            let index = try Index(path: tmp.path, schema: Self.schema)
            let writer = try index.writer(memoryBudget: 1_000_000)
            for i in 0..<3 { try writer.addDocument(doc(i)) }
            try writer.commit()
            let long = (0..<3000).map { "crash filler \($0)" }.joined(separator: " ")
            for i in 0..<40 { try writer.addDocument(["body": DocumentValue(.text(long + "\(i)"))]) }
            // The process "dies" here: no commit, no rollback. Simulate leftover files by leaking nothing more.
        }
        let before = try segmentFiles(tmp.path)
        let reopened = try Index(path: tmp.path)
        #expect(reopened.documentCount == 3)
        #expect(try reopened.count(.term("body", "crash")) == 0)
        let writer = try reopened.writer()
        let after = try segmentFiles(tmp.path)
        #expect(after.count < before.count, "the next writer removes files no commit references")
        try writer.addDocument(doc(7))
        try writer.commitAndReload()
        #expect(reopened.documentCount == 4)
    }

    @Test func openingWithAnotherSchemaIsAnError() throws {
        let tmp = TemporaryDirectory()
        _ = try Index(path: tmp.path, schema: Self.schema)
        let other = try SchemaBuilder().addTextField("title").build()
        do {
            _ = try Index(path: tmp.path, schema: other)
            Issue.record("expected a schema mismatch")
        } catch {
            #expect(error.code == .schemaMismatch)
        }
        #expect(try Index(path: tmp.path, schema: Self.schema).schema == Self.schema)
        do {
            _ = try Index(path: tmp.path + "/missing")
            Issue.record("expected not found")
        } catch {
            #expect(error.code == .notFound)
        }
    }

    @Test func damagedSegmentFileIsReportedAtOpen() throws {
        let tmp = TemporaryDirectory()
        let index = try Index(path: tmp.path, schema: Self.schema)
        let writer = try index.writer()
        for i in 0..<20 { try writer.addDocument(doc(i)) }
        try writer.commit()
        let postings = try #require(try segmentFiles(tmp.path).first { $0.hasSuffix(".postings") })
        let url = URL(fileURLWithPath: tmp.path + "/" + postings)
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count / 2] ^= 0x40
        try bytes.write(to: url)
        do {
            _ = try Index(path: tmp.path, verifyChecksums: true)
            Issue.record("expected corruption")
        } catch {
            #expect(error.code == .corruption)
            #expect(error.context.file == postings)
        }
        // A plain open checks footers and offsets only; the integrity check reads every byte.
        let reopened = try Index(path: tmp.path)
        do {
            try reopened.checkIntegrity()
            Issue.record("expected corruption")
        } catch {
            #expect(error.code == .corruption)
            #expect(error.context.file == postings)
        }
    }

    @Test func damagedFooterIsReportedByEveryOpen() throws {
        let tmp = TemporaryDirectory()
        let index = try Index(path: tmp.path, schema: Self.schema)
        let writer = try index.writer()
        try writer.addDocument(doc(1))
        try writer.commit()
        let terms = try #require(try segmentFiles(tmp.path).first { $0.hasSuffix(".terms") })
        let url = URL(fileURLWithPath: tmp.path + "/" + terms)
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count - 1] ^= 0xFF
        try bytes.write(to: url)
        do {
            _ = try Index(path: tmp.path)
            Issue.record("expected corruption")
        } catch {
            #expect(error.code == .corruption)
            #expect(error.message.contains("magic"))
        }
    }

    @Test func searchersAreSnapshotsSharedAcrossThreads() async throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        for i in 0..<200 { try writer.addDocument(doc(i)) }
        try writer.commitAndReload()
        let searcher = index.searcher()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { try searcher.count(.term("body", "common")) }
            }
            for i in 200..<400 { try writer.addDocument(doc(i)) }
            try writer.commitAndReload()
            for try await count in group { #expect(count == 200) }
        }
        #expect(index.documentCount == 400)
        #expect(searcher.documentCount == 200)
    }
}
