// swift-format-ignore-file
// The API section of the Tantivy-for-Swift bindings' README (../shared/TantivySwift-API.md), snippet by snippet, as
// our users' code is written: this target imports `Loupe` only — no `@testable`, no TestSupport, no `package`
// symbol. Each test holds a snippet verbatim (between `// ---` lines; a `…` the README leaves open is filled in),
// the declarations it presumes before it, and what the README says it does after it.
import Foundation
import Loupe
import Testing

/// A fresh folder, removed when the value goes away.
final class TemporaryFolder {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-api-\(UUID().uuidString)")
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

struct Book: Codable, Equatable {
    let title: String
    let year: UInt64
}

struct Card: Codable, Equatable {
    let id: String
    let title: String
    let tags: [String]
}

struct Article: Codable {
    let slug: String
    let title: String
    let body: String
}

/// A search field, as in an app: `.parsed(searchField.text)`.
struct SearchField { var text: String }

/// One schema holding every field the README's snippets name.
func catalogueSchema() -> Schema {
    SchemaBuilder()
        .addStringField("id", stored: true, fast: true)
        .addStringField("slug", stored: true)
        .addTextField("title", stored: true)
        .addTextField("body", stored: true)
        .addStringField("tag", stored: true, fast: true)
        .addStringField("tags", stored: true, fast: true)
        .addStringField("status", stored: true)
        .addStringField("code", stored: true)
        .addU64Field("year", stored: true, fast: true)
        .addU64Field("count", stored: true)
        .addF64Field("rating", stored: true)
        .addF64Field("price", stored: true, fast: true)
        .addBoolField("active", stored: true)
        .addDateField("created", stored: true, fast: true)
        .build()
}

@Suite struct BindingsREADMETests {
    @Test func quickstart() throws {
        let folder = TemporaryFolder()
        let indexURL = folder.url
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        // ---
        // 1. Describe the schema
        let schema = SchemaBuilder()
            .addTextField("title", stored: true)
            .addTextField("body")                       // indexed, not stored
            .addU64Field("year", stored: true, fast: true)
            .build()

        // 2. Open an index (on disk, or .inMemory(schema:))
        let index = try Index(path: indexURL, schema: schema)

        // 3. Add documents and commit
        let writer = try index.writer()
        try writer.addDocument([
            "title": "The Old Man and the Sea",
            "body":  "He was an old man who fished alone in a skiff…",
            "year":  1952,
        ])
        try writer.commitAndReload()                    // commit + make searchable

        // 4. Query
        for hit in try index.search("sea whale", limit: 10) {
            print(hit.score, hit.string("title") ?? "", hit.int("year") ?? 0)
        }
        // ---
        #expect(printed.count == 1)
        #expect(printed.first?.hasSuffix(" The Old Man and the Sea 1952") == true)
        #expect(try index.search("skiff").count == 1, "unqualified words search every indexed text field")
        #expect(try index.search("title:skiff").isEmpty)
    }

    @Test func schemaBuilderAndAnalyzers() throws {
        // ---
        let builder = SchemaBuilder()
        builder.addTextField("title", stored: true, tokenizer: .english)
        // ---
        builder.addTextField("tags", stored: true, tokenizer: .lowercase, fast: true)
        builder.addTextField("code", tokenizer: .raw)
        builder.addTextField("words", tokenizer: .whitespace, indexing: .freq)
        builder.addTextField("plain", tokenizer: .default, indexing: .basic)
        builder.addDateField("created", stored: true, fast: true)
        builder.addI64Field("delta", stored: true)
        builder.addF64Field("rating", stored: true)
        builder.addBoolField("active", stored: true)
        let index = try Index.inMemory(schema: builder.build())
        let writer = try index.writer()
        try writer.addDocument([
            "title": "Running horses", "tags": "Classic", "code": "AB-12", "words": "Mixed Case", "plain": "x",
            "created": DocumentValue(Date(timeIntervalSince1970: 1_700_000_000)), "delta": -3, "rating": 4.5,
            "active": true,
        ])
        try writer.commitAndReload()
        #expect(try index.count(.term("title", "hors")) == 1, ".english stems")
        #expect(try index.count(.term("tags", "classic")) == 1, ".lowercase is one lowercased token")
        #expect(try index.count(.term("code", "AB-12")) == 1, ".raw is the whole value, case kept")
        #expect(try index.count(.term("words", "Mixed")) == 1, ".whitespace keeps case")
        #expect(throws: IndexError.self, "a phrase needs positions, which .freq does not record") {
            try index.search(.phrase("words", ["Mixed", "Case"]))
        }
        let hit = try #require(index.search(.matchAll).first)
        #expect(hit.int("delta") == -3)
        #expect(hit.double("rating") == 4.5)
        #expect(hit.bool("active") == true)
        #expect(hit.date("created") == Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func invalidSchemaIsReportedByTheIndex() throws {
        let schema = SchemaBuilder().addTextField("title").addU64Field("title").build()
        #expect {
            try Index.inMemory(schema: schema)
        } throws: { error in
            (error as? IndexError)?.code == .invalidArgument && "\(error)".contains("'title' is declared twice")
        }
    }

    @Test func index() throws {
        let folder = TemporaryFolder()
        let url = folder.url
        let schema = catalogueSchema()
        do {
            // ---
            let index = try Index(path: url, schema: schema)   // create or open on disk
            // ---
            let writer = try index.writer()
            try writer.addDocument(["id": "abc123", "title": "The sea", "year": 1952])
            try writer.addDocument(["id": "def456", "title": "A whale", "year": 1851])
            try writer.commit()
            #expect(index.documentCount == 0, "searches observe new commits only after reload()")
            // ---
            index.documentCount                                 // searchable doc count
            try index.reload()                                  // observe latest commit
            try index.search("sea whale", limit: 10, fields: [])  // -> [SearchHit]
            try index.count("sea")                              // match count, no docs loaded
            try index.count(.range("year", 1900...2000))        // count a structured Query
            try index.get("id", equals: "abc123")               // fetch one doc by id term
            // ---
            #expect(index.documentCount == 2)
            #expect(try index.search("sea whale", limit: 10, fields: []).count == 2)
            #expect(try index.count("sea") == 1)
            #expect(try index.count(.range("year", 1900...2000)) == 1)
            #expect(try index.get("id", equals: "abc123")?.string("title") == "The sea")
            #expect(try index.get("id", equals: "nope") == nil)
        }
        // ---
        let index = try Index.inMemory(schema: schema)      // not persisted
        // ---
        #expect(index.documentCount == 0)
        #expect {
            try Index(path: url, schema: SchemaBuilder().addTextField("other").build())
        } throws: { ($0 as? IndexError)?.code == .schemaMismatch }
        #expect(try Index(path: url, schema: schema).documentCount == 2, "reopening with the same schema")
    }

    @Test func reloadOnCommit() async throws {
        let folder = TemporaryFolder()
        let url = folder.url
        let schema = catalogueSchema()
        // ---
        let index = try Index(path: url, schema: schema, reloadPolicy: .onCommit)
        // ---
        let writer = try index.writer()
        try writer.addDocument(["title": "near real time"])
        try writer.commit()
        var waited = 0
        while index.documentCount == 0 && waited < 500 {
            try await Task.sleep(nanoseconds: 10_000_000)
            waited += 1
        }
        #expect(index.documentCount == 1, "visible without reload()")
        let other = try Index(path: url, schema: schema, reloadPolicy: .manual)
        #expect(other.documentCount == 1)
    }

    @Test func writing() throws {
        let index = try Index.inMemory(schema: catalogueSchema())
        let someEncodableValue = Card(id: "c1", title: "Encoded", tags: ["x", "y"])
        // ---
        let writer = try index.writer(heapSize: 0)          // 0 → 50 MB indexing budget
        try writer.addDocument(["title": "Hi", "tags": ["a", "b"], "year": 2024])
        try writer.addDocument(someEncodableValue)          // any Encodable
        try writer.addDocument(json: #"{"title":"Hi"}"#)    // raw JSON
        let opstamp = try writer.commit()                   // durable; reload to search
        try writer.commitAndReload()                         // commit + index.reload()
        try writer.rollback()                                // discard uncommitted ops
        // ---
        #expect(opstamp == 3)
        #expect(index.documentCount == 3)
        #expect(try index.count("hi") == 2)
        #expect(try index.get("id", equals: "c1")?["tags"] == [.string("x"), .string("y")])
        try writer.addDocument(["id": "abc123", "status": "draft", "year": 1900])
        try writer.addDocument(["id": "a", "year": 1800])
        try writer.addDocument(["id": "b", "year": 1800])
        try writer.addDocument(["id": "keep", "status": "final", "year": 2000])
        try writer.commitAndReload()
        #expect(index.documentCount == 7)
        // ---
        try writer.deleteDocuments(field: "id", equals: "abc123")            // delete by term
        try writer.deleteDocuments(field: "id", equalsAnyOf: ["a", "b"])     // multi-term delete
        try writer.deleteDocuments(matching: .range("year", 1900...1950))    // delete by query
        // or, with commit + reload in one step:
        try index.delete(matching: .term("status", "draft"))
        // ---
        #expect(index.documentCount == 4, "the helper's commit publishes the open writer's deletes too")
        #expect(try index.get("id", equals: "keep") != nil)
        // ---
        try writer.deleteAllDocuments()
        // ---
        try writer.commitAndReload()
        #expect(index.documentCount == 0)
    }

    @Test func upsertAndGet() throws {
        let schema = catalogueSchema()
        let index = try Index.inMemory(schema: schema)
        let cards = try SearchCollection<Card>(index: index)
        var card = Card(id: "k1", title: "First", tags: ["a"])
        try index.upsert(card, idField: "id", id: card.id)
        card = Card(id: "k1", title: "Second", tags: ["b", "c"])
        // ---
        try index.upsert(card, idField: "id", id: card.id)   // delete-by-term + add
        // ---
        #expect(index.documentCount == 1)
        do {
            // ---
            let hit = try index.get("id", equals: card.id)        // SearchHit?
            // ---
            #expect(hit?.string("title") == "Second")
            #expect(hit?.score == 0)
        }
        do {
            // ---
            let card = try cards.get(idField: "id", id: card.id)  // typed, on a collection
            // ---
            #expect(card == Card(id: "k1", title: "Second", tags: ["b", "c"]))
        }
    }

    /// An index of four books and cards for the query snippets.
    func library() throws -> Index {
        let index = try Index.inMemory(schema: catalogueSchema())
        let writer = try index.writer()
        let created = { (year: Int) in Date(timeIntervalSince1970: Double(year - 1970) * 365.25 * 86_400) }
        try writer.addDocument([
            "id": "1", "slug": "old-man", "title": "The Old Man and the Sea", "tag": "book", "tags": ["book", "classic"],
            "year": 1952, "status": "final", "body": "an old man fished alone in a skiff in the sea",
            "created": DocumentValue(created(1952)), "price": 9.5, "code": "AB-1",
        ])
        try writer.addDocument([
            "id": "2", "slug": "moby-dick", "title": "Moby Dick", "tag": "book", "tags": ["book"], "year": 1851,
            "status": "final", "body": "a whale hunted across the sea by an old captain",
            "created": DocumentValue(created(1851)), "code": "AB-2",
        ])
        try writer.addDocument([
            "id": "3", "slug": "dune", "title": "Dune", "tag": "book", "tags": ["scifi"], "year": 1965,
            "status": "draft", "body": "sand worms and spice on a desert planet", "created": DocumentValue(created(1965)),
            "price": 12,
        ])
        try writer.addDocument([
            "id": "4", "slug": "dune-film", "title": "Dune, the film", "tag": "film", "year": 2021, "status": "final",
            "body": "a film of the desert planet", "created": DocumentValue(created(2021)),
        ])
        try writer.commitAndReload()
        return index
    }

    @Test func queryingAndResults() throws {
        let index = try library()
        // ---
        try index.search("dune", boosts: ["title": 2.0, "body": 0.5])
        // ---
        #expect(try index.search("dune", boosts: ["title": 2.0, "body": 0.5]).map { $0.string("id") } == ["3", "4"])
        // ---
        try index.search("dune", orderBy: .descending("created"))        // newest first
        try index.search(.term("tag", "book"), orderBy: .ascending("year"))
        // ---
        #expect(try index.search("dune", orderBy: .descending("created")).map { $0.string("id") } == ["4", "3"])
        #expect(try index.search(.term("tag", "book"), orderBy: .ascending("year")).map { $0.uint("year") } == [1851, 1952, 1965])
        #expect(try index.search("title:whale").isEmpty && index.search("body:whale").count == 1)
        #expect(try index.search(#""old man""#).count == 1)
        #expect(try index.search("title:sea AND body:fished").count == 1)
        #expect(try index.search("year:[1900 TO 2000]").count == 2)
        #expect(try index.search("created:[1950-01-01T00:00:00Z TO 1970-01-01T00:00:00Z]").count == 2)

        let hit = try #require(index.search("old man sea").first)
        // ---
        hit.score                 // Float relevance score (higher = better)
        hit.string("title")       // first String value, or nil
        hit.int("year")           // first Int64, or nil
        hit.uint("count")         // first UInt64, or nil (full u64 range, exact)
        hit.double("rating")
        hit.bool("active")
        hit["tags"]               // [FieldValue] – all values for a field
        // ---
        #expect(hit.score > 0)
        #expect(hit.string("title") == "The Old Man and the Sea")
        #expect(hit.int("year") == 1952)
        #expect(hit.uint("count") == nil)
        #expect(hit["tags"] == [.string("book"), .string("classic")])
    }

    @Test func integersRoundTripExactly() throws {
        let index = try Index.inMemory(
            schema: SchemaBuilder().addU64Field("big", stored: true).addI64Field("small", stored: true).build())
        let writer = try index.writer()
        try writer.addDocument(["big": FieldValue.unsigned(.max), "small": FieldValue.int(.min)])
        try writer.commitAndReload()
        let hit = try #require(index.search(.matchAll).first)
        #expect(hit.uint("big") == .max)
        #expect(hit.int("small") == .min)
        #expect(hit.int("big") == nil, "UInt64.max does not fit an Int64")
        #expect(hit["big"] == [.unsigned(.max)])
    }

    @Test func structuredQueries() throws {
        let index = try library()
        let collection = try SearchCollection<Book>(index: index)
        let searchField = SearchField(text: "old")
        var seen: [String] = []
        // ---
        let q: Query =
            (.term("tag", "book") && .range("year", 1900...2000))
                .excluding(.term("status", "draft"))

        for hit in try index.search(q) { seen.append(hit.string("id") ?? "") }  // [SearchHit]
        let books = try index.search(q, as: Book.self)        // typed
        let scored = try collection.searchScored(q)           // [(score, Book)]
        // ---
        #expect(seen == ["1"])
        #expect(books == [Book(title: "The Old Man and the Sea", year: 1952)])
        #expect(scored.map(\.model) == books && scored[0].score > 0)
        // ---
        let q2: Query = .parsed(searchField.text) && .term("tag", "book")
        try index.search(q2)
        // ---
        #expect(try Set(index.search(q2).compactMap { $0.string("id") }) == ["1", "2"])

        let year = 1952
        let price = 9.5
        let when = Date(timeIntervalSince1970: Double(1952 - 1970) * 365.25 * 86_400)
        #expect(try index.count(.term("year", year)) == 1)
        #expect(try index.count(.term("year", UInt64(1851))) == 1)
        #expect(try index.count(.term("price", price)) == 1)
        #expect(try index.count(.term("created", date: when)) == 1)
        #expect(try index.count(.phrase("body", ["old", "captain"], slop: 0)) == 1)
        #expect(try index.count(.phrase("body", ["old", "fished"], slop: 1)) == 1)
        #expect(try index.count(.fuzzy("title", "dume", distance: 1)) == 2)
        #expect(try index.count(.dateRange("created", from: when, to: nil)) == 3)
        #expect(try index.count(.anyOf([.term("tag", "film"), .term("status", "draft")], minimumShouldMatch: 2)) == 0)
        #expect(try index.count(.allOf([.term("tag", "book"), .term("status", "final")])) == 2)
        #expect(try index.count(.term("tag", "film") || .term("tag", "book")) == 4)
        #expect(try index.search(.term("title", "dune").boosted(by: 3)).first.map(\.score) ?? 0 > 0)
        #expect(try index.count(.matchAll) == 4)
        #expect(try index.count(.parsed("dune", fields: ["title"])) == 2)
    }

    @Test func typeahead() throws {
        let index = try library()
        // ---
        try index.search(.prefix("title", "mob"))                 // exact prefix
        try index.search(.autocomplete("title", "mopy"))          // typo-tolerant prefix
        try index.search(.regex("title", "m(oby|ice).*"))         // regex over tokens
        try index.search(.phrasePrefix("title", ["old", "ma"]))   // multi-word typeahead
        // ---
        #expect(try index.search(.prefix("title", "mob")).map { $0.string("id") } == ["2"])
        #expect(try index.search(.autocomplete("title", "mopy")).map { $0.string("id") } == ["2"])
        #expect(try index.search(.regex("title", "m(oby|ice).*")).map { $0.string("id") } == ["2"])
        #expect(try index.search(.phrasePrefix("title", ["old", "ma"])).map { $0.string("id") } == ["1"])
    }

    @Test func wildcardExistsMoreLikeThis() throws {
        let index = try library()
        let article = Article(slug: "old-man", title: "The Old Man and the Sea", body: "old man sea skiff")
        // ---
        try index.search(.wildcard("code", "AB-*"))     // whole-value match on a string field
        try index.search(.wildcard("title", "*fish"))   // token suffix on a text field
        // ---
        #expect(try index.search(.wildcard("code", "AB-*")).count == 2)
        #expect(try index.search(.wildcard("body", "*ished")).count == 1)
        // ---
        try index.search(.exists("price"))                          // has a price
        try index.search(.matchAll.excluding(.exists("price")))     // price is missing
        // ---
        #expect(try index.search(.exists("price")).compactMap { $0.string("id") }.sorted() == ["1", "3"])
        #expect(try index.search(.matchAll.excluding(.exists("price"))).compactMap { $0.string("id") }.sorted() == ["2", "4"])
        // ---
        try index.search(.moreLikeThis("body", article.body), limit: 5)

        // Or relative to a document already in the index (reads its stored fields and
        // excludes the source itself):
        try index.moreLikeThis(idField: "slug", id: article.slug, fields: ["title", "body"], limit: 5)
        // ---
        let loose = MoreLikeThisOptions(minTermFrequency: 1, minDocFrequency: 1)
        let related = try index.moreLikeThis(idField: "slug", id: article.slug, fields: ["body"], limit: 5, options: loose)
        #expect(!related.isEmpty && !related.contains { $0.string("slug") == "old-man" })
        #expect(try index.search(.moreLikeThis("body", "old old sea sea", loose)).first?.string("id") != nil)
        let likeSea: Query = .moreLikeThis("body", "old old sea sea", loose)
        #expect(try index.count(likeSea) == index.search(likeSea).totalCount, "Loupe counts more-like-this too")
    }

    @Test func facetCountsAndAggregations() throws {
        let index = try library()
        // ---
        let tags = try index.termCounts("tag", matching: .parsed("old man"))
        // [FacetCount(value: .string("book"), count: 2),
        //  FacetCount(value: .string("classic"), count: 1)]
        // ---
        #expect(tags == [FacetCount(value: .string("book"), count: 2)])
        #expect(try index.termCounts("tags", matching: .parsed("old man")) == [
            FacetCount(value: .string("book"), count: 2), FacetCount(value: .string("classic"), count: 1),
        ])
        // ---
        let json = try index.aggregate(#"{"avg_year": {"avg": {"field": "year"}}}"#)
        // ---
        #expect(json == #"{"avg_year":{"value":1947.25}}"#)
    }

    @Test func maintenanceAndStats() throws {
        let index = try library()
        let writer = try index.writer()
        writer.mergePolicy = .never
        for i in 0..<3 {
            try writer.addDocument(["id": "extra\(i)", "title": "extra"])
            try writer.commit()
        }
        try writer.deleteDocuments(field: "id", equals: "1")
        try writer.commitAndReload()
        // ---
        let s = try index.stats()
        s.documentCount   // live, searchable documents
        s.deletedCount    // tombstoned (deleted/updated), not yet reclaimed
        s.maxDoc          // live + deleted
        s.segmentCount    // many small segments slow searches
        s.segments        // per-segment [id, documentCount, deletedCount, maxDoc]
        // ---
        #expect(s.documentCount == 6 && s.deletedCount == 1 && s.maxDoc == 7 && s.segmentCount == 4)
        #expect(s.segments.map(\.documentCount).reduce(0, +) == 6)
        // ---
        if s.deletedCount > s.documentCount / 2 || s.segmentCount > 16 {
            try index.optimize()        // compact + reclaim space
        }
        try index.garbageCollect()      // reclaim files left by merges/deletes
        // ---
        try writer.merge()
        try writer.garbageCollect()
        try index.reload()
        #expect(index.stats().segmentCount == 1 && index.stats().deletedCount == 0)
        try writer.close()
        try index.optimize()
        #expect(index.documentCount == 6)
    }

    @Test func convenienceHelpers() throws {
        let index = try Index.inMemory(
            schema: SchemaBuilder().addTextField("title", stored: true).addU64Field("year", stored: true, fast: true)
                .build())
        let book = Book(title: "Dune Messiah", year: 1969)
        let book1 = Book(title: "Children of Dune", year: 1976)
        let book2 = Book(title: "God Emperor of Dune", year: 1981)
        // ---
        // Scoped writer — auto commit + reload; nothing is committed if the body throws.
        try index.write { w in
            try w.addDocument(["title": "Dune", "year": 1965])
        }

        // One-shot add (dictionary or Encodable), single or batch.
        try index.add(["title": "Dune", "year": 1965])
        try index.add(book)                          // any Encodable
        try index.add(contentsOf: [book1, book2])    // one commit

        // Typed search — decode hits straight into your model.
        let books = try index.search("dune", as: Book.self)   // [Book]
        // ---
        #expect(books.count == 5)
        #expect(Set(books.map(\.title)) == ["Dune", "Dune Messiah", "Children of Dune", "God Emperor of Dune"])
        #expect(try index.search("messiah").first?.decode(Book.self) == book)
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try index.write { w in
                try w.addDocument(["title": "never"])
                throw Failure()
            }
        }
        #expect(try index.count("never") == 0)
    }

    @Test func typedCollection() throws {
        let folder = TemporaryFolder()
        let url = folder.url
        let book1 = Book(title: "Children of Dune", year: 1976)
        let book2 = Book(title: "Emma", year: 1815)
        // ---
        let books = try SearchCollection<Book>(path: url) { s in
            s.addTextField("title", stored: true)
            s.addU64Field("year", stored: true, fast: true)
        }                                            // or .inMemory(schema:) / (index:)

        try books.add(Book(title: "Dune", year: 1965))
        try books.add(contentsOf: [book1, book2])

        books.count                                  // searchable document count
        let results = try books.search("dune")       // [Book]
        let scored  = try books.searchScored("dune") // [(score: Float, model: Book)]
        try books.removeAll()
        // ---
        #expect(results.count == 2 && scored.count == 2)
        #expect(scored[0].model == Book(title: "Dune", year: 1965), "the shorter title ranks first")
        #expect(books.count == 0)
        #expect(books.index.documentCount == 0)
        let memory = try SearchCollection<Book>.inMemory(schema: SchemaBuilder().addTextField("title", stored: true).build())
        #expect {
            try memory.add(Book(title: "Dune", year: 1965))
        } throws: { error in
            "\(error)".contains("year")
        }
    }
}
