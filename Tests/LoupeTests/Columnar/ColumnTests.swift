import Loupe
import LoupeCodec
import TestSupport
import Testing

/// Columns of every layout return each document's values, whatever share of documents has them.
@Suite struct ColumnTests {
    private func column(
        maxDoc: Int, docs: [UInt32], values: [UInt64], kind: ColumnKind = .u64, dictionary: [[UInt8]]? = nil
    )
        throws -> (Column, HeapBytes)
    {
        var out = ByteWriter()
        Column.write(kind: kind, maxDoc: maxDoc, docs: docs, values: values, dictionary: dictionary, into: &out)
        let file = HeapBytes(out.bytes)
        return (try unsafe Column(file.slice.bytes, maxDoc: maxDoc, fileOffset: 0), file)
    }

    private func check(maxDoc: Int, perDoc: [[UInt64]]) throws {
        var docs: [UInt32] = []
        var values: [UInt64] = []
        for (d, vs) in perDoc.enumerated() {
            for v in vs {
                docs.append(UInt32(d))
                values.append(v)
            }
        }
        let (column, file) = try column(maxDoc: maxDoc, docs: docs, values: values)
        withExtendedLifetime(file) {
            for d in 0..<maxDoc where column.values(DocID(d)) != perDoc[d] {
                Issue.record("doc \(d): \(column.values(DocID(d))) instead of \(perDoc[d])")
                return
            }
            // The block read, over runs of documents with gaps, spanning optional-index blocks.
            var docs: [DocID] = []
            var d = 0
            while d < maxDoc {
                docs.append(DocID(d))
                d += 1 + d % 5
            }
            var first = [UInt64](repeating: 0, count: docs.count)
            for start in stride(from: 0, to: docs.count, by: 128) {
                let n = min(128, docs.count - start)
                unsafe docs.withUnsafeBufferPointer { ids in
                    unsafe first.withUnsafeMutableBufferPointer { out in
                        unsafe column.firstValues(
                            of: ids.baseAddress! + start, count: n, into: out.baseAddress! + start, missing: .max)
                    }
                }
            }
            for (i, doc) in docs.enumerated() where first[i] != (perDoc[Int(doc)].first ?? .max) {
                Issue.record("block read of doc \(doc): \(first[i]) instead of \(perDoc[Int(doc)].first ?? .max)")
                return
            }
        }
    }

    @Test(arguments: [0.0, 0.001, 0.05, 0.5, 0.99, 1.0])
    func optionalAndFullLayouts(share: Double) throws {
        var rng = SplitMix64(seed: UInt64(share * 1000))
        let maxDoc = 140_000
        let perDoc = (0..<maxDoc).map { _ in Double.random(in: 0..<1, using: &rng) < share ? [rng.next() % 1000] : [] }
        try check(maxDoc: maxDoc, perDoc: perDoc)
    }

    @Test(arguments: [0.001, 0.3, 1.0])
    func multiValuedLayout(share: Double) throws {
        var rng = SplitMix64(seed: 99)
        let maxDoc = 20_000
        let perDoc = (0..<maxDoc).map { _ -> [UInt64] in
            guard Double.random(in: 0..<1, using: &rng) < share else { return [] }
            return (0..<Int.random(in: 1...4, using: &rng)).map { _ in rng.next() }
        }
        try check(maxDoc: maxDoc, perDoc: perDoc)
    }
}

/// Merges carry every layout and remap string ordinals; strings only deleted documents held leave the dictionary.
@Suite struct ColumnarMergeTests {
    @Test func mergedDictionaryKeepsOnlyLiveStringsInOrder() throws {
        let schema = try SchemaBuilder()
            .addStringField("id", stored: true)
            .addStringField("tag", fast: true)
            .addStringField("only", fast: true)
            .build()
        let index = try Index.inMemory(schema: schema)
        let writer = try index.writer()
        writer.mergePolicy = .never
        let batches: [[(String, [String], String?)]] = [
            [("a", ["zeta", "beta"], nil), ("b", ["gone"], "x")],
            [("c", ["alpha"], nil), ("d", [], "y"), ("e", ["beta", "beta"], nil)],
        ]
        for batch in batches {
            for (id, tags, only) in batch {
                var doc = Document()
                doc.add("id", .text(id))
                for tag in tags { doc.add("tag", .text(tag)) }
                if let only { doc.add("only", .text(only)) }
                try writer.addDocument(doc)
            }
            try writer.commit()
        }
        try writer.deleteDocuments(field: "id", equals: "b")
        try writer.commit()
        try writer.merge()
        writer.waitForMerges()
        try writer.commitAndReload()
        let segments = index.searcher().segments
        try #require(segments.count == 1)
        let tags = try #require(segments[0].fast.column(1))
        let dictionary = try #require(tags.dictionary)
        #expect(
            (0..<dictionary.count).map { String(decoding: dictionary.term(UInt64($0)), as: UTF8.self) } == [
                "alpha", "beta", "zeta",
            ])
        #expect(!tags.isSingleValued)
        #expect(
            (0..<DocID(4)).map { tags.values($0).map { String(decoding: dictionary.term($0), as: UTF8.self) } } == [
                ["zeta", "beta"], ["alpha"], [], ["beta", "beta"],
            ])
        let only = try #require(segments[0].fast.column(2))
        #expect(only.isSingleValued)
        #expect(only.dictionary.map { d in (0..<d.count).map { d.term(UInt64($0)) } } == [Array("y".utf8)])
        #expect((0..<DocID(4)).map { only.first($0) } == [nil, nil, 0, nil])
        #expect(
            try index.termCounts("tag") == [
                FacetCount(value: "beta", count: 2), FacetCount(value: "alpha", count: 1),
                FacetCount(value: "zeta", count: 1),
            ])
    }
}
