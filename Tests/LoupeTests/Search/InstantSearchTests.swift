import Loupe
import TestSupport
import Testing

/// `instantSearch` is `Query.instant` with more in one call: its hits must be the query's pruned top-k (ties
/// broken by the popularity field), its count and facets those of an exhaustive pass, its suggestions `suggest`'s.
@Suite struct InstantSearchTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("title", stored: true)
        .addTextField("body", stored: true)
        .addStringField("genre", stored: true, fast: true)
        .addU64Field("plays", stored: true, fast: true)
        .build(defaultFields: ["title", "body"], idField: "id")

    static let genres = ["drama", "comedy", "horror", "crime"]

    /// An index of random documents from the instant query tests' vocabulary, where many share a title (so
    /// scores tie), with random genres and play counts (some missing).
    static func index(seed: UInt64) throws -> Index {
        var rng = SplitMix64(seed: seed)
        let index = try Index.inMemory(schema: schema)
        let writer = try index.writer()
        for i in 0..<Int.random(in: 200...600, using: &rng) {
            var document: Document = [
                "id": "\(i)", "title": DocumentValue(.text(InstantQueryTests.text(&rng, maxWords: 2))),
                "genre": DocumentValue(.text(genres.randomElement(using: &rng)!)),
            ]
            if Bool.random(using: &rng) {
                document.add("body", .text(InstantQueryTests.text(&rng, maxWords: 6)))
            }
            if Int.random(in: 0..<5, using: &rng) != 0 {
                document.add("plays", .u64(UInt64.random(in: 0..<20, using: &rng)))
            }
            try writer.addDocument(document)
            if Int.random(in: 0..<100, using: &rng) == 0 { try writer.commit() }
        }
        try writer.commitAndReload()
        return index
    }

    /// The query `instantSearch` runs: the words as typed when they match at least `limit` documents, else with
    /// typos.
    static func searched(_ text: String, limit: Int, in index: Index) throws -> Query {
        let exact = Query.instant(text, typoTolerance: .disabled)
        return try index.count(exact) >= max(limit, 1) ? exact : .instant(text)
    }

    @Test(arguments: 0..<3 as Range<UInt64>)
    func agreesWithTheQueryCountAndTermCounts(seed: UInt64) throws {
        let index = try Self.index(seed: seed)
        var rng = SplitMix64(seed: seed &+ 7)
        for _ in 0..<30 {
            let words = (0..<Int.random(in: 1...2, using: &rng)).map { _ in InstantQueryTests.typed(&rng) }
            let text = words.joined(separator: " ")
            let query = try Self.searched(text, limit: 7, in: index)
            let results = try index.instantSearch(text, limit: 7, facets: ["genre"], facetLimit: 3)
            let expected = try index.search(query, limit: 7)
            #expect(results.map { $0.string("id") } == expected.map { $0.string("id") }, "\(text)")
            #expect(results.map(\.score) == expected.map(\.score), "\(text)")
            #expect(results.totalCount == (try index.count(query)), "\(text)")
            #expect(results.facets["genre"] == (try index.termCounts("genre", matching: query, limit: 3)), "\(text)")
            #expect(results.suggestions.map(\.text) == (try index.suggest(text, field: nil).map(\.text)), "\(text)")
            #expect(results.query == text)
        }
    }

    @Test(arguments: 0..<3 as Range<UInt64>)
    func popularityBreaksTiesBetweenEqualScores(seed: UInt64) throws {
        let index = try Self.index(seed: seed)
        var rng = SplitMix64(seed: seed &+ 11)
        for _ in 0..<30 {
            let text = InstantQueryTests.typed(&rng)
            let all = try index.search(Self.searched(text, limit: 10, in: index), limit: 10_000).hits
            // Equal scores by plays, most first, documents without plays last; then index order (a stable sort).
            let expected = all.enumerated().sorted { a, b in
                if a.element.score != b.element.score { return a.element.score > b.element.score }
                let pa = a.element.uint("plays").map { Int($0) } ?? -1
                let pb = b.element.uint("plays").map { Int($0) } ?? -1
                return pa != pb ? pa > pb : a.offset < b.offset
            }.prefix(10).map { $0.element.string("id") }
            let results = try index.instantSearch(text, popularity: "plays", suggestions: 0)
            #expect(results.map { $0.string("id") } == expected, "\(text)")
            #expect(results.totalCount == all.count)
            #expect(results.suggestions.isEmpty)
        }
    }

    @Test func filtersNarrowWithoutChangingScoresAndSnippetsMarkTypos() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        try writer.addDocument(["id": "1", "title": "pizza hut", "genre": "comedy"])
        try writer.addDocument(["id": "2", "title": "pizza palace", "genre": "drama"])
        try writer.addDocument(["id": "3", "title": "the hut", "genre": "drama"])
        try writer.commitAndReload()
        let all = try index.instantSearch("piza h")
        #expect(all.map { $0.string("id") } == ["1"])
        #expect(all.first?.snippet("title")?.text == "pizza hut")
        #expect(all.first?.snippet("title")?.highlights.count == 2)
        let pizza = try index.instantSearch("piza", facets: ["genre"])
        #expect(pizza.totalCount == 2)
        #expect(pizza.facets["genre"]?.map(\.count) == [1, 1])
        let drama = try index.instantSearch("piza", filter: .term("genre", "drama"))
        #expect(drama.map { $0.string("id") } == ["2"])
        #expect(drama.first?.score == pizza.first { $0.string("id") == "2" }?.score)
        #expect(drama.totalCount == 1)
        #expect(try index.instantSearch("").isEmpty)
    }

    @Test func badArgumentsAreTypedErrors() throws {
        let index = try Index.inMemory(schema: Self.schema)
        #expect(throws: IndexError.self) { try index.instantSearch("x", limit: -1) }
        #expect(throws: IndexError.self) { try index.instantSearch("x", facets: ["title"]) } // not fast
        #expect(throws: IndexError.self) { try index.instantSearch("x", facets: ["nope"]) }
        #expect(throws: IndexError.self) { try index.instantSearch("x", popularity: "genre") } // not numeric
        #expect(throws: IndexError.self) { try index.instantSearch("x", fields: ["plays"]) }
    }
}
