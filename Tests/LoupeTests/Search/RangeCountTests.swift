import Loupe
import TestSupport
import Testing

/// Range counts: on a single-valued field they come from the term dictionary's docFreqs alone, on others from the
/// matches. Both must equal a brute-force count — fields fast or not, with a value everywhere or only sometimes,
/// single- or multi-valued, several segments, with and without deletes — and the top hits must not change.
@Suite struct RangeCountTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addU64Field("every", fast: true)
        .addU64Field("some", fast: true)
        .addI64Field("slow")
        .addU64Field("many", fast: true)
        .addStringField("tag")
        .build(idField: "id")

    @Test(arguments: 0..<6 as Range<UInt64>)
    func rangeCountsAgreeWithBruteForce(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        var rows: [(every: UInt64, some: UInt64?, slow: Int64, many: [UInt64], tag: String)] = []
        for i in 0..<Int.random(in: 300...2_500, using: &rng) {
            let row = (
                every: UInt64.random(in: 0...400, using: &rng),
                some: Bool.random(using: &rng) ? UInt64.random(in: 0...50, using: &rng) : nil,
                slow: Int64.random(in: -100...100, using: &rng),
                many: (0..<Int.random(in: 0...3, using: &rng)).map { _ in UInt64.random(in: 0...20, using: &rng) },
                tag: "t\(Int.random(in: 0...30, using: &rng))"
            )
            rows.append(row)
            var document: Document = [
                "id": "\(i)", "every": DocumentValue(.u64(row.every)), "slow": DocumentValue(.i64(row.slow)),
                "many": DocumentValue(row.many.map { .u64($0) }), "tag": DocumentValue(.text(row.tag)),
            ]
            if let some = row.some { document.add("some", .u64(some)) }
            try writer.addDocument(document)
            if Int.random(in: 0..<500, using: &rng) == 0 { try writer.commit() }
        }
        try writer.commitAndReload()
        var deleted = Set<Int>()
        for pass in 0..<2 {
            for _ in 0..<30 {
                let low = UInt64.random(in: 0...400, using: &rng)
                let high = low + UInt64.random(in: 0...200, using: &rng)
                let tagLow = "t\(Int.random(in: 0...30, using: &rng))"
                let cases: [(Query, (Int) -> Bool)] = [
                    (.range("every", low...high), { (low...high).contains(rows[$0].every) }),
                    (.range("every", low...), { rows[$0].every >= low }),
                    (.range("every", ...high), { rows[$0].every <= high }),
                    (
                        .range("some", (low / 8)...(high / 8)),
                        { rows[$0].some.map { ((low / 8)...(high / 8)).contains($0) } ?? false }
                    ),
                    (
                        .range("slow", Int64(low) - 200...Int64(high) - 200),
                        { (Int64(low) - 200...Int64(high) - 200).contains(rows[$0].slow) }
                    ),
                    (
                        .range("many", (low / 20)...(high / 20)),
                        { rows[$0].many.contains { ((low / 20)...(high / 20)).contains($0) } }
                    ),
                    (.range("tag", tagLow...), { rows[$0].tag >= tagLow }),
                ]
                for (query, holds) in cases {
                    let truth = rows.indices.filter { !deleted.contains($0) && holds($0) }.count
                    #expect(try index.count(query) == truth, "seed \(seed) pass \(pass): \(query)")
                    let exact = try index.search(query, limit: 5, counting: .exact)
                    #expect(exact.totalCount == truth && exact.isTotalCountExact, "seed \(seed) pass \(pass): \(query)")
                    let pruned = try index.search(query, limit: 5, counting: .hitsOnly)
                    #expect(pruned.hits.map { $0.document.string("id") } == exact.hits.map { $0.document.string("id") })
                }
            }
            // The second pass runs with deletes, where docFreqs count deleted documents and cannot be used.
            let gone = Set((0..<40).map { _ in Int.random(in: rows.indices, using: &rng) })
            for i in gone { try writer.deleteDocuments(field: "id", equals: "\(i)") }
            try writer.commitAndReload()
            deleted = gone
        }
    }
}
