import Foundation
import Loupe
import Testing
import TestSupport

/// Every `Query` case, alone and nested in booleans, answered by the engine over a small random index committed
/// in several segments and by the brute-force `ReferenceIndex`: the same documents must match (in `search` and in
/// `count`), scores on text fields must agree within 1e-4 relative, the best hits must come first, and pages
/// sorted by a fast field must hold the same documents in the same order.
@Suite struct QueryLanguageReferenceTests {
    /// Words one or two edits apart (and one with a two-byte scalar, one in CJK), so fuzzy, prefix, regex and
    /// autocomplete queries expand to several terms.
    static let vocabulary = ["heat", "heart", "hear", "beat", "head", "heal", "neat", "haet", "hat", "héat", "日本", "heats", "he", "eat"]
    static let tags = ["red", "read", "reed", "blue", "blues", "réd", "日本"]
    static let ratios = [-2.5, -1, 0, 0.5, 1.25, 3, 7.75, 100]
    static let sortOrders: [SortOrder] = [
        .ascending("count"), .descending("count"), .ascending("ratio"), .descending("ratio"), .ascending("when"),
        .descending("when"),
    ]

    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true, indexed: false)
        .addTextField("title")
        .addTextField("body")
        .addStringField("tag")
        .addU64Field("count", fast: true)
        .addI64Field("delta")
        .addF64Field("ratio", fast: true)
        .addDateField("when", fast: true)
        .build(defaultFields: ["title", "body"], idField: "id")

    /// The query shapes under test; the last three wrap random leaves.
    enum Kind: String, CaseIterable {
        case matchAll, term, phrase, phrasePrefix, prefix, fuzzy, autocomplete, regex, wildcard, range, exists
        case moreLikeThis, boolean, boost, constantScore
    }

    @Test(arguments: Kind.allCases)
    func everyQueryTypeAgrees(kind: Kind) throws {
        for seed in 0..<3 as Range<UInt64> {
            var rng = SplitMix64(seed: seed)
            let corpus = try Corpus(&rng)
            for _ in 0..<25 {
                corpus.check(QueryGenerator.query(kind, &rng), context: "seed \(seed), \(kind)")
            }
        }
    }

    @Test(arguments: 0..<6 as Range<UInt64>)
    func nestedQueriesAgree(seed: UInt64) throws {
        var rng = SplitMix64(seed: 100 + seed)
        let corpus = try Corpus(&rng)
        for _ in 0..<50 {
            corpus.check(QueryGenerator.nested(&rng), context: "seed \(100 + seed)")
        }
    }

    @Test(arguments: 0..<4 as Range<UInt64>)
    func fieldBoostsAgree(seed: UInt64) throws {
        var rng = SplitMix64(seed: 200 + seed)
        let corpus = try Corpus(&rng)
        for _ in 0..<40 {
            var boosts: [String: Float] = [:]
            for field in ["title", "body", "tag", "count", "delta", "ratio", "when"] where Bool.random(using: &rng) {
                boosts[field] = [0.5, 2, 3][Int.random(in: 0..<3, using: &rng)]
            }
            corpus.check(QueryGenerator.nested(&rng), boosts: boosts, context: "seed \(200 + seed), boosts \(boosts)")
        }
    }

    @Test(arguments: 0..<4 as Range<UInt64>)
    func sortedPagesAgree(seed: UInt64) throws {
        var rng = SplitMix64(seed: 300 + seed)
        let corpus = try Corpus(&rng)
        for _ in 0..<30 {
            let query = Int.random(in: 0..<4, using: &rng) == 0 ? Query.matchAll : QueryGenerator.nested(&rng)
            let order = Self.sortOrders[Int.random(in: 0..<Self.sortOrders.count, using: &rng)]
            let limit = Int.random(in: 1...15, using: &rng)
            let offset = Int.random(in: 0...20, using: &rng)
            let context = "seed \(300 + seed): \(query) by \(order), limit \(limit), offset \(offset)"
            do {
                let matches = try corpus.reference.search(query)
                let page = Array(corpus.reference.ordered(matches, by: order).dropFirst(offset).prefix(limit))
                let results = try corpus.index.search(query, limit: limit, offset: offset, orderBy: order)
                #expect(results.count == matches.count, "\(context)")
                #expect(results.hits.map(Corpus.ordinal) == page, "\(context)")
            } catch {
                Issue.record("\(context): \(error)")
            }
        }
    }

    @Test func invalidQueriesAreRejected() throws {
        var rng = SplitMix64(seed: 400)
        let corpus = try Corpus(&rng)
        let invalid: [Query] = [
            .fuzzy("title", "heat", distance: 3),
            .regex("title", "(he"),
            .range(field: "count", lower: .included(.text("a")), upper: .unbounded),
        ]
        for query in invalid {
            let searchError = #expect(throws: IndexError.self, "\(query)") { try corpus.index.search(query) }
            #expect(searchError?.code == .invalidQuery, "\(query)")
            let countError = #expect(throws: IndexError.self, "\(query)") { try corpus.index.count(query) }
            #expect(countError?.code == .invalidQuery, "\(query)")
        }
    }
}

/// A random index, 30–200 documents committed in several segments, and a reference holding the same documents.
struct Corpus {
    let index: Index
    let reference: ReferenceIndex

    init(_ rng: inout SplitMix64) throws {
        let schema = QueryLanguageReferenceTests.schema
        index = Index.inMemory(schema: schema)
        let writer = try index.writer()
        var reference = ReferenceIndex(schema: schema)
        for i in 0..<Int.random(in: 30...200, using: &rng) {
            let document = Self.randomDocument(i, &rng)
            try writer.addDocument(document)
            try reference.add(document)
            if Int.random(in: 0..<15, using: &rng) == 0 { try writer.commit() }
        }
        try writer.commitAndReload()
        self.reference = reference
    }

    /// Every field may be missing; text may be empty or capitalized; tags and counts are sometimes two values.
    static func randomDocument(_ i: Int, _ rng: inout SplitMix64) -> Document {
        var document = Document()
        document.add("id", .text("\(i)"))
        func present() -> Bool { Int.random(in: 0..<5, using: &rng) > 0 }
        if present() { document.add("title", .text(QueryGenerator.text(words: 0...4, &rng))) }
        if present() { document.add("body", .text(QueryGenerator.text(words: 0...12, &rng))) }
        if present() { document.add("tag", .text(QueryGenerator.pick(QueryLanguageReferenceTests.tags, &rng))) }
        if Int.random(in: 0..<10, using: &rng) == 0 { document.add("tag", .text(QueryGenerator.pick(QueryLanguageReferenceTests.tags, &rng))) }
        if present() { document.add("count", .u64(UInt64.random(in: 0...20, using: &rng))) }
        if Int.random(in: 0..<10, using: &rng) == 0 { document.add("count", .u64(UInt64.random(in: 0...20, using: &rng))) }
        if present() { document.add("delta", .i64(Int64.random(in: -10...10, using: &rng))) }
        if present() { document.add("ratio", .f64(QueryGenerator.pick(QueryLanguageReferenceTests.ratios, &rng))) }
        if present() { document.add("when", .date(QueryGenerator.date(&rng))) }
        return document
    }

    var documentCount: Int { reference.documentCount }

    /// A hit's insertion ordinal, from its stored id.
    static func ordinal(_ hit: SearchHit) -> Int { hit.document.string("id").flatMap { Int($0) } ?? -1 }

    /// Compares the engine with the reference on `query`, recording at most one issue that lists every problem.
    func check(_ query: Query, boosts: [String: Float] = [:], context: String) {
        do {
            let expected = try reference.search(query, boosts: boosts)
            let problems = try problems(query, boosts: boosts, expected: expected)
            if !problems.isEmpty { Issue.record("\(context): \(query)\n  " + problems.joined(separator: "\n  ")) }
        } catch {
            Issue.record("\(context): \(query) failed: \(error)")
        }
    }

    private func problems(_ query: Query, boosts: [String: Float], expected: ReferenceIndex.Matches) throws -> [String] {
        var problems: [String] = []
        let all = try index.search(query, limit: documentCount, boosts: boosts)
        let counted = try index.count(query)
        if all.count != expected.count { problems.append("search counted \(all.count), expected \(expected.count)") }
        if counted != expected.count { problems.append("count gave \(counted), expected \(expected.count)") }
        let got = Dictionary(all.hits.map { (Self.ordinal($0), Double($0.score)) }) { a, _ in a }
        let extra = got.keys.filter { expected[$0] == nil }.sorted()
        let missing = expected.keys.filter { got[$0] == nil }.sorted()
        if !extra.isEmpty { problems.append("unexpected documents \(extra.prefix(12))") }
        if !missing.isEmpty { problems.append("missing documents \(missing.prefix(12))") }
        let comparesScores = reference.comparesScores(query)
        if comparesScores {
            let wrong = got.keys.sorted().filter { d in expected[d].map { !Self.close(got[d] ?? 0, $0) } ?? false }
            for d in wrong.prefix(5) { problems.append("document \(d) scored \(got[d] ?? 0), expected \(expected[d] ?? 0)") }
        }
        let scores = all.hits.map(\.score)
        if scores != scores.sorted(by: >) { problems.append("hits are not best first: \(scores.prefix(12))") }
        // The best k: any k documents whose reference scores no other match beats (ties may go either way).
        guard expected.count > 1 else { return problems }
        let k = max(1, expected.count / 3)
        let top = try index.search(query, limit: k, boosts: boosts).hits.map(Self.ordinal)
        if top.count != k || !top.allSatisfy({ expected[$0] != nil }) { problems.append("top \(k) \(top) are not \(k) matches") }
        if comparesScores {
            let chosen = Set(top)
            let weakest = top.compactMap { expected[$0] }.min() ?? 0
            let strongest = expected.filter { !chosen.contains($0.key) }.map(\.value).max() ?? 0
            if strongest > weakest && !Self.close(strongest, weakest) {
                problems.append("top \(k) \(top) leave out a document scoring \(strongest) > \(weakest)")
            }
        }
        return problems
    }

    /// Within 1e-4 relative (and 1e-6 absolute, for scores of zero).
    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-4 * abs(b) + 1e-6 }
}
