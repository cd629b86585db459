import Loupe
import LoupeCodec
import TestSupport
import Testing

/// The commit point (meta.json) is checksummed and keeps the commit before it: damage is an error naming the file,
/// never a silently different index, and the previous commit can be restored (Docs/FORMAT.md §5).
@Suite struct CommitPointTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("body", stored: true)
        .addU64Field("year", fast: true)
        .build(defaultFields: ["body"], idField: "id")

    /// Two commits: `first` documents, then one more and a delete of d0.
    static func twoCommits(_ directory: any Directory, first: Int = 3) throws -> Index {
        let index = try Index(directory: directory, schema: schema, verifyChecksums: false)
        let writer = try index.writer()
        writer.mergePolicy = .never
        for i in 0..<first {
            try writer.addDocument(["id": DocumentValue(.text("d\(i)")), "body": "text \(i)", "year": 2000])
        }
        try writer.commit()
        try writer.addDocument(["id": "late", "body": "late text", "year": 2001])
        try writer.deleteDocuments(field: "id", equals: "d0")
        try writer.commit()
        try writer.close()
        try index.reload()
        return index
    }

    static func ids(_ index: Index) throws -> [String] {
        try index.search(.matchAll, limit: 100).hits.compactMap { $0.string("id") }.sorted()
    }

    static func replace(_ directory: any Directory, _ name: String, with bytes: [UInt8]) throws {
        try directory.writeAtomically(name, bytes)
    }

    @Test func everySingleBitFlipOfMetaJSONIsCaughtAndNamesTheFile() throws {
        let directory = RAMDirectory()
        _ = try Self.twoCommits(directory)
        let sound = try directory.contents(IndexMeta.fileName)
        var caught = 0
        for offset in sound.indices {
            for bit in 0..<8 {
                var damaged = sound
                damaged[offset] ^= 1 << bit
                try Self.replace(directory, IndexMeta.fileName, with: damaged)
                do {
                    _ = try Index(directory: directory, schema: nil, verifyChecksums: false)
                    Issue.record("a flip of bit \(bit) at byte \(offset) of meta.json went unnoticed")
                } catch {
                    #expect(error.code == .corruption, "byte \(offset) bit \(bit): \(error)")
                    #expect(error.context.file?.hasSuffix("/meta.json") == true)
                    #expect(error.message.contains("restore"))
                    caught += 1
                }
            }
        }
        print("CommitPointTests: \(caught) of \(sound.count * 8) single-bit flips of meta.json caught")
        #expect(caught == sound.count * 8)
        try Self.replace(directory, IndexMeta.fileName, with: sound)
        #expect(try Self.ids(Index(directory: directory, schema: nil, verifyChecksums: false)) == ["d1", "d2", "late"])
    }

    @Test func aChecksumFailureSaysWhereTheCoveredBytesEnd() throws {
        let directory = RAMDirectory()
        _ = try Self.twoCommits(directory)
        var bytes = try directory.contents(IndexMeta.fileName)
        // "opstamp": 5 → "opstamp": 6, still valid JSON and a plausible commit point.
        let text = String(decoding: bytes, as: UTF8.self)
        let at = try #require(text.utf8.firstRange(of: "\"opstamp\": 5".utf8))
        bytes[text.utf8.distance(from: text.utf8.startIndex, to: at.upperBound) - 1] = UInt8(ascii: "6")
        try Self.replace(directory, IndexMeta.fileName, with: bytes)
        let error = try #require(throws: IndexError.self) {
            try Index(directory: directory, schema: nil, verifyChecksums: false)
        }
        #expect(error.message.contains("meta.json fails its checksum"))
        #expect(error.context.byteOffset == bytes.count - 35, "the checksum member is the file's last 35 bytes")
    }

    @Test func theLatestCommitIsChecksummedAndThePreviousOneKept() throws {
        let directory = RAMDirectory()
        _ = try Self.twoCommits(directory)
        let latest = try Index.readMeta(directory)
        let previous = try Index.readMeta(directory, name: IndexMeta.previousFileName)
        #expect(latest.opstamp == 5 && previous.opstamp == 3)
        #expect(previous.segments.count == 1 && previous.segments[0].deletes == nil)
        let text = String(decoding: try directory.contents(IndexMeta.fileName), as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"format\": \"loupe/2\""))
        #expect(text.contains(",\n  \"checksum\": \"crc32:") && text.hasSuffix("\"\n}\n"))
    }

    @Test func restoringThePreviousCommitBringsBackItsDocumentsAndAWriterContinues() throws {
        let directory = RAMDirectory()
        var index = try Self.twoCommits(directory)
        #expect(try Self.ids(index) == ["d1", "d2", "late"])
        var damaged = try directory.contents(IndexMeta.fileName)
        damaged[damaged.count / 2] ^= 0x04
        try Self.replace(directory, IndexMeta.fileName, with: damaged)
        #expect(throws: IndexError.self) { try Index(directory: directory, schema: nil, verifyChecksums: false) }

        let restored = try Index.restorePreviousCommit(in: directory)
        #expect(restored.opstamp == 3)
        #expect(try directory.contents(Index.damagedMetaFileName) == damaged, "the damaged file is kept aside")
        index = try Index(directory: directory, schema: nil, verifyChecksums: true)
        #expect(try Self.ids(index) == ["d0", "d1", "d2"], "the last commit's add and delete are undone")
        #expect(index.verify { Issue.record("\($0)") } == 0)

        let writer = try index.writer()
        try writer.addDocument(["id": "next", "body": "after the restore", "year": 2002])
        try writer.commitAndReload()
        #expect(try Self.ids(index) == ["d0", "d1", "d2", "next"])
        #expect(try directory.list().contains { $0.hasSuffix(".del") } == false, "the undone delete's file is gone")
    }

    @Test func garbageCollectionKeepsThePreviousCommitsSegmentsUntilTheNextCommit() throws {
        let directory = RAMDirectory()
        let index = try Self.twoCommits(directory)
        try index.optimize()
        #expect(index.stats().segmentCount == 1)
        let merged = try Index.readMeta(directory).segments[0].id.description
        let writer = try index.writer()
        #expect(try writer.garbageCollect(dryRun: true).files.isEmpty, "the pre-merge segments can still be restored")
        try writer.close()

        _ = try Index.restorePreviousCommit(in: directory)
        let restored = try Index(directory: directory, schema: nil, verifyChecksums: true)
        #expect(restored.stats().segmentCount == 2, "the commit before the merge")
        #expect(try Self.ids(restored) == ["d1", "d2", "late"])

        let next = try restored.writer()
        try next.addDocument(["id": "more", "body": "text", "year": 2003])
        try next.commit()
        #expect(!directory.exists(merged + ".terms"), "the merged segment of the discarded commit is gone")
        #expect(try next.garbageCollect(dryRun: true).files.isEmpty)
    }

    @Test func restoreRefusesAPreviousCommitThatIsDamagedOrMissing() throws {
        let fresh = RAMDirectory()
        _ = try Index(directory: fresh, schema: Self.schema, verifyChecksums: false)
        let none = try #require(throws: IndexError.self) { try Index.restorePreviousCommit(in: fresh) }
        #expect(none.code == .notFound && none.message.contains("at most one commit"))

        let directory = RAMDirectory()
        _ = try Self.twoCommits(directory)
        let latest = try directory.contents(IndexMeta.fileName)
        var previous = try directory.contents(IndexMeta.previousFileName)
        previous[10] ^= 0x01
        try Self.replace(directory, IndexMeta.previousFileName, with: previous)
        let damaged = try #require(throws: IndexError.self) { try Index.restorePreviousCommit(in: directory) }
        #expect(damaged.code == .corruption && damaged.message.contains("meta.previous.json fails its checksum"))
        #expect(try directory.contents(IndexMeta.fileName) == latest, "nothing changed")

        let gone = RAMDirectory()
        _ = try Self.twoCommits(gone)
        let first = try Index.readMeta(gone, name: IndexMeta.previousFileName).segments[0].id.description
        try gone.delete(first + ".postings")
        let missing = try #require(throws: IndexError.self) { try Index.restorePreviousCommit(in: gone) }
        #expect(missing.message.contains(".postings"))
        #expect(!gone.exists(Index.damagedMetaFileName))
    }

    /// `verify` (`idx check`) also checks the files only the previous commit names, such as a deleted-documents
    /// file the latest commit replaced: otherwise the commit `idx recover` would restore could be damaged unseen.
    @Test func verifyReportsDamageInAFileOnlyThePreviousCommitNames() throws {
        let directory = RAMDirectory()
        let index = try Self.twoCommits(directory)
        let writer = try index.writer()
        writer.mergePolicy = .never
        try writer.deleteDocuments(field: "id", equals: "d1")
        try writer.commit()
        try writer.close()
        try index.reload()
        let previous = try Index.readMeta(directory, name: IndexMeta.previousFileName)
        let latest = try Index.readMeta(directory)
        let deletes = try #require(previous.segments[0].deletes)
        #expect(latest.segments[0].deletes?.generation != deletes.generation, "the latest commit replaced it")
        let name = DeletedDocsFormat.fileName(previous.segments[0].id, generation: deletes.generation)
        #expect(index.verify { _ in } == 0)

        var bytes = try directory.contents(name)
        bytes[bytes.count / 2] ^= 0x10
        try Self.replace(directory, name, with: bytes)
        var reports: [IndexError] = []
        #expect(index.verify { reports.append($0) } == 1)
        #expect(reports.first?.context.file?.hasSuffix(name) == true, "\(reports)")
        #expect(reports.first?.message.contains("previous commit") == true, "\(reports)")
    }

    @Test func aLostMetaJSONIsAnErrorNotANewEmptyIndex() throws {
        let directory = RAMDirectory()
        _ = try Self.twoCommits(directory)
        try directory.delete(IndexMeta.fileName)
        let error = try #require(throws: IndexError.self) {
            try Index(directory: directory, schema: Self.schema, verifyChecksums: false)
        }
        #expect(error.code == .corruption && error.message.contains("restore the previous commit"))
        _ = try Index.restorePreviousCommit(in: directory)
        #expect(try Self.ids(Index(directory: directory, schema: nil, verifyChecksums: false)) == ["d0", "d1", "d2"])
    }

    @Test func aCommitPointOfTheUncheckedFormatStillOpens() throws {
        let directory = RAMDirectory()
        _ = try Self.twoCommits(directory)
        guard case .object(let members) = try JSONParser.parse(Index.readMeta(directory).encode()) else {
            Issue.record("meta.json is not an object")
            return
        }
        let unchecked = JSONValue.object(
            members.compactMap { member in
                switch String(decoding: member.key, as: UTF8.self) {
                case "checksum": nil
                case "format": JSONMember("format", .string(Array("loupe/1".utf8)))
                default: member
                }
            })
        var bytes: [UInt8] = []
        JSONWriter.write(unchecked, into: &bytes, pretty: true)
        try Self.replace(directory, IndexMeta.fileName, with: bytes)
        #expect(try Self.ids(Index(directory: directory, schema: nil, verifyChecksums: false)) == ["d1", "d2", "late"])
    }
}
