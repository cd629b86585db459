import Loupe
import TestSupport
import Testing

@Suite struct FaultInjectionTests {
    @Test(.timeLimit(.minutes(Sanitizers.slowdown))) func aFailedMergeLeavesTheCommitStandingAndIsRetried() throws {
        let schema = try SchemaBuilder().addStringField("id", stored: true).addTextField("body").build(defaultFields: [
            "body"
        ])
        let directory = FaultyDirectory()
        let index = try Index(directory: directory, schema: schema, verifyChecksums: false)
        let writer = try index.writer()
        writer.mergePolicy = .never
        for i in 0..<4 {
            try writer.addDocument(["id": DocumentValue(.text("d\(i)")), "body": "text"])
            try writer.commit()
        }
        writer.mergePolicy = MergePolicy(mergeFactor: 2)
        directory.fail(filesEndingWith: ".store")
        try writer.commitAndReload()
        writer.waitForMerges()
        try index.reload()
        #expect(writer.lastMergeError != nil)
        #expect(index.stats().segmentCount == 4 && index.documentCount == 4, "the failed merge changed nothing")
        directory.fail(filesEndingWith: nil)
        try writer.commitAndReload()
        writer.waitForMerges()
        try index.reload()
        try writer.garbageCollect()
        #expect(writer.lastMergeError == nil)
        #expect(index.stats().segmentCount == 1 && index.documentCount == 4)
        #expect(
            try writer.garbageCollect(dryRun: true).files.isEmpty,
            "the failed merge's and the merged-away files are gone")
    }

    @Test func aFailedFlushBlocksCommitsUntilRollback() throws {
        let schema = try SchemaBuilder().addStringField("id", stored: true).addTextField("body").build(defaultFields: [
            "body"
        ])
        let directory = FaultyDirectory()
        let index = try Index(directory: directory, schema: schema, verifyChecksums: false)
        let writer = try index.writer()
        try writer.addDocument(["id": "kept", "body": "committed text"])
        try writer.commitAndReload()

        try writer.addDocument(["id": "lost", "body": "uncommitted text"])
        directory.fail(filesEndingWith: ".postings")
        #expect(throws: IndexError.self) { try writer.commit() }
        directory.fail(filesEndingWith: nil)
        do {
            try writer.commit()
            Issue.record("a commit after a failed flush must be refused")
        } catch {
            #expect(error.message.contains("rollback"))
        }
        #expect(throws: IndexError.self) { try writer.addDocument(["id": "x"]) }

        try writer.rollback()
        try writer.addDocument(["id": "after", "body": "retried text"])
        try writer.commitAndReload()
        #expect(index.documentCount == 2)
        #expect(try index.count(.term("id", "lost")) == 0)
        #expect(try index.count(.term("id", "after")) == 1)
        let reopened = try Index(directory: directory, schema: nil, verifyChecksums: true)
        #expect(reopened.documentCount == 2)
    }

    @Test func aFailedMetaWriteKeepsThePreviousCommit() throws {
        let schema = try SchemaBuilder().addStringField("id", stored: true).build()
        let directory = FaultyDirectory()
        let index = try Index(directory: directory, schema: schema, verifyChecksums: false)
        let writer = try index.writer()
        try writer.addDocument(["id": "one"])
        try writer.commit()
        try writer.addDocument(["id": "two"])
        directory.fail(filesEndingWith: "meta.json")
        #expect(throws: IndexError.self) { try writer.commit() }
        directory.fail(filesEndingWith: nil)
        try index.reload()
        #expect(index.documentCount == 1, "the failed commit published nothing")
        // The segment was flushed before meta.json failed, so a retried commit publishes it.
        try writer.commitAndReload()
        #expect(index.documentCount == 2)
    }
}
