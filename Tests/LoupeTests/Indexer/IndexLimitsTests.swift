import Loupe
import Testing

/// Every limit of `IndexLimits` at its boundary: exactly at the limit works, one past it fails with
/// `.limitExceeded` naming the limit (or, for documents per segment, flushes), nothing committed is lost and the
/// writer stays usable. The writer tests inject small limits, so no test builds billions of documents.
@Suite struct IndexLimitsTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("body", stored: true, tokenizer: .whitespace)
        .build(defaultFields: ["body"], idField: "id")

    private static func doc(_ id: String, _ body: String = "word") -> Document {
        ["id": DocumentValue(.text(id)), "body": DocumentValue(.text(body))]
    }

    /// Runs `body`, which must throw `.limitExceeded` for `limit`; returns the error.
    private static func expectLimit(
        _ limit: IndexError.Limit, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) -> IndexError? {
        let error = #expect(throws: IndexError.self, sourceLocation: sourceLocation) { try body() }
        #expect(error?.code == .limitExceeded, sourceLocation: sourceLocation)
        #expect(error?.limit == limit, sourceLocation: sourceLocation)
        return error
    }

    private static func maxDocs(_ index: Index) throws -> [Int] {
        try index.reload()
        return index.searcher().segmentInfos.map(\.maxDoc)
    }

    @Test func defaultsAreTheDocumentedValues() {
        let limits = IndexLimits.default
        #expect(limits.documentsPerSegment == 2_147_483_647)
        #expect(limits.documentsPerIndex == 9_007_199_254_740_991)
        #expect(limits.termBytes == 65_530)
        #expect(limits.fieldsPerSchema == 1_000)
        #expect(limits.storedDocumentBytes == 268_435_456)
    }

    // MARK: Fields per schema

    @Test func schemaOfExactlyTheDefaultFieldCountBuildsAndOneMoreFails() throws {
        let builder = SchemaBuilder()
        for i in 0..<1_000 { builder.addU64Field("f\(i)") }
        #expect(try builder.build(defaultFields: []).fields.count == 1_000)

        builder.addU64Field("f1000")
        let error = Self.expectLimit(.fieldsPerSchema) { _ = try builder.build(defaultFields: []) }
        #expect(error?.context.field == "f1000")
        #expect(error?.message.contains("1001 fields, more than the 1000") == true)
        #expect(Self.expectLimit(.fieldsPerSchema) { _ = try Index.inMemory(schema: builder.build()) } != nil)
    }

    @Test func injectedFieldCountLimit() throws {
        let fields = (0..<4).map { FieldEntry(name: "f\($0)", type: .u64) }
        let limits = IndexLimits(fieldsPerSchema: 3)
        let atLimit = try Schema(fields: Array(fields.prefix(3)), defaultFields: [], idField: nil, limits: limits)
        #expect(atLimit.fields.count == 3)
        let error = Self.expectLimit(.fieldsPerSchema) {
            _ = try Schema(fields: fields, defaultFields: [], idField: nil, limits: limits)
        }
        #expect(error?.context.field == "f3")
    }

    // MARK: Term bytes

    @Test func stringValueOfExactlyTheTermLimitIsIndexedAndOneByteMoreIsRefused() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        try writer.addDocument(Self.doc("committed"))
        try writer.commit()

        let longest = String(repeating: "a", count: 65_530)
        try writer.addDocument(Self.doc(longest))
        let error = Self.expectLimit(.termBytes) { try writer.addDocument(Self.doc(longest + "a")) }
        #expect(error?.context.field == "id")
        #expect(error?.message.contains("65531 bytes is longer than the 65530") == true)
        #expect(writer.uncommittedDocuments == 1, "the refused document is not buffered")

        try writer.addDocument(Self.doc("after"))
        try writer.commitAndReload()
        #expect(index.documentCount == 3)
        #expect(try index.count(.term("id", longest)) == 1)
        #expect(try index.count(.term("id", "committed")) == 1)
        #expect(try index.count(.term("id", "after")) == 1)
    }

    @Test func injectedTermLimit() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer(limits: IndexLimits(termBytes: 8))
        try writer.addDocument(Self.doc("12345678"))
        let error = Self.expectLimit(.termBytes) { try writer.addJSON(#"{"id": "123456789"}"#) }
        #expect(error?.context.field == "id")
        try writer.commitAndReload()
        #expect(index.documentCount == 1)
        #expect(try index.count(.term("id", "12345678")) == 1)
    }

    /// A text field's analyzer may emit a token past the limit: it is skipped, as tantivy's indexer skips it, and
    /// the document's other tokens are indexed.
    @Test func textTokenPastTheTermLimitIsSkippedAndTheRestIndexed() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        let longest = String(repeating: "b", count: 65_530)
        let tooLong = String(repeating: "c", count: 65_531)
        try writer.addDocument(Self.doc("d", "before \(longest) \(tooLong) after"))
        try writer.commitAndReload()
        #expect(try index.count(.term("body", longest)) == 1)
        #expect(try index.count(.term("body", tooLong)) == 0)
        #expect(try index.count(.term("body", "before")) == 1)
        #expect(try index.count(.term("body", "after")) == 1)
        #expect(try index.count(.phrase("body", ["before", longest])) == 1)
        #expect(try index.get("id", equals: "d")?.document.string("body")?.utf8.count == 131_075)
    }

    // MARK: Stored document bytes

    /// One stored string field `id` and one text field `body`: a document stores 1 (value count) + 2 × (1 field
    /// ordinal + 1 length) bytes + its values, for values under 128 bytes.
    @Test func storedDocumentOfExactlyTheLimitIsStoredAndOneByteMoreIsRefused() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer(limits: IndexLimits(storedDocumentBytes: 100))
        try writer.addDocument(Self.doc("a", "first"))
        try writer.commit()

        let fits = String(repeating: "x", count: 100 - 5 - 1)
        try writer.addDocument(Self.doc("b", fits))
        let error = Self.expectLimit(.storedDocumentBytes) { try writer.addDocument(Self.doc("c", fits + "x")) }
        #expect(error?.context.field == "body")
        #expect(error?.message.contains("take 101 bytes, most of it in field 'body'") == true)
        #expect(try index.count(.term("id", "c")) == 0)

        try writer.addDocument(Self.doc("d", "last"))
        try writer.commitAndReload()
        #expect(index.documentCount == 3)
        #expect(try index.count(.term("id", "c")) == 0, "a refused document leaves no postings")
        #expect(try index.count(.term("body", "last")) == 1)
        // The refused document's bytes were taken back: its neighbours read back whole.
        #expect(try index.get("id", equals: "a")?.document.string("body") == "first")
        #expect(try index.get("id", equals: "b")?.document.string("body") == fits)
        #expect(try index.get("id", equals: "d")?.document.string("body") == "last")
    }

    // MARK: Documents per segment

    @Test func fullSegmentIsFlushedAndMergesNeverOverfillOne() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer(limits: IndexLimits(documentsPerSegment: 3))
        writer.mergePolicy = MergePolicy(mergeFactor: 2, minimumSegmentSize: 1)
        for i in 0..<3 { try writer.addDocument(Self.doc("a\(i)")) }
        try writer.commit()
        #expect(try Self.maxDocs(index) == [3], "exactly the limit: one segment")

        for i in 0..<4 { try writer.addDocument(Self.doc("b\(i)")) }
        try writer.commit()
        writer.waitForMerges()
        #expect(try Self.maxDocs(index) == [3, 3, 1], "a full segment is flushed, and a full one merges with none")
        #expect(writer.lastMergeError == nil)

        try writer.deleteDocuments(field: "id", equals: "a0")
        try writer.addDocument(Self.doc("c0"))
        try writer.merge()
        let segments = try Self.maxDocs(index)
        #expect(segments.allSatisfy { $0 <= 3 }, "\(segments)")
        #expect(segments.reduce(0, +) == 7)
        #expect(index.documentCount == 7)
        #expect(try index.count(.term("id", "a0")) == 0)
        #expect(try index.count(.term("id", "c0")) == 1)
    }

    @Test func mergePolicyGroupsFitOneSegment() {
        let segments = (0..<4).map { _ in IndexMeta.SegmentMeta(id: SegmentID(), maxDoc: 2) }
        let policy = MergePolicy(mergeFactor: 2, maximumMergeAtOnce: 10, minimumSegmentSize: 1)
        #expect(policy.merges(segments, documentsPerSegment: 8) == [[0, 1, 2, 3]])
        #expect(policy.merges(segments, documentsPerSegment: 5) == [[0, 1], [2, 3]])
        #expect(policy.merges(segments, documentsPerSegment: 3) == [])
        #expect(MergePolicy.mergesIntoFewest(segments, documentsPerSegment: 5) == [[0, 1], [2, 3]])
        #expect(MergePolicy.mergesIntoFewest(segments, documentsPerSegment: 3) == [])
    }

    // MARK: Documents per index

    @Test func fullIndexRefusesTheNextDocumentUntilAMergeDropsDeletes() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer(limits: IndexLimits(documentsPerIndex: 5))
        for i in 0..<3 { try writer.addDocument(Self.doc("d\(i)")) }
        try writer.commit()
        for i in 3..<5 { try writer.addDocument(Self.doc("d\(i)")) }
        let error = Self.expectLimit(.documentsPerIndex) { try writer.addDocument(Self.doc("d5")) }
        #expect(error?.message.contains("holds 5 documents, the most it can (5)") == true)
        try writer.commitAndReload()
        #expect(index.documentCount == 5)

        // A deleted document still counts until a merge drops it.
        try writer.deleteDocuments(field: "id", equals: "d0")
        try writer.commit()
        _ = Self.expectLimit(.documentsPerIndex) { try writer.addDocument(Self.doc("d5")) }
        try writer.merge()
        try writer.addDocument(Self.doc("d5"))
        try writer.commitAndReload()
        #expect(index.documentCount == 5)
        #expect(try index.count(.term("id", "d5")) == 1)
    }

    // MARK: Indexing threads

    /// With indexing threads the documents are checked on the writer's thread, before they are handed over: a
    /// refused document throws from its own `addDocument`, the threads never see it, and the writer goes on.
    @Test func indexingThreadsRefuseADocumentPastALimitAtItsAdd() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer(
            limits: IndexLimits(documentsPerSegment: 40, termBytes: 8, storedDocumentBytes: 100), threads: 2)
        for i in 0..<100 { try writer.addDocument(Self.doc("d\(i)", "body \(i)")) }
        _ = Self.expectLimit(.termBytes) { try writer.addDocument(Self.doc("123456789")) }
        _ = Self.expectLimit(.storedDocumentBytes) {
            try writer.addDocument(Self.doc("big", String(repeating: "x", count: 100)))
        }
        for i in 100..<200 { try writer.addDocument(Self.doc("d\(i)", "body \(i)")) }
        #expect(writer.uncommittedDocuments == 200)
        try writer.commitAndReload()
        #expect(index.documentCount == 200)
        #expect(try index.count(.term("id", "big")) == 0)
        #expect(try index.count(.term("id", "d199")) == 1)
        #expect(try Self.maxDocs(index).allSatisfy { $0 <= 40 }, "each thread flushes a full segment")
    }
}
