import Loupe
import Testing
import TestSupport

/// Random documents and queries, answered by the engine (several segments) and by the brute-force
/// `ReferenceIndex`: the same documents must match with the same scores.
@Suite struct ReferenceDifferentialTests {
    static let vocabulary = ["apple", "banana", "cherry", "date", "elder", "fig", "grape", "honey", "iris", "jade", "kiwi", "lime"]
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("body")
        .addTextField("title")
        .build(defaultFields: ["title", "body"], idField: "id")

    private func randomText(_ rng: inout SplitMix64, maxWords: Int) -> String {
        // Skewed word choice so some terms are common and blocks of 128 documents fill up.
        (0..<Int.random(in: 0...maxWords, using: &rng)).map { _ in
            let r = Double.random(in: 0..<1, using: &rng)
            return Self.vocabulary[Int(r * r * Double(Self.vocabulary.count))]
        }.joined(separator: " ")
    }

    private func randomQuery(_ rng: inout SplitMix64, depth: Int = 0) -> Query {
        let field = Bool.random(using: &rng) ? "body" : "title"
        switch Int.random(in: 0..<(depth > 1 ? 2 : 4), using: &rng) {
        case 0:
            return .term(field, .text(Self.vocabulary.randomElement(using: &rng)!))
        case 1:
            return .phrase(field: field, terms: (0..<Int.random(in: 2...3, using: &rng)).map { _ in Self.vocabulary.randomElement(using: &rng)! })
        case 2:
            return .boost(randomQuery(&rng, depth: depth + 1), factor: Float(Int.random(in: 1...4, using: &rng)))
        default:
            var clauses: [Query.Clause] = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                Query.Clause([Occur.must, .should, .mustNot].randomElement(using: &rng)!, randomQuery(&rng, depth: depth + 1))
            }
            if clauses.allSatisfy({ $0.occur == .mustNot }) { clauses.append(Query.Clause(.should, randomQuery(&rng, depth: depth + 1))) }
            return .boolean(clauses)
        }
    }

    @Test(arguments: 0..<6 as Range<UInt64>)
    func engineAgreesWithBruteForce(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let index = Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        var reference = ReferenceIndex()
        let docCount = Int.random(in: 50...900, using: &rng)
        for i in 0..<docCount {
            let body = randomText(&rng, maxWords: 60)
            let title = randomText(&rng, maxWords: 6)
            try writer.addDocument(["id": "d\(i)", "body": DocumentValue(.text(body)), "title": DocumentValue(.text(title))])
            reference.add(id: "d\(i)", fields: ["body": body, "title": title])
            if Int.random(in: 0..<200, using: &rng) == 0 { try writer.commit() }
        }
        try writer.commitAndReload()
        for _ in 0..<60 {
            let query = randomQuery(&rng)
            let expected = reference.search(query)
            let results = try index.search(query, limit: docCount)
            #expect(results.count == expected.count, "seed \(seed): \(query)")
            #expect(try index.count(query) == expected.count, "seed \(seed): \(query)")
            for hit in results.hits {
                let id = hit.document.string("id") ?? ""
                guard let want = expected[id] else {
                    Issue.record("seed \(seed): \(id) should not match \(query)")
                    continue
                }
                #expect(abs(Double(hit.score) - want) <= 1e-4 * max(1, abs(want)), "seed \(seed): \(id) \(query)")
            }
            // Best first, ties by document order.
            let scores = results.hits.map(\.score)
            #expect(scores == scores.sorted(by: >), "seed \(seed): \(query)")
        }
    }
}
