import Foundation
import Loupe
import TestSupport
import Testing

@Suite struct DeleteTests {
    static func schema() throws -> Schema {
        try SchemaBuilder()
            .addStringField("id", stored: true)
            .addTextField("body", stored: true)
            .addU64Field("version", stored: true, fast: true)
            .build(defaultFields: ["body"], idField: "id")
    }

    static func doc(_ id: String, _ body: String, version: Int64 = 1) -> Document {
        ["id": DocumentValue(.text(id)), "body": DocumentValue(.text(body)), "version": DocumentValue(.i64(version))]
    }

    static func ids(_ index: Index, _ query: Query = .matchAll) throws -> [String] {
        try index.search(query, limit: 1000).hits.compactMap { $0.document.string("id") }.sorted()
    }

    @Test func deletedDocumentsVanishFromSearchCountsAndReopenedIndexes() throws {
        let folder = TemporaryDirectory()
        let index = try Index(path: folder.path, schema: Self.schema())
        let writer = try index.writer()
        writer.mergePolicy = .never
        for (id, body) in [("a", "red apple"), ("b", "red berry"), ("c", "green apple")] {
            try writer.addDocument(Self.doc(id, body))
        }
        try writer.commit()
        try writer.deleteDocuments(field: "id", equals: "b")
        try writer.commitAndReload()
        #expect(try Self.ids(index) == ["a", "c"])
        #expect(try index.count(.term("body", "red")) == 1, "a term count skips deleted documents")
        #expect(try index.count(index.parseQuery("red OR green")) == 2)
        #expect(try index.count(.range("version", 1...1)) == 2)
        #expect(try index.search(.matchAll, orderBy: .ascending("version")).totalCount == 2)
        #expect(index.documentCount == 2)
        let stats = index.stats()
        #expect(stats.documentCount == 2 && stats.deletedCount == 1 && stats.maxDoc == 3 && stats.segmentCount == 1)
        #expect(stats.segments[0].bytesByKind["del"] != nil)

        let reopened = try Index(path: folder.path, verifyChecksums: true)
        #expect(try Self.ids(reopened) == ["a", "c"])
        try reopened.checkIntegrity()
    }

    @Test func deletesApplyOnlyToDocumentsAddedBeforeThem() throws {
        let index = try Index.inMemory(schema: try Self.schema())
        let writer = try index.writer()
        try writer.addDocument(Self.doc("a", "first", version: 1))
        try writer.deleteDocuments(field: "id", equals: "a")
        try writer.addDocument(Self.doc("a", "second", version: 2))
        try writer.deleteDocuments(field: "id", equals: "x")
        try writer.addDocument(Self.doc("x", "added after its delete"))
        try writer.commitAndReload()
        let hits = try index.search(.term("id", "a"))
        #expect(hits.totalCount == 1)
        #expect(hits.hits.first?.document.uint("version") == 2)
        #expect(try Self.ids(index) == ["a", "x"])
    }

    @Test func deleteAllDropsEverySegmentAndRollbackForgetsDeletes() throws {
        let index = try Index.inMemory(schema: try Self.schema())
        let writer = try index.writer()
        for i in 0..<5 {
            try writer.addDocument(Self.doc("d\(i)", "word"))
            try writer.commit()
        }
        try writer.deleteDocuments(matching: .term("body", "word"))
        try writer.rollback()
        try writer.commitAndReload()
        #expect(index.documentCount == 5, "a rolled-back delete is forgotten")
        try writer.deleteAllDocuments()
        try writer.commitAndReload()
        #expect(index.documentCount == 0)
        #expect(index.stats().segmentCount == 0, "segments left without documents are dropped")
        try writer.addDocument(Self.doc("e", "again"))
        try writer.commitAndReload()
        #expect(try Self.ids(index) == ["e"])
    }

    @Test func upsertReplacesAndGetFetches() throws {
        let index = try Index.inMemory(schema: try Self.schema())
        try index.upsert(Self.doc("a", "one", version: 1), idField: "id")
        try index.upsert(Self.doc("b", "two", version: 1), idField: "id")
        try index.upsert(Self.doc("a", "three", version: 2), idField: "id")
        #expect(index.documentCount == 2)
        #expect(try index.get("id", equals: "a")?.uint("version") == 2)
        #expect(try index.get("id", equals: "zzz") == nil)
        #expect(try index.delete(matching: .term("id", "b")) == 1)
        #expect(try Self.ids(index) == ["a"])
        #expect(throws: IndexError.self) { try index.upsert(["body": "no id"], idField: "id") }
        #expect(throws: IndexError.self) { try index.writer().deleteDocuments(field: "nope", equals: "x") }
    }

    @Test func olderGenerationsAreRemovedAndDamageIsCaught() throws {
        let folder = TemporaryDirectory()
        let index = try Index(path: folder.path, schema: Self.schema())
        do {
            let writer = try index.writer()
            writer.mergePolicy = .never
            for i in 0..<4 { try writer.addDocument(Self.doc("d\(i)", "word")) }
            try writer.commit()
            try writer.deleteDocuments(field: "id", equals: "d0")
            try writer.commit()
            try writer.deleteDocuments(field: "id", equals: "d1")
            try writer.commit()
        }
        let delFiles = {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".del") }
        }
        // Generation 6 (the last commit's) and 5 (the previous commit's, kept so that it can be restored) remain.
        let remaining = try delFiles().sorted()
        try #require(remaining.count == 2, "the oldest generation went at the commit that replaced it: \(remaining)")
        #expect(remaining.allSatisfy { $0.hasSuffix(".5.del") || $0.hasSuffix(".6.del") })
        try index.reload()
        #expect(index.documentCount == 2)

        let path = folder.path + "/" + remaining.first { $0.hasSuffix(".6.del") }!
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[8] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: IndexError.self) { try Index(path: folder.path, verifyChecksums: true) }
    }

    /// Random adds, upserts, deletes (by id and by query), commits, rollbacks and reloads against a dictionary model.
    @Test(arguments: 0..<6 as Range<UInt64>)
    func randomUpdatesAgreeWithAModel(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let index = try Index.inMemory(schema: try Self.schema())
        let writer = try index.writer()
        var committed: [String: (body: String, version: Int64)] = [:]
        var pending = committed
        let words = ["red", "green", "blue", "apple", "berry"]
        var version: Int64 = 0
        for _ in 0..<200 {
            let id = "d\(Int.random(in: 0..<25, using: &rng))"
            switch Int.random(in: 0..<20, using: &rng) {
            case 0..<8:
                version += 1
                let body = (0..<2).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
                try writer.deleteDocuments(field: "id", equals: .text(id))
                try writer.addDocument(Self.doc(id, body, version: version))
                pending[id] = (body, version)
            case 8..<11:
                try writer.deleteDocuments(field: "id", equals: .text(id))
                pending[id] = nil
            case 11:
                let word = words.randomElement(using: &rng)!
                try writer.deleteDocuments(matching: .term("body", .text(word)))
                pending = pending.filter { !$0.value.body.split(separator: " ").contains(Substring(word)) }
            case 12:
                let cut = Int64.random(in: 0...max(version, 1), using: &rng)
                try writer.deleteDocuments(matching: .range("version", ...cut))
                pending = pending.filter { $0.value.version > cut }
            case 13:
                try writer.rollback()
                pending = committed
            case 14..<17:
                try writer.commitAndReload()
                committed = pending
            default:
                try index.reload()
            }
            #expect(try Self.ids(index) == committed.keys.sorted(), "seed \(seed)")
            #expect(index.documentCount == committed.count)
            let word = words.randomElement(using: &rng)!
            let expected = committed.values.filter { $0.body.split(separator: " ").contains(Substring(word)) }.count
            #expect(try index.count(.term("body", .text(word))) == expected, "seed \(seed): count of \(word)")
        }
        try writer.commitAndReload()
        for (id, value) in pending {
            #expect(try index.get("id", equals: .text(id))?.uint("version") == UInt64(value.version))
        }
    }
}
