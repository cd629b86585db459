import Foundation
import Loupe
import TestSupport
import Testing

/// `suggest` against the brute-force reference (Docs/INSTANT-SEARCH.md's rules), and its documented behaviour:
/// frequency order, completions that still match with the earlier words, matched ranges, live counts and history.
@Suite struct SuggestTests {
    static let schema = InstantQueryTests.schema

    @Test(arguments: 0..<3 as Range<UInt64>)
    func engineAgreesWithBruteForce(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed &+ 100)
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        var reference = ReferenceIndex(schema: Self.schema)
        for i in 0..<Int.random(in: 100...500, using: &rng) {
            let document: Document = [
                "id": "\(i)", "title": DocumentValue(.text(InstantQueryTests.text(&rng, maxWords: 4))),
                "body": DocumentValue(.text(InstantQueryTests.text(&rng, maxWords: 20))),
            ]
            try writer.addDocument(document)
            try reference.add(document)
            if Int.random(in: 0..<120, using: &rng) == 0 { try writer.commit() }
        }
        try writer.commitAndReload()
        for _ in 0..<60 {
            let words = (0..<Int.random(in: 1...3, using: &rng)).map { _ in InstantQueryTests.typed(&rng) }
            let input = words.joined(separator: " ") + (Int.random(in: 0..<5, using: &rng) == 0 ? " " : "")
            let field = Bool.random(using: &rng) ? "title" : "body"
            let expected = try reference.suggest(input, field: field, limit: 5)
            let found = try index.suggest(input, field: field, limit: 5)
            #expect(
                found.map { ReferenceIndex.ReferenceSuggestion(text: $0.text, count: $0.count, typos: $0.typos) }
                    == expected, "\(input) in \(field)")
            #expect(found.allSatisfy { $0.source == .index })
        }
    }

    @Test func completionsRankByDocumentFrequencyAndTyposCost() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        for (title, copies) in [("heat", 3), ("heart", 5), ("hearth", 1), ("hut", 9)] {
            for i in 0..<copies {
                try writer.addDocument(["id": "\(title)\(i)", "title": DocumentValue(.text(title))])
            }
        }
        try writer.commitAndReload()
        let heaSuggestions = try index.suggest("hea", field: "title")
        #expect(heaSuggestions.map(\.text) == ["heart", "heat", "hearth"])
        #expect(heaSuggestions.map(\.count) == [5, 3, 1])
        #expect(heaSuggestions.allSatisfy { $0.typos == 0 })
        // "haert" is "heart" with a transposition: one typo, and the only completion within it.
        let typo = try index.suggest("haert", field: "title")
        #expect(typo.map(\.text) == ["heart", "hearth"])
        #expect(typo.map(\.typos) == [1, 1])
        // A trailing space ends the word: no completion, only the word itself and the terms a typo away.
        #expect(try index.suggest("heart ", field: "title").map(\.text) == ["heart", "heat", "hearth"])
        #expect(try index.suggest("", field: "title").isEmpty)
        #expect(try index.suggest("hea", field: "title", limit: 1).map(\.text) == ["heart"])
    }

    @Test func earlierWordsKeepTheirTextAndPreferCompletionsThatStillMatch() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        try writer.addDocument(["id": "1", "title": "the old man and the sea"])
        try writer.addDocument(["id": "2", "title": "old man river"])
        for i in 0..<6 { try writer.addDocument(["id": "m\(i)", "title": "mary"]) }
        try writer.commitAndReload()
        let found = try index.suggest("Old ma", field: "title")
        #expect(found.map(\.text) == ["Old man", "Old mary"])
        #expect(found.map(\.count) == [2, 0])
        let first = try #require(found.first)
        #expect(first.text[first.matchedRange] == "Old ma")
        // "rievr" is "river" with a transposition; the range covers the five letters it stands for.
        let typo = try #require(try index.suggest("old rievr", field: "title").first)
        #expect(typo.text == "old river")
        #expect(typo.text[typo.matchedRange] == "old river")
        #expect(typo.typos == 1)
        #expect(typo.count == 1)
    }

    @Test func countsLeaveOutDeletedDocuments() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        for i in 0..<3 { try writer.addDocument(["id": "a\(i)", "title": "banks gone"]) }
        try writer.addDocument(["id": "a3", "title": "banks"])
        for i in 0..<3 { try writer.addDocument(["id": "b\(i)", "title": "bank"]) }
        try writer.commit()
        _ = try writer.deleteDocuments(matching: .term("title", "gone"))
        try writer.commitAndReload()
        #expect(index.searcher().segmentInfos.contains { $0.deletedCount > 0 })
        let found = try index.suggest("ban", field: "title")
        #expect(found.map(\.text) == ["bank", "banks"])
        #expect(found.map(\.count) == [3, 1])
    }

    @Test func historyEntriesComeFirstMostUsedThenNewest() throws {
        let folder = TemporaryDirectory()
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        try writer.addDocument(["id": "1", "title": "pizza hut"])
        try writer.addDocument(["id": "2", "title": "pizzeria"])
        try writer.commitAndReload()
        let history = try SearchHistory(path: folder.path + "/history.bin")
        try history.record("Pizza Hut", at: Date(timeIntervalSince1970: 1))
        try history.record("pizza hut", at: Date(timeIntervalSince1970: 2))
        try history.record("pizza oven", at: Date(timeIntervalSince1970: 3))
        try history.record("hut", at: Date(timeIntervalSince1970: 4))
        let found = try index.suggest("piz", field: "title", history: history)
        #expect(found.map(\.text) == ["pizza hut", "pizza oven", "pizza", "pizzeria"])
        #expect(found.map(\.source) == [.history, .history, .index, .index])
        #expect(found.map(\.count) == [1, 0, 1, 1])
        #expect(found[0].text[found[0].matchedRange] == "piz")
        // Empty input: the history alone, most used first.
        #expect(
            try index.suggest("", field: "title", history: history).map(\.text) == ["pizza hut", "hut", "pizza oven"])
    }

    @Test func badArgumentsAreTypedErrors() throws {
        let index = try Index.inMemory(schema: Self.schema)
        #expect(throws: IndexError.self) { try index.suggest("x", field: "nope") }
        #expect(throws: IndexError.self) { try index.suggest("x", field: "id") } // not indexed
        #expect(throws: IndexError.self) { try index.suggest("x", limit: -1) }
        #expect(throws: IndexError.self) { try index.suggest("x", popularity: "title") }
    }
}
