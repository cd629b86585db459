import Foundation
import Loupe
import LoupeCodec
import TestSupport
import Testing

/// `termCounts`, sorting by strings, and ranges and exists over fast fields: against tantivy's facet counts on the
/// movies corpus, and against a naive reference over random indexes of several segments, with deletes and merges.
@Suite struct FacetTests {
    /// tantivy 0.27's counts (a terms aggregation as large as the field's vocabulary) from
    /// `Fixtures/aggregations/make_aggregation_goldens.py`, sorted by count descending, then value ascending.
    @Test func facetCountsAgreeWithTantivy() throws {
        let text = try String(
            contentsOfFile: FixturePaths.loupeTestFixtures + "/aggregations/facets.golden.json", encoding: .utf8)
        guard case .array(let cases) = try JSONParser.parse(Array(text.utf8)) else { throw JSONShapeError() }
        #expect(cases.count >= 12)
        let index = MoviesFixture.index
        for item in cases {
            let field = try #require(item["field"]?.stringValue)
            let query: Query = try item["query"]?.stringValue.map { try index.parseQuery($0) } ?? .matchAll
            let expected: [FacetCount] = try #require(item["counts"]?.arrayValue).map { pair in
                FacetCount(
                    value: .text(try #require(pair[0]?.stringValue)),
                    count: Int(try #require(pair[1]?.numberValue?.int64)))
            }
            let counts = try index.termCounts(field, matching: query, limit: expected.count + 5)
            #expect(counts == expected, "\(field) for \(item["query"]?.stringValue ?? "all")")
            #expect(try index.termCounts(field, matching: query, limit: 3) == Array(expected.prefix(3)))
        }
    }

    struct JSONShapeError: Error {}

    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("body")
        .addStringField("tag", fast: true)
        .addStringField("kind", stored: true, fast: true)
        .addStringField("code", stored: true, indexed: false, fast: true)
        .addTextField("name", stored: true, tokenizer: "lowercase", fast: true)
        .addI64Field("n", stored: true, fast: true)
        .build()

    /// One random document and what the reference knows of it.
    struct Row {
        var id: String
        var body: [String]
        var tags: [String]
        var kind: String?
        var code: String?
        var name: String?
        var n: Int64?

        func values(_ field: String) -> [FieldValue] {
            switch field {
            case "tag": Array(Set(tags)).map { .text($0) }
            case "kind": kind.map { [.text($0)] } ?? []
            case "code": code.map { [.text($0)] } ?? []
            case "name": name.map { [.text($0.lowercased())] } ?? []
            default: n.map { [.i64($0)] } ?? []
            }
        }
    }

    static func randomRow(_ i: Int, _ rng: inout SplitMix64) -> Row {
        let words = ["red", "green", "blue", "cyan"]
        let tags = ["a", "b", "c", "d", "é", "ab", "b c", ""]
        return Row(
            id: "d\(i)",
            body: (0..<Int.random(in: 0...3, using: &rng)).map { _ in words.randomElement(using: &rng)! },
            tags: (0..<Int.random(in: 0...3, using: &rng)).map { _ in tags.randomElement(using: &rng)! },
            kind: Bool.random(using: &rng) ? ["x", "y", "zz", "Y"].randomElement(using: &rng)! : nil,
            code: Int.random(in: 0..<10, using: &rng) < 3 ? "c\(Int.random(in: 0..<20, using: &rng))" : nil,
            name: Bool.random(using: &rng) ? ["Ann", "ann", "BOB", "Cy"].randomElement(using: &rng)! : nil,
            n: Int.random(in: 0..<10, using: &rng) < 8 ? Int64.random(in: -3...3, using: &rng) : nil)
    }

    static func document(_ row: Row) -> Document {
        var doc = Document()
        doc.add("id", .text(row.id))
        if !row.body.isEmpty { doc.add("body", .text(row.body.joined(separator: " "))) }
        for tag in row.tags { doc.add("tag", .text(tag)) }
        if let kind = row.kind { doc.add("kind", .text(kind)) }
        if let code = row.code { doc.add("code", .text(code)) }
        if let name = row.name { doc.add("name", .text(name)) }
        if let n = row.n { doc.add("n", .i64(n)) }
        return doc
    }

    /// The reference's counts: documents per value, most first, ties by value ascending.
    static func expectedCounts(_ rows: [Row], field: String, limit: Int) -> [FacetCount] {
        var counts: [FieldValue: Int] = [:]
        for row in rows { for v in row.values(field) { counts[v, default: 0] += 1 } }
        return counts.sorted { a, b in
            if a.value != b.value { return a.value > b.value }
            switch (a.key, b.key) {
            case (.text(let x), .text(let y)): return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
            case (.i64(let x), .i64(let y)): return x < y
            default: return false
            }
        }.prefix(limit).map { FacetCount(value: $0.key, count: $0.value) }
    }

    @Test(arguments: 0..<12 as Range<UInt64>)
    func facetsSortsAndRangesMatchAReference(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let documents = Int.random(in: 20...400, using: &rng)
        let (index, live) = try randomIndex(
            schema: Self.schema, seed: seed, rng: &rng, documents: documents, deleteOneIn: 40,
            row: Self.randomRow, id: \.id, document: Self.document)

        for field in ["tag", "kind", "code", "name", "n"] {
            for limit in [0, 2, 100] {
                #expect(
                    try index.termCounts(field, limit: limit) == Self.expectedCounts(live, field: field, limit: limit),
                    "seed \(seed) \(field) limit \(limit)")
            }
            let red = live.filter { $0.body.contains("red") }
            #expect(
                try index.termCounts(field, matching: .term("body", "red"), limit: 100)
                    == Self.expectedCounts(red, field: field, limit: 100), "seed \(seed) \(field) for red")
        }

        for descending in [false, true] {
            let sorted = try index.search(
                .matchAll, limit: 1_000, orderBy: descending ? .descending("kind") : .ascending("kind"))
            let present = live.compactMap(\.kind).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            let expected = (descending ? present.reversed() : present).map { FieldValue.text($0) }
            #expect(sorted.hits.compactMap(\.sortValue) == expected, "seed \(seed) sort by kind")
            #expect(sorted.hits.suffix(live.count - present.count).allSatisfy { $0.sortValue == nil })
        }

        let ranged = try index.count(.range(field: "code", lower: .included("c1"), upper: .excluded("c5")))
        #expect(
            ranged == live.filter { $0.code.map { $0 >= "c1" && $0 < "c5" } ?? false }.count, "seed \(seed) code range")
        let open = try index.count(.range(field: "code", lower: .excluded("c3"), upper: .unbounded))
        #expect(open == live.filter { $0.code.map { $0 > "c3" } ?? false }.count, "seed \(seed) open code range")
        #expect(try index.count(.exists("code")) == live.filter { $0.code != nil }.count)
        #expect(try index.count(.exists("n")) == live.filter { $0.n != nil }.count)
    }

    @Test func termCountsErrorsNameTheField() throws {
        let index = try Index.inMemory(schema: Self.schema)
        #expect { try index.termCounts("body") } throws: { ($0 as? IndexError)?.context.field == "body" }
        #expect { try index.termCounts("nope") } throws: { ($0 as? IndexError)?.context.field == "nope" }
        #expect(throws: IndexError.self) { try index.termCounts("tag", limit: -1) }
        #expect(try index.termCounts("tag").isEmpty)
    }
}
