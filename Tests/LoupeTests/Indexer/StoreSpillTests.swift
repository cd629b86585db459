import Loupe
import TestSupport
import Testing

/// A segment being indexed writes its store as it grows (`StoreSpill`, issue #13): once its compressed blocks pass
/// 1 MiB they go to the store's temporary file, which the flush finishes. Nothing about the segment changes, clean-
/// ups leave the file alone while the writer fills it, and a write that fails there fails the commit cleanly.
@Suite struct StoreSpillTests {
    static func schema() throws -> Schema {
        try SchemaBuilder()
            .addStringField("id", stored: true)
            .addTextField("body", stored: true)
            .build(defaultFields: ["body"], idField: "id")
    }

    /// Bodies of random letters (LZ4 saves little on them): 4,000 of them compress to well over the 1 MiB after
    /// which the store is written while indexing.
    static let bodies: [String] = {
        var random = SplitMix64(seed: 13)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return (0..<4_000).map { _ in
            (0..<120).map { _ in
                String(
                    (0..<Int.random(in: 3...9, using: &random)).map { _ in
                        letters.randomElement(using: &random)!
                    })
            }.joined(separator: " ")
        }
    }()

    static func add(_ range: Range<Int>, to writer: IndexWriter) throws {
        for i in range {
            try writer.addDocument(["id": DocumentValue(.text("d\(i)")), "body": DocumentValue(.text(bodies[i]))])
        }
    }

    /// The temporary store files in `directory`.
    static func spilled(_ directory: any Directory) throws -> [String] {
        try directory.list().filter { $0.hasSuffix(".store.tmp") }
    }

    @Test func aLargeStoreIsWrittenWhileIndexingAndReadsBackWhole() throws {
        let disk = TemporaryDirectory()
        let directory = try MmapDirectory(path: disk.path, create: true)
        let index = try Index(directory: directory, schema: try Self.schema(), verifyChecksums: true)
        let writer = try index.writer()
        try Self.add(0..<Self.bodies.count, to: writer)
        #expect(try Self.spilled(directory).count == 1, "the store went to its file before the flush")

        let collected = try writer.garbageCollect()
        #expect(collected.files.isEmpty, "a clean-up while indexing removed \(collected.files)")
        #expect(try Self.spilled(directory).count == 1)

        try writer.commitAndReload()
        #expect(try Self.spilled(directory).isEmpty)
        let reopened = try Index(directory: directory, schema: nil, verifyChecksums: true)
        #expect(reopened.documentCount == Self.bodies.count)
        for i in stride(from: 0, to: Self.bodies.count, by: 7) {
            let hit = try #require(try reopened.get("id", equals: "d\(i)"))
            #expect(hit.document.string("body") == Self.bodies[i], "document d\(i)")
        }
        #expect(try reopened.count("body:\(Self.bodies[1234].split(separator: " ")[5])") >= 1)
    }

    /// The same documents make the same store file, written while indexing or all at the flush.
    @Test func aSpilledStoreIsByteIdenticalToOneWrittenAtTheFlush() throws {
        let schema = try Self.schema()
        var files: [[UInt8]] = []
        for spilling in [false, true] {
            let directory = RAMDirectory()
            var writer = try SegmentWriter(
                schema: schema, analyzers: .builtIn, spillingStoreTo: spilling ? directory : nil)
            for (i, body) in Self.bodies.enumerated() {
                var document = Document()
                document.add("id", .text("d\(i)"))
                document.add("body", .text(body))
                writer.add(try schema.prepare(document))
            }
            let id = writer.id
            try SegmentSerializer.write(writer, to: directory)
            files.append(try directory.contents(SegmentComponent.store.fileName(id)))
        }
        #expect(files[0].count > 2 * StoreSpill.threshold)
        #expect(files[0] == files[1])
    }

    @Test func aRollbackRemovesTheStoreBeingWritten() throws {
        let disk = TemporaryDirectory()
        let directory = try MmapDirectory(path: disk.path, create: true)
        let index = try Index(directory: directory, schema: try Self.schema(), verifyChecksums: true)
        let writer = try index.writer()
        try Self.add(0..<10, to: writer)
        try writer.commit()
        let committed = Set(try directory.list())
        try Self.add(10..<Self.bodies.count, to: writer)
        #expect(try Self.spilled(directory).count == 1)
        try writer.rollback()
        #expect(Set(try directory.list()) == committed, "only the committed files are left")
    }

    @Test(arguments: [1, 2])
    func aStoreWriteFailingWhileIndexingFailsTheCommitAndKeepsTheLastOne(threads: Int) throws {
        let disk = TemporaryDirectory()
        let directory = FaultyDirectory(wrapping: try MmapDirectory(path: disk.path, create: true))
        let index = try Index(directory: directory, schema: try Self.schema(), verifyChecksums: true)
        let writer = try index.writer(memoryBudget: 50_000_000, threads: threads)
        try Self.add(0..<100, to: writer)
        try writer.commitAndReload()

        directory.fail(filesEndingWith: ".store", afterBytes: 100_000)
        try Self.add(100..<Self.bodies.count, to: writer)
        do {
            try writer.commit()
            Issue.record("the commit must report the store's failed write")
        } catch {
            #expect(error.code == .io, "\(error)")
            #expect(error.message.contains("store"), "\(error)")
        }
        #expect(directory.midFileFailures >= 1)
        directory.fail(filesEndingWith: nil)
        #expect(try directory.list().allSatisfy { !$0.hasSuffix(".tmp") }, "the temporary file is removed")
        let reopened = try Index(directory: directory, schema: nil, verifyChecksums: true)
        #expect(reopened.documentCount == 100)

        try writer.rollback()
        try Self.add(100..<Self.bodies.count, to: writer)
        try writer.commitAndReload()
        #expect(index.documentCount == Self.bodies.count)
        #expect(try index.get("id", equals: "d3999")?.document.string("body") == Self.bodies[3999])
    }
}
