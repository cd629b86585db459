// swift-format-ignore-file
// Every Swift block of README.md, Docs/*.md and the DocC catalogue, verbatim, with the declarations it presumes
// before it (`DocumentationBlocksTests` checks the blocks and this file stay the same). README's blocks run top to
// bottom in one function, as a reader would paste them.
import Foundation
import Loupe
import Testing

/// The movies corpus's schema and a few of its films, for the blocks of Docs/ that search it.
func moviesIndex() throws -> Index {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let schemaText = try String(contentsOf: root.appendingPathComponent("Benchmarks/corpora/movies/schema.json"), encoding: .utf8)
    let index = try Index.inMemory(schema: Schema(json: schemaText))
    let writer = try index.writer()
    for line in [
        #"{"id": "m1", "title": "Heat", "year": 1995, "genres": ["Crime", "Drama"], "runtime_min": 170, "people": "Michael Mann ; Al Pacino"}"#,
        #"{"id": "m2", "title": "Star Wars", "year": 1977, "genres": ["Adventure"], "runtime_min": 121, "people": "George Lucas"}"#,
        #"{"id": "m3", "title": "The Empire Strikes Back", "year": 1980, "genres": ["Adventure"], "runtime_min": 124, "people": "Irvin Kershner"}"#,
        #"{"id": "m4", "title": "Star Wars Holiday Special", "year": 1978, "genres": ["Comedy"], "runtime_min": 97, "people": "Steve Binder"}"#,
        #"{"id": "m5", "title": "In the Heat of the Night", "year": 1967, "genres": ["Drama"], "runtime_min": 109, "people": "Norman Jewison"}"#,
    ] {
        try writer.addDocument(json: line)
    }
    try writer.commitAndReload()
    return index
}

@Suite struct DocumentationExampleTests {
    @Test func readme() async throws {
        for folder in ["/tmp/films", "/tmp/typed-films"] { try? FileManager.default.removeItem(atPath: folder) }
        defer { for folder in ["/tmp/films", "/tmp/typed-films"] { try? FileManager.default.removeItem(atPath: folder) } }
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let schema = try SchemaBuilder()
            .addStringField("id", stored: true)
            .addTextField("title", stored: true)                       // the default analyzer, positions recorded
            .addTextField("body", tokenizer: .english, indexing: .freq)
            .addStringField("genres", stored: true, fast: true)
            .addU64Field("year", stored: true, fast: true)
            .build(defaultFields: ["title", "body"], idField: "id")

        let index = try Index(path: "/tmp/films", schema: schema)     // or Index.inMemory(schema:)
        let writer = try index.writer(memoryBudget: 50_000_000)
        try writer.addDocument(["id": "tt0113277", "title": "Heat", "body": "A group of professional bank robbers…",
                                "genres": ["Crime", "Drama"], "year": 1995])
        try writer.addDocument(json: #"{"id": "tt0114814", "title": "The Usual Suspects", "genres": ["Crime"], "year": 1995}"#)
        try writer.commitAndReload()

        let results = try index.search("+heat -comedy", limit: 10)
        print(results.totalCount)
        for hit in results {
            print(hit.score, hit.string("title") ?? "", hit.uint("year") ?? 0)
        }
        #expect(printed.count == 2 && printed[0] == "1" && printed[1].hasSuffix(" Heat 1995"))

        let q: Query = .fuzzy("title", "hest", distance: 1) && .range("year", 1990...1999)
        let recent = try index.search(q, limit: 10, orderBy: .descending("year"))
        let parsed = try index.search(#"title:"usual sus"* -genres:Comedy"#, boosts: ["title": 2])
        print(parsed.first?.snippet("title")?.html ?? "")                         // "The <b>Usual Suspects</b>"
        let broad = try index.search(.term("title", "the"), limit: 10)           // counts exactly up to 1,000, then "at least"
        print(broad.isTotalCountExact ? "\(broad.totalCount)" : "≥ \(broad.totalCount)")  // pruned: blocks that cannot rank are skipped
        let exact = try index.search(.term("title", "the"), limit: 10, counting: .exact)
        #expect(recent.map { $0.string("id") } == ["tt0113277"])
        #expect(printed[2] == "The <b>Usual Suspects</b>")
        #expect(printed[3] == "1" && exact.totalCount == 1)

        let sections = SchemaBuilder()
            .addTextField("title", stored: true)
            .addStringField("section", stored: true, fast: true)
            .build()
        let catalog = try Index.inMemory(schema: sections)
        try catalog.write { adder in
            for (title, section) in [("vim", "editors"), ("emacs", "editors"), ("gcc", "devel"), ("vim-gtk", "editors")] {
                try adder.addDocument(["title": title, "section": section])
            }
        }
        print(try catalog.termCounts("section"))                              // editors 3, devel 1; ties by value
        print(try catalog.termCounts("section", matching: .parsed("vim"), limit: 5))
        let bySection = try catalog.search(.matchAll, limit: 10, orderBy: .ascending("section"))
        #expect(try catalog.termCounts("section") == [FacetCount(value: "editors", count: 3), FacetCount(value: "devel", count: 1)])
        #expect(try catalog.termCounts("section", matching: .parsed("vim"), limit: 5) == [FacetCount(value: "editors", count: 2)])
        #expect(bySection.map { $0.string("section") } == ["devel", "editors", "editors", "editors"])

        let films = SchemaBuilder()
            .addStringField("genre", fast: true)
            .addU64Field("year", fast: true)
            .build()
        let shelf = try Index.inMemory(schema: films)
        try shelf.add(contentsOf: [["genre": "drama", "year": 1995], ["genre": "drama", "year": 2003],
                                   ["genre": "comedy", "year": 1999]])
        print(try shelf.aggregate(#"{"genres": {"terms": {"field": "genre"}, "aggs": {"avg_year": {"avg": {"field": "year"}}}}}"#))
        // {"genres":{"buckets":[{"key":"drama","doc_count":2,"avg_year":{"value":1999.0}},…],"sum_other_doc_count":0,…}}
        #expect(printed.last?.hasPrefix(#"{"genres":{"buckets":[{"key":"drama","doc_count":2,"avg_year":{"value":1999.0}}"#) == true)

        let typed = try index.instantSearch("haet", facets: ["genres"])       // "haet": one typo (a swap) from "heat"
        print(typed.totalCount, typed.first?.snippet("title")?.html ?? "")      // 1 <b>Heat</b>
        print(typed.facets["genres"] ?? [], typed.suggestions.map(\.text))      // Crime 1, Drama 1; ["heat"]
        let history = try SearchHistory(beside: index)                           // search-history.bin, beside the index
        try history.record("heat and dust")
        let completions = try index.suggest("he", history: history)              // "heat and dust" (history), then "heat"
        #expect(printed.suffix(2).first == "1 <b>Heat</b>" && typed.suggestions.map(\.text) == ["heat"])
        #expect(typed.facets["genres"] == [FacetCount(value: "Crime", count: 1), FacetCount(value: "Drama", count: 1)])
        #expect(completions.map(\.text) == ["heat and dust", "heat"] && completions.map(\.source) == [.history, .index])

        try writer.deleteDocuments(field: "id", equals: "tt0113277")       // or matching: any Query; deleteAllDocuments()
        try writer.commit()                                                 // deletes apply to documents added before them
        try index.upsert(["id": "tt0113277", "title": "Heat", "year": 1995], idField: "id")
        let heat = try index.get("id", equals: "tt0113277")                 // the stored fields, no scoring
        try index.optimize()                                                // one segment, deleted documents dropped
        try index.garbageCollect()                                          // files no commit references
        print(index.stats())                                                // live, deleted, per-segment bytes by file kind
        #expect(heat?.string("title") == "Heat" && heat?["genres"] == [])
        #expect(index.stats().documentCount == 2 && index.stats().segmentCount == 1)

        struct Film: Codable {
            let id: String
            let title: String
            let genres: [String]
            let year: UInt64
        }

        try index.add(Film(id: "tt0110912", title: "Pulp Fiction", genres: ["Crime"], year: 1994))
        let crime: [Film] = try index.search("genres:Crime", as: Film.self, limit: 10)
        let library = try SearchCollection<Film>(path: "/tmp/typed-films") { s in
            s.addStringField("id", stored: true)
            s.addTextField("title", stored: true)
            s.addStringField("genres", stored: true, fast: true)
            s.addU64Field("year", stored: true, fast: true)
        }                                                                    // or .inMemory(schema:), (index:)
        try library.add(contentsOf: [Film(id: "tt0110912", title: "Pulp Fiction", genres: ["Crime"], year: 1994)])
        let scored = try library.searchScored("pulp")                        // [(score: Float, model: Film)]
        let pulp = try library.get(idField: "id", id: "tt0110912")             // Film?
        #expect(crime.map(\.title).sorted() == ["Pulp Fiction", "The Usual Suspects"])
        #expect(scored.map { $0.model.id } == ["tt0110912"] && pulp?.year == 1994)

        try index.add(["id": "tt0110912", "title": "Pulp Fiction", "year": 1994])       // add, commit, reload
        try index.add(contentsOf: [["id": "tt0110413", "title": "Léon", "year": 1994]])  // one commit for the batch
        try index.write { writer in try writer.addDocument(["title": "Dune", "year": 1965]) }  // rolls back if it throws
        try await index.optimizeAsync()                                                 // and writer.commitAsync()
        try writer.close()                                                              // merges published, lock released
        #expect(index.documentCount == 6 && index.stats().segmentCount == 1)
        #expect(throws: IndexError.self) { try writer.commit() }
    }

    @Test func querySyntax() throws {
        let index = try moviesIndex()
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let q = try index.parseQuery(#"title:"star wars"~1 year:[1977 TO 1983] -genres:Comedy"#)
        let same: Query = .phrase("title", ["star", "wars"], slop: 1)
            && .range("year", 1977...1983)
        let results = try index.search(same.excluding(.term("genres", "Comedy")), limit: 10)
        #expect(results.map { $0.string("id") } == ["m2"])
        #expect(try index.search(q).map { $0.string("id") }.first == "m2")

        do {
            let q: Query = .parsed("heat")
            let page = try index.search(q, limit: 20, offset: 40)               // hits 41–60 and the total count
            let recent = try index.search(q, limit: 10, orderBy: .descending("year"))  // any fast field
            let titled = try index.search(q, boosts: ["title": 2])              // every leaf on title scores × 2
            for hit in titled {
                if let s = hit.snippet("title", maxChars: 150) { print(s.html) }  // "<b>Heat</b>"
            }
            let n = try index.count(q)
            #expect(page.isEmpty && page.totalCount == 2 && n == 2)
            #expect(recent.map { $0.string("id") } == ["m1", "m5"])
            #expect(printed == ["<b>Heat</b>", "In the <b>Heat</b> of the Night"])
        }
    }

    @Test func aggregations() throws {
        let index = try moviesIndex()
        let json = try index.aggregate(#"{"avg_year": {"avg": {"field": "year"}}}"#)           // {"avg_year":{"value":1995.3}}
        let drama = try index.aggregate(
            #"{"decades": {"histogram": {"field": "year", "interval": 10}, "aggs": {"runtime": {"avg": {"field": "runtime_min"}}}}}"#,
            matching: index.parseQuery("genres:Drama"))
        #expect(json == #"{"avg_year":{"value":1979.4}}"#)
        #expect(drama.contains(#"{"key":1960.0,"doc_count":1,"runtime":{"value":109.0}}"#))
    }

    @Test func doccOverview() throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let schema = SchemaBuilder()
            .addTextField("title", stored: true)
            .addU64Field("year", stored: true, fast: true)
            .build()
        let index = try Index.inMemory(schema: schema)
        try index.add(["title": "The Old Man and the Sea", "year": 1952])
        for hit in try index.search("sea", limit: 10) {
            print(hit.score, hit.string("title") ?? "", hit.uint("year") ?? 0)
        }
        #expect(printed.count == 1 && printed[0].hasSuffix("The Old Man and the Sea 1952"))
    }

    @Test func gettingStarted() async throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let schema = SchemaBuilder()
            .addStringField("id", stored: true)
            .addTextField("title", stored: true, tokenizer: .english)
            .addTextField("body")
            .addStringField("tags", stored: true, fast: true)
            .addU64Field("year", stored: true, fast: true)
            .build()

        let index = try Index.inMemory(schema: schema)
        let writer = try index.writer()
        try writer.addDocument(["id": "b1", "title": "The Old Man and the Sea", "body": "An old man fishes alone.",
                                "tags": ["classic", "sea"], "year": 1952])
        try writer.addDocument(json: #"{"id": "b2", "title": "Moby-Dick", "tags": ["classic"], "year": 1851}"#)
        try writer.commitAndReload()
        try writer.close()

        let results = try index.search("old sea", limit: 10)
        print(results.totalCount)
        for hit in results {
            print(hit.score, hit.string("title") ?? "", hit.uint("year") ?? 0, hit["tags"])
        }
        let classics = try index.search(.term("tags", "classic") && .range("year", 1800...1900))
        let newest = try index.search("tags:classic", orderBy: .descending("year"))
        print(classics.count, newest.first?.string("id") ?? "")
        #expect(printed.first == "1" && printed.last == "1 b1")

        struct Book: Codable {
            let id: String
            let title: String
            let tags: [String]
            let year: UInt64
        }

        try index.add(Book(id: "b3", title: "Dune", tags: ["scifi"], year: 1965))
        let books = try index.search("dune", as: Book.self)
        try index.upsert(Book(id: "b3", title: "Dune", tags: ["scifi", "classic"], year: 1965), idField: "id", id: "b3")
        #expect(books.map(\.title) == ["Dune"])
        #expect(try index.get("id", equals: "b3")?["tags"] == ["scifi", "classic"])

        let shelf = try SearchCollection<Book>.inMemory { s in
            s.addStringField("id", stored: true)
            s.addTextField("title", stored: true)
            s.addStringField("tags", stored: true)
            s.addU64Field("year", stored: true, fast: true)
        }
        try shelf.add(contentsOf: books)
        let found = try shelf.search("dune")
        let same = try shelf.get(idField: "id", id: "b3")
        #expect(found.map(\.id) == ["b3"] && same?.year == 1965)

        func refresh(_ index: Index) async throws -> [String] {
            let results = try await index.searchAsync("sea", limit: 20)
            return results.compactMap { $0.string("title") }
        }
        #expect(try await refresh(index) == ["The Old Man and the Sea"])
    }
}
