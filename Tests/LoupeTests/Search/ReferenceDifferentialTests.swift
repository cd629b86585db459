import Loupe
import TestSupport
import Testing

/// Random documents and queries, answered by the engine (several segments) and by the brute-force
/// `ReferenceIndex`: the same documents must match with the same scores. Up to 900 documents, so that
/// postings fill several 128-document blocks; QueryLanguageReferenceTests covers every other query type.
@Suite struct ReferenceDifferentialTests {
    static let vocabulary = [
        "apple", "banana", "cherry", "date", "elder", "fig", "grape", "honey", "iris", "jade", "kiwi", "lime",
    ]
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true, indexed: false)
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

    private func randomWord(_ rng: inout SplitMix64) -> String {
        Self.vocabulary[Int.random(in: 0..<Self.vocabulary.count, using: &rng)]
    }

    private func randomQuery(_ rng: inout SplitMix64, depth: Int = 0) -> Query {
        let field = Bool.random(using: &rng) ? "body" : "title"
        switch Int.random(in: 0..<(depth > 1 ? 2 : 4), using: &rng) {
        case 0:
            return .term(field, .text(randomWord(&rng)))
        case 1:
            let terms = (0..<Int.random(in: 2...3, using: &rng)).map { _ in randomWord(&rng) }
            return .phrase(field, terms, slop: [0, 0, 1, 2].randomElement(using: &rng) ?? 0)
        case 2:
            return .boost(randomQuery(&rng, depth: depth + 1), factor: Float(Int.random(in: 1...4, using: &rng)))
        default:
            var clauses: [Query.Clause] = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                let occur = [Occur.must, .should, .mustNot][Int.random(in: 0..<3, using: &rng)]
                return Query.Clause(occur, randomQuery(&rng, depth: depth + 1))
            }
            if clauses.allSatisfy({ $0.occur == .mustNot }) {
                clauses.append(Query.Clause(.should, randomQuery(&rng, depth: depth + 1)))
            }
            return .boolean(clauses)
        }
    }

    @Test(arguments: 0..<6 as Range<UInt64>)
    func engineAgreesWithBruteForce(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        var reference = ReferenceIndex(schema: Self.schema)
        let docCount = Int.random(in: 50...900, using: &rng)
        for i in 0..<docCount {
            let document: Document = [
                "id": "\(i)", "body": DocumentValue(.text(randomText(&rng, maxWords: 60))),
                "title": DocumentValue(.text(randomText(&rng, maxWords: 6))),
            ]
            try writer.addDocument(document)
            try reference.add(document)
            if Int.random(in: 0..<200, using: &rng) == 0 { try writer.commit() }
        }
        try writer.commitAndReload()
        for _ in 0..<60 {
            let query = randomQuery(&rng)
            let expected = try reference.search(query)
            let results = try index.search(query, limit: docCount)
            // One issue per query, listing every problem, so a wrong query reads as one failure.
            var problems: [String] = []
            if results.totalCount != expected.count {
                problems.append("search counted \(results.totalCount), expected \(expected.count)")
            }
            let counted = try index.count(query)
            if counted != expected.count { problems.append("count gave \(counted), expected \(expected.count)") }
            for hit in results.hits {
                let id = hit.document.string("id").flatMap { Int($0) } ?? -1
                guard let want = expected[id] else {
                    problems.append("document \(id) should not match")
                    continue
                }
                if abs(Double(hit.score) - want) > 1e-4 * max(1, abs(want)) {
                    problems.append("document \(id) scored \(hit.score), expected \(want)")
                }
            }
            // Best first, ties by document order.
            let scores = results.hits.map(\.score)
            if scores != scores.sorted(by: >) { problems.append("hits are not best first") }
            if !problems.isEmpty {
                Issue.record("seed \(seed): \(query)\n  \(problems.prefix(8).joined(separator: "\n  "))")
            }
        }
    }
}
