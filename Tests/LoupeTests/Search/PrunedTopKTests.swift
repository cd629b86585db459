import Loupe
import TestSupport
import Testing

/// Pruned top-k (block-max skipping, MaxScore in unions, block-max AND) against the exhaustive search: on random
/// indexes of several segments with deletes, every query's best k hits under `.hitsOnly` and `.atLeast(n)` are the
/// exhaustive best k exactly — same documents, same scores, ties to the earlier document — and the counts keep
/// their promise (exact when flagged so, never above the truth, at least `n` when that many match).
@Suite struct PrunedTopKTests {
    static let vocabulary = (0..<40).map { "w\($0)" }
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("title")
        .addTextField("body")
        .addTextField("tags", record: .freq)
        .addStringField("kind")
        .addU64Field("year", fast: true)
        .build(defaultFields: ["title", "body"], idField: "id")

    /// Zipf-like word choice, so some words fill many postings blocks and others are rare; lengths vary a lot, so
    /// norms (and block-max bounds) differ from block to block.
    static func text(_ rng: inout SplitMix64, maxWords: Int) -> String {
        (0..<Int.random(in: 1...maxWords, using: &rng)).map { _ in
            let r = Double.random(in: 0..<1, using: &rng)
            return vocabulary[Int(r * r * r * Double(vocabulary.count))]
        }.joined(separator: " ")
    }

    static func word(_ rng: inout SplitMix64) -> String {
        let r = Double.random(in: 0..<1, using: &rng)
        return vocabulary[Int(r * r * Double(vocabulary.count))]
    }

    static func query(_ rng: inout SplitMix64, depth: Int = 0) -> Query {
        switch Int.random(in: 0..<(depth > 1 ? 5 : 9), using: &rng) {
        case 0: return .term("body", .text(word(&rng)))
        case 1: return .term("title", .text(word(&rng)))
        case 2: return .parsed(word(&rng))
        case 3: return .parsed((0..<Int.random(in: 2...5, using: &rng)).map { _ in word(&rng) }.joined(separator: " "))
        case 4: return .term("kind", .text(["a", "b", "c"][Int.random(in: 0..<3, using: &rng)]))
        case 5: return .parsed("+\(word(&rng)) +\(word(&rng))")
        case 6: return .boost(query(&rng, depth: depth + 1), factor: Float(Int.random(in: 1...3, using: &rng)))
        case 7:
            let low = UInt64.random(in: 1990...2020, using: &rng)
            return .allOf([query(&rng, depth: depth + 1), .range("year", low...(low + 5))])
        default:
            let clauses = (0..<Int.random(in: 2...4, using: &rng)).map { _ in
                Query.Clause(
                    [Occur.must, .should, .should, .mustNot][Int.random(in: 0..<4, using: &rng)],
                    query(&rng, depth: depth + 1))
            }
            return .boolean(clauses, minimumShouldMatch: Int.random(in: 0...2, using: &rng))
        }
    }

    static func summary(_ results: SearchResults) -> [String] {
        results.hits.map { "\($0.document.string("id") ?? "?"):\($0.score)" }
    }

    @Test(arguments: 0..<8 as Range<UInt64>)
    func prunedTopKEqualsExhaustive(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        let docCount = Int.random(in: 800...3000, using: &rng)
        for i in 0..<docCount {
            try writer.addDocument([
                "id": "\(i)", "title": DocumentValue(.text(Self.text(&rng, maxWords: 8))),
                "body": DocumentValue(.text(Self.text(&rng, maxWords: Bool.random(using: &rng) ? 12 : 120))),
                "tags": DocumentValue(.text(Self.text(&rng, maxWords: 4))),
                "kind": DocumentValue(.text(["a", "b", "c"][Int.random(in: 0..<3, using: &rng)])),
                "year": DocumentValue(.u64(UInt64.random(in: 1990...2025, using: &rng))),
            ])
            if Int.random(in: 0..<700, using: &rng) == 0 { try writer.commit() }
        }
        try writer.commit()
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            try writer.deleteDocuments(matching: .term("title", .text(Self.word(&rng))))
        }
        try writer.commitAndReload()
        for _ in 0..<80 {
            let query = Self.query(&rng)
            let k = [1, 3, 10, 50][Int.random(in: 0..<4, using: &rng)]
            let exact = try index.search(query, limit: k, counting: .exact)
            let truth = try index.count(query)
            var problems: [String] = []
            if !exact.isTotalCountExact || exact.totalCount != truth {
                problems.append("exact count \(exact.totalCount), truth \(truth)")
            }
            let pruned = try index.search(query, limit: k, counting: .hitsOnly)
            if Self.summary(pruned) != Self.summary(exact) {
                problems.append("hits only: \(Self.summary(pruned)) vs \(Self.summary(exact))")
            }
            if pruned.totalCount > truth { problems.append("hits-only count \(pruned.totalCount) above \(truth)") }
            let n = Int.random(in: 0...200, using: &rng)
            let bounded = try index.search(query, limit: k, counting: .atLeast(n))
            if Self.summary(bounded) != Self.summary(exact) {
                problems.append("at least \(n): \(Self.summary(bounded)) vs \(Self.summary(exact))")
            }
            if bounded.isTotalCountExact
                ? bounded.totalCount != truth : bounded.totalCount < n || bounded.totalCount > truth
            {
                problems.append(
                    "at least \(n): count \(bounded.totalCount) (exact \(bounded.isTotalCountExact)), truth \(truth)")
            }
            if !problems.isEmpty {
                Issue.record("seed \(seed), k \(k): \(query)\n  \(problems.joined(separator: "\n  "))")
            }
        }
    }
}
