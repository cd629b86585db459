import Loupe
import TestSupport
import Testing

/// `Query.instant` against the brute-force reference: random documents over a vocabulary of near neighbours
/// (so typos find other words), random typed prefixes with typos, several segments. The same documents must
/// match, the top-k must be in the reference's order (typos first, then BM25), and exact matches must never be
/// outranked by typo matches.
@Suite struct InstantQueryTests {
    static let vocabulary = [
        "jesus", "jesse", "pizza", "pizzeria", "piazza", "hut", "heat", "heart", "hearth", "bank", "banks", "blank",
        "robber", "robbery", "rubber", "police", "policy", "palace", "mercenary", "mercenaries",
    ]
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true, indexed: false)
        .addTextField("title", stored: true)
        .addTextField("body", stored: true)
        .build(defaultFields: ["title", "body"], idField: "id")

    static func text(_ rng: inout SplitMix64, maxWords: Int) -> String {
        (0..<Int.random(in: 1...maxWords, using: &rng)).map { _ in
            let r = Double.random(in: 0..<1, using: &rng)
            return Self.vocabulary[Int(r * r * Double(Self.vocabulary.count))]
        }.joined(separator: " ")
    }

    /// A word of the vocabulary, cut to a prefix and given up to two edits.
    static func typed(_ rng: inout SplitMix64) -> String {
        var word = Array(Self.vocabulary.randomElement(using: &rng)!)
        word = Array(word.prefix(Int.random(in: 2...word.count, using: &rng)))
        for _ in 0..<Int.random(in: 0...2, using: &rng) where word.count > 2 {
            let i = Int.random(in: 0..<word.count - 1, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: word.swapAt(i, i + 1)
            case 1: word.remove(at: i)
            case 2: word.insert("x", at: i)
            default: word[i] = "q"
            }
        }
        return String(word)
    }

    /// Checks that `Query.instant(input)` matches the reference's documents with its scores (`limit` at least the
    /// number of matches), and returns the reference's matches.
    @discardableResult
    static func expectSameMatches(
        _ index: Index, _ reference: ReferenceIndex, _ input: String, limit: Int
    ) throws -> ReferenceIndex.Matches {
        let expected = try reference.search(.instant(input))
        let found = try index.search(.instant(input), limit: limit)
        #expect(found.totalCount == expected.count, "'\(input)'")
        for hit in found {
            let score = expected[Int(hit.string("id")!)!] ?? -1
            #expect(abs(Double(hit.score) - score) < 1e-4 * max(1, score), "'\(input)'")
        }
        return expected
    }

    @Test(arguments: 0..<4 as Range<UInt64>)
    func engineAgreesWithBruteForce(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        var reference = ReferenceIndex(schema: Self.schema)
        let docCount = Int.random(in: 100...700, using: &rng)
        for i in 0..<docCount {
            let document: Document = [
                "id": "\(i)", "title": DocumentValue(.text(Self.text(&rng, maxWords: 4))),
                "body": DocumentValue(.text(Self.text(&rng, maxWords: 30))),
            ]
            try writer.addDocument(document)
            try reference.add(document)
            if Int.random(in: 0..<150, using: &rng) == 0 { try writer.commit() }
        }
        try writer.commitAndReload()
        for _ in 0..<40 {
            let words = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Self.typed(&rng) }
            let input = words.joined(separator: " ") + (Int.random(in: 0..<4, using: &rng) == 0 ? " " : "")
            let query = Query.instant(input)
            let expected = try reference.search(query)
            let all = try index.search(query, limit: docCount)
            #expect(all.totalCount == expected.count, "\(input): count")
            #expect(try index.count(query) == expected.count, "\(input): count()")
            for hit in all {
                let doc = Int(hit.string("id")!)!
                guard let score = expected[doc] else {
                    Issue.record("\(input): doc \(doc) matched but the reference has no match")
                    continue
                }
                #expect(abs(Double(hit.score) - score) < 1e-4 * max(1, score), "\(input): doc \(doc) score")
            }
            // The pruned top-10 holds the reference's best ten (ties aside), typos first.
            let top = try index.search(query, limit: 10)
            let best = reference.ordered(expected, by: .relevance).prefix(10)
            #expect(top.count == best.count, "\(input): top-10 size")
            for (hit, doc) in zip(top, best) {
                #expect(abs(Double(hit.score) - expected[doc]!) < 1e-4 * max(1, expected[doc]!), "\(input): rank")
            }
            for (a, b) in zip(top, top.dropFirst()) { #expect(a.score >= b.score) }
        }
    }

    /// One- and two-byte prefixes are completed from the segments' completion tables; with more terms under a
    /// prefix than a table keeps, a term a table leaves out is looked up only when it could still rank. Many
    /// segments of a skewed vocabulary of 300 words under "p" must still expand, count and score as the reference
    /// does, through `Query.instant` and through `instantSearch`'s single ranking and counting pass.
    @Test func shortPrefixesOverFullCompletionTablesAgreeWithBruteForce() throws {
        var rng = SplitMix64(seed: 7)
        let letters: [String] = "abcdefghijklmnopqrst".map { String($0) }
        let words: [String] = (0..<300).map { (i: Int) -> String in "p" + letters[i % 20] + letters[i / 20] }
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        var reference = ReferenceIndex(schema: Self.schema)
        for i in 0..<1_500 {
            // Each segment favours other words, so the tables' most frequent terms differ between segments.
            let shift = i / 300 * 37
            var body: [String] = []
            for _ in 0..<6 {
                let r = Double.random(in: 0..<1, using: &rng)
                let rank = Int(r * r * r * Double(words.count))
                body.append(words[(rank + shift) % words.count])
            }
            let document: Document = [
                "id": "\(i)", "title": DocumentValue(.text(Self.text(&rng, maxWords: 2))),
                "body": DocumentValue(.text(body.joined(separator: " "))),
            ]
            try writer.addDocument(document)
            try reference.add(document)
            if i % 300 == 299 { try writer.commit() }
        }
        try writer.commitAndReload()
        #expect(try index.searcher().segmentInfos.count == 5)
        // The last two find the completions the searcher merged for "pa" and "p" the first time.
        for input in ["p", "pa", "pk", "p ", "heat p", "pb pc", "pa", "p"] {
            let expected = try Self.expectSameMatches(index, reference, input, limit: 1_500)
            // instantSearch looks for typos only when the words as typed match fewer than `limit` documents.
            let asTyped = try reference.search(.instant(input, typoTolerance: .disabled))
            let ranked = asTyped.count >= 10 ? asTyped : expected
            let instant = try index.instantSearch(input, limit: 10, suggestions: 0)
            let best = reference.ordered(ranked, by: .relevance).prefix(10)
            #expect(instant.totalCount == ranked.count, "'\(input)': instantSearch count")
            #expect(instant.hits.count == best.count, "'\(input)': instantSearch hits")
            for (hit, doc) in zip(instant.hits, best) {
                #expect(abs(Double(hit.score) - ranked[doc]!) < 1e-4 * max(1, ranked[doc]!), "'\(input)': rank")
            }
        }
    }

    /// Typing an input a character at a time, as a search bar does, filters the matches kept from the keystroke
    /// before (`KeystrokeCache`): every prefix must still match exactly what the brute force finds.
    @Test(arguments: 0..<2 as Range<UInt64>)
    func everyKeystrokeAgreesWithBruteForce(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &+ 50)
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        var reference = ReferenceIndex(schema: Self.schema)
        for i in 0..<300 {
            let document: Document = [
                "id": "\(i)", "title": DocumentValue(.text(Self.text(&rng, maxWords: 4))),
                "body": DocumentValue(.text(Self.text(&rng, maxWords: 12))),
            ]
            try writer.addDocument(document)
            try reference.add(document)
            if i % 100 == 99 { try writer.commit() }
        }
        try writer.commitAndReload()
        for _ in 0..<8 {
            let input = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Self.typed(&rng) }.joined(separator: " ")
            var typed = ""
            for character in input {
                typed.append(character)
                try Self.expectSameMatches(index, reference, typed, limit: 1_000)
                let suggestions = try index.suggest(typed, field: "body")
                #expect(suggestions.map(\.text) == (try reference.suggest(typed, field: "body", limit: 5)).map(\.text))
            }
        }
    }

    @Test func typoBudgetFollowsTheWordLength() {
        let budget = TypoTolerance.default
        #expect((1...12).map { budget.maxTypos(forLength: $0) } == [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2])
        #expect(TypoTolerance.disabled.maxTypos(forLength: 40) == 0)
        #expect(TypoTolerance(oneTypoFrom: 2, twoTyposFrom: 3).maxTypos(forLength: 3) == 2)
    }

    @Test func exactMatchesOutrankTyposAndTranspositionsCountOnce() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        // "jesse" is one substitution from "jesus"'s prefix "jess"; the typo document repeats it to win on BM25.
        try writer.addDocument(["id": "typo", "title": "jesse jesse jesse"])
        try writer.addDocument(["id": "exact", "title": "the life of jesus told at length in a long title"])
        try writer.addDocument(["id": "none", "title": "pizza hut"])
        try writer.commitAndReload()
        let ids = { (text: String) in try index.search(.instant(text)).map { $0.string("id")! } }
        #expect(try ids("jesu") == ["exact", "typo"])
        #expect(try ids("jseus") == ["exact"]) // a transposition is one typo; "jesse" is two away
        #expect(try ids("piza hut") == ["none"])
        #expect(try ids("piz") == ["none"]) // a prefix of "pizza"
        #expect(try ids("pzi").isEmpty) // three characters allow no typo
        // The first character takes no typo unless the tolerance says so.
        #expect(try ids("hesus").isEmpty)
        #expect(try index.search(.instant("hesus", typoTolerance: TypoTolerance(exactPrefixLength: 0))).count == 1)
        #expect(throws: IndexError.self) {
            try index.search(.instant("hesus", typoTolerance: TypoTolerance(exactPrefixLength: -1)))
        }
    }
}
