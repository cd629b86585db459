import Foundation
import Loupe
import TestSupport
import Testing

/// Codable documents: `DocumentEncoder`, `DocumentDecoder`, their public entry points and `SearchCollection`.
@Suite struct CodableTests {
    /// A model with every kind of value a document holds.
    struct Everything: Codable, Equatable {
        var id: String
        var title: String
        var count: Int
        var delta: Int64
        var big: UInt64
        var rating: Double
        var seen: Bool
        var released: Date
        var tags: [String]
        var subtitle: String?
        var scores: [Int]
    }

    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("title", stored: true)
        .addI64Field("count", stored: true)
        .addI64Field("delta", stored: true, fast: true)
        .addU64Field("big", stored: true)
        .addF64Field("rating", stored: true)
        .addBoolField("seen", stored: true)
        .addDateField("released", stored: true)
        .addStringField("tags", stored: true)
        .addTextField("subtitle", stored: true)
        .addI64Field("scores", stored: true)
        .build(defaultFields: ["title"], idField: "id")

    static let sample = Everything(
        id: "e1", title: "Every value", count: -42, delta: Int64.min, big: UInt64.max, rating: 8.25, seen: true,
        released: Date(timeIntervalSince1970: 1_700_000_000.123456), tags: ["a", "b", "c"], subtitle: nil,
        scores: [])

    /// Adds `values`, commits, and returns the index.
    private func indexed<T: Encodable>(_ values: [T], schema: Schema = Self.schema) throws -> Index {
        let index = try Index.inMemory(schema: schema)
        let writer = try index.writer()
        for value in values { try writer.addDocument(value) }
        try writer.commitAndReload()
        return index
    }

    private func onlyHit(_ index: Index) throws -> SearchHit {
        let hits = try index.search(.matchAll, limit: 10).hits
        try #require(hits.count == 1)
        return hits[0]
    }

    /// The `.invalidDocument` error `body` throws.
    private func invalidDocument(_ body: () throws(IndexError) -> Void) -> IndexError? {
        do {
            try body()
            Issue.record("no error thrown")
            return nil
        } catch {
            #expect(error.code == .invalidDocument, "\(error)")
            return error
        }
    }

    // MARK: Round trips

    @Test func everyValueKindRoundTrips() throws {
        var other = Self.sample
        other.id = "e2"
        other.subtitle = "with a subtitle"
        other.scores = [3]
        other.tags = ["only"]
        other.big = 0
        let index = try indexed([Self.sample, other])
        for expected in [Self.sample, other] {
            let stored = try #require(try index.get("id", equals: expected.id))
            #expect(try stored.decode(Everything.self) == expected)
        }
        let hit = try #require(try index.search(.term("id", "e1")).hits.first)
        #expect(try hit.decode() == Self.sample)
        // The stored values carry their field's type: UInt64.max is not clipped, the date keeps its microseconds.
        let stored = try #require(try index.get("id", equals: "e1"))
        #expect(stored["big"] == [.u64(UInt64.max)])
        #expect(stored["tags"] == ["a", "b", "c"])
        #expect(stored["subtitle"].isEmpty)
        #expect(
            stored.date("released").map { ($0.timeIntervalSince1970 * 1_000_000).rounded() } == 1_700_000_000_123_456)
    }

    @Test func theEncoderMakesTheDocumentAWriterWouldBeGiven() throws {
        let document = try DocumentEncoder().encode(Self.sample)
        var expected = Document()
        expected.add("id", "e1")
        expected.add("title", "Every value")
        expected.add("count", .i64(-42))
        expected.add("delta", .i64(Int64.min))
        expected.add("big", .u64(UInt64.max))
        expected.add("rating", .f64(8.25))
        expected.add("seen", .bool(true))
        expected.add("released", .date(Self.sample.released))
        expected.add("tags", ["a", "b", "c"])
        expected.add("scores", [])
        #expect(document == expected)
    }

    @Test func scalarsOfEveryWidthAndFoundationValues() throws {
        struct Widths: Codable, Equatable {
            var i8: Int8, i16: Int16, i32: Int32, u8: UInt8, u16: UInt16, u32: UInt32, u: UInt, f: Float
            var url: URL, uuid: UUID, kind: Kind
            var when: [Date]
            enum Kind: String, Codable { case book, film }
        }
        let value = Widths(
            i8: -8, i16: -16, i32: -32, u8: 8, u16: 16, u32: 32, u: 64, f: 0.5,
            url: URL(string: "https://example.com/a?b=c")!,
            uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, kind: .film,
            when: [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 86_400.5)])
        let document = try DocumentEncoder().encode(value)
        #expect(document["i8"] == [.i64(-8)])
        #expect(document["u32"] == [.u64(32)])
        #expect(document["f"] == [.f64(0.5)])
        #expect(document["url"] == ["https://example.com/a?b=c"])
        #expect(document["uuid"] == ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F"])
        #expect(document["kind"] == ["film"])
        #expect(document["when"] == [.date(value.when[0]), .date(value.when[1])])
        let schema = SchemaBuilder()
            .addI64Field("i8", stored: true).addI64Field("i16", stored: true).addI64Field("i32", stored: true)
            .addU64Field("u8", stored: true).addU64Field("u16", stored: true).addU64Field("u32", stored: true)
            .addU64Field("u", stored: true).addF64Field("f", stored: true).addStringField("url", stored: true)
            .addStringField("uuid", stored: true).addStringField("kind", stored: true)
            .addDateField("when", stored: true)
            .build()
        #expect(try onlyHit(indexed([value], schema: schema)).decode() == value)
    }

    @Test func absentValuesDecodeAsNilAndEmptyArrays() throws {
        struct Sparse: Codable { var id: String }
        struct Full: Codable, Equatable {
            var id: String
            var subtitle: String?
            var scores: [Int]
            var tags: [String]?
        }
        let index = try indexed([Sparse(id: "s")])
        #expect(try onlyHit(index).decode() == Full(id: "s", subtitle: nil, scores: [], tags: nil))
    }

    @Test func scalarsReadTheFirstValueAndArraysReadOneValueToo() throws {
        struct One: Codable {
            var id: String
            var tags: String?
            var scores: [Int]
        }
        let index = try indexed([Self.sample])
        var stored = try #require(try index.get("id", equals: "e1"))
        let one = try stored.decode(One.self)
        #expect(one.tags == "a")
        #expect(one.scores == [])
        let writer = try index.writer()
        try writer.addDocument(["id": "x", "scores": 7])
        try writer.commitAndReload()
        stored = try #require(try index.get("id", equals: "x"))
        #expect(try stored.decode(One.self).scores == [7])
    }

    @Test func numbersConvertWhenExact() throws {
        struct Narrow: Codable {
            var big: Int?
            var count: UInt8?
            var rating: Float
            var delta: Double
        }
        let schema = SchemaBuilder()
            .addU64Field("big", stored: true).addI64Field("count", stored: true)
            .addF64Field("rating", stored: true).addI64Field("delta", stored: true)
            .build()
        let index = try indexed([["big": 5, "count": 200, "rating": 2, "delta": -3] as [String: Int]], schema: schema)
        let narrow = try onlyHit(index).decode(Narrow.self)
        #expect(narrow.big == 5)
        #expect(narrow.count == 200)
        #expect(narrow.rating == 2)
        #expect(narrow.delta == -3)
        // A u64 beyond Int64, or an i64 beyond UInt8, does not fit.
        let wide = try onlyHit(indexed([["big": UInt64.max]], schema: schema))
        let error = invalidDocument { () throws(IndexError) in _ = try wide.decode(Narrow.self) }
        #expect(error?.message.contains("Narrow.big") == true, "\(String(describing: error))")
        #expect(error?.context.field == "big")
    }

    @Test func datesDecodeFromRFC3339Text() throws {
        struct Event: Codable { var when: Date }
        let schema = SchemaBuilder().addStringField("when", stored: true).build()
        let index = try indexed([["when": "2020-01-02T03:04:05.123456Z"]], schema: schema)
        let event = try onlyHit(index).decode(Event.self)
        #expect((event.when.timeIntervalSince1970 * 1_000_000).rounded() == 1_577_934_245_123_456)
    }

    // MARK: Dictionaries

    @Test func dictionariesGiveTheDocumentOfTheirLiteral() throws {
        let encoder = DocumentEncoder()
        #expect(try encoder.encode(["title": "Hi"]) == ["title": "Hi"])
        #expect(try encoder.encode(["year": 2024]) == ["year": 2024])
        #expect(try encoder.encode(["year": UInt64(2024)]) == ["year": DocumentValue(.u64(2024))])
        #expect(try encoder.encode(["tags": ["a", "b"]]) == ["tags": ["a", "b"]])
        // Several keys come out sorted, as `Document([String: DocumentValue])` orders them.
        let several = ["title": "Hi", "id": "x", "body": "text", "zeta": "z"]
        #expect(try encoder.encode(several) == Document(several.mapValues { DocumentValue(.text($0)) }))
    }

    @Test func aHomogeneousLiteralIndexesAsTheDocumentLiteralDoes() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        try writer.addDocument(["id": "enc", "tags": "x"]) // [String: String]: the Encodable overload
        try writer.addDocument(["id": "doc", "tags": "x"] as Document)
        try writer.addDocument(["tags": ["p", "q"]]) // [String: [String]]
        try writer.addDocument(["tags": ["p", "q"]] as Document)
        try writer.addDocument(json: #"{"id": "json", "count": 3}"#)
        try writer.commitAndReload()
        let enc = try #require(try index.get("id", equals: "enc"))
        let doc = try #require(try index.get("id", equals: "doc"))
        #expect(enc["tags"] == doc["tags"])
        #expect(try index.count(.term("tags", "p")) == 2)
        #expect(try index.get("id", equals: "json")?.int("count") == 3)
        let all = try index.search(.matchAll, limit: 10).hits
        #expect(all.filter { $0.document["tags"] == ["p", "q"] }.count == 2)
        // And a stored document decodes back into a dictionary.
        let dictionary = try enc.decode([String: String].self)
        #expect(dictionary == ["id": "enc", "tags": "x"])
        #expect(
            try all.first { $0.document["tags"].count == 2 }?.decode([String: [String]].self) == ["tags": ["p", "q"]])
    }

    // MARK: Errors

    @Test func aNestedObjectIsRefusedNamingItsPath() {
        struct Author: Codable { var name: String }
        struct Book: Codable {
            var title: String
            var author: Author
        }
        let error = invalidDocument { () throws(IndexError) in
            _ = try DocumentEncoder().encode(Book(title: "Dune", author: Author(name: "Herbert")))
        }
        #expect(error?.message.contains("Book.author.name") == true, "\(String(describing: error))")
        #expect(error?.message.contains("nested object") == true)
        #expect(error?.context.field == "author")

        struct Empty: Codable {}
        struct Shelf: Codable {
            var box: Empty
            var books: [Author]
        }
        let empty = invalidDocument { () throws(IndexError) in
            _ = try DocumentEncoder().encode(Shelf(box: Empty(), books: []))
        }
        #expect(empty?.message.hasPrefix("Shelf.box:") == true, "\(String(describing: empty))")
        let inArray = invalidDocument { () throws(IndexError) in
            _ = try DocumentEncoder().encode(["books": [Author(name: "a")]])
        }
        #expect(inArray?.context.field == "books", "\(String(describing: inArray))")
        #expect(inArray?.message.contains("books[0].name") == true, "\(String(describing: inArray))")
    }

    @Test func arraysOfArraysAndTopLevelValuesAreRefused() throws {
        struct Matrix: Codable { var rows: [[Int]] }
        let nested = invalidDocument { () throws(IndexError) in
            _ = try DocumentEncoder().encode(Matrix(rows: [[1, 2]]))
        }
        #expect(nested?.message.contains("Matrix.rows[0]") == true, "\(String(describing: nested))")
        #expect(nested?.message.contains("array of arrays") == true)
        #expect(nested?.context.field == "rows")
        for refused in [
            invalidDocument { () throws(IndexError) in _ = try DocumentEncoder().encode([1, 2]) },
            invalidDocument { () throws(IndexError) in _ = try DocumentEncoder().encode([Int]()) },
            invalidDocument { () throws(IndexError) in _ = try DocumentEncoder().encode("text") },
            invalidDocument { () throws(IndexError) in _ = try DocumentEncoder().encode(Int?.none) },
        ] {
            #expect(refused?.message.contains("keyed container") == true, "\(String(describing: refused))")
        }
        // A wrapper of a keyed value is transparent.
        #expect(try DocumentEncoder().encode(Optional(["title": "Hi"])) == ["title": "Hi"])
    }

    @Test func aPropertyTheSchemaLacksIsNamed() throws {
        struct Book: Codable {
            var id: String
            var isbn: String
        }
        let writer = try Index.inMemory(schema: Self.schema).writer()
        let error = invalidDocument { () throws(IndexError) in try writer.addDocument(Book(id: "b", isbn: "978")) }
        #expect(error?.context.field == "isbn")
        #expect(error?.message.contains("Book.isbn") == true, "\(String(describing: error))")
        // A homogeneous literal is a [String: String], whose unknown key is named the same way.
        let literal = invalidDocument { () throws(IndexError) in try writer.addDocument(["id": "b", "isbn": "978"]) }
        #expect(literal?.context.field == "isbn")
        #expect(literal?.message.contains("Dictionary<String, String>.isbn") == true, "\(String(describing: literal))")
        // A value the field's type refuses is named by the writer.
        let negative = invalidDocument { () throws(IndexError) in try writer.addDocument(["big": -1]) }
        #expect(negative?.context.field == "big")
        #expect(writer.uncommittedDocuments == 0)
    }

    @Test func aMissingScalarIsNamedWithItsModel() throws {
        struct Book: Codable {
            var id: String
            var year: Int
        }
        let schema = SchemaBuilder().addStringField("id", stored: true).addI64Field("year").build()
        let hit = try onlyHit(indexed([["id": "b"]], schema: schema))
        let error = invalidDocument { () throws(IndexError) in _ = try hit.decode(Book.self) }
        #expect(
            error?.message.hasPrefix("Book.year: the document has no stored value of 'year' (is the field stored?)")
                == true, "\(String(describing: error))")
        #expect(error?.context.field == "year")
    }

    @Test func aTypeMismatchIsNamedWithItsModel() throws {
        struct Wrong: Codable {
            var id: Int
            var tags: [Bool]
        }
        let index = try indexed([Self.sample])
        let stored = try #require(try index.get("id", equals: "e1"))
        let error = invalidDocument { () throws(IndexError) in _ = try stored.decode(Wrong.self) }
        #expect(error?.message.hasPrefix("Wrong.id: expected an integer") == true, "\(String(describing: error))")
        #expect(error?.message.contains("text \"e1\"") == true)
        #expect(error?.context.field == "id")
        struct WrongElement: Codable { var tags: [Bool] }
        let element = invalidDocument { () throws(IndexError) in _ = try stored.decode(WrongElement.self) }
        #expect(
            element?.message.hasPrefix("WrongElement.tags[0]: expected a bool") == true,
            "\(String(describing: element))")
        struct Nested: Codable {
            struct Inner: Codable { var a: Int }
            var title: Inner
        }
        let nested = invalidDocument { () throws(IndexError) in _ = try stored.decode(Nested.self) }
        #expect(nested?.message.hasPrefix("Nested.title: a nested object") == true, "\(String(describing: nested))")
    }

    // MARK: Index helpers

    @Test func indexAddAndUpsertCommitAndReload() throws {
        let index = try Index.inMemory(schema: Self.schema)
        try index.add(Self.sample)
        #expect(index.documentCount == 1)
        var second = Self.sample
        second.id = "e2"
        var third = Self.sample
        third.id = "e3"
        try index.add(contentsOf: [second, third])
        #expect(index.documentCount == 3)
        third.title = "Replaced"
        try index.upsert(third, idField: "id", id: "e3")
        #expect(index.documentCount == 3)
        #expect(try index.get("id", equals: "e3")?.decode(Everything.self) == third)
        // A batch with one refused model commits none of them.
        struct Stray: Codable {
            var id: String
            var stray: Int
        }
        #expect(throws: IndexError.self) { try index.add(contentsOf: [Stray(id: "s1", stray: 1)]) }
        #expect(index.documentCount == 3)
    }

    @Test func typedSearchDecodesEveryHit() throws {
        var other = Self.sample
        other.id = "e2"
        other.title = "Another value"
        other.count = 7
        other.delta = 0
        let index = try indexed([other, Self.sample])
        #expect(try index.search("value", as: Everything.self, orderBy: .ascending("delta")) == [Self.sample, other])
        #expect(try index.search("another", as: Everything.self) == [other])
        #expect(try index.search(.term("id", "e1"), as: Everything.self, limit: 1) == [Self.sample])
        struct Wrong: Codable { var count: Bool }
        let error = invalidDocument { () throws(IndexError) in _ = try index.search("value", as: Wrong.self) }
        #expect(error?.message.hasPrefix("Wrong.count: expected a bool") == true, "\(String(describing: error))")
    }

    // MARK: SearchCollection

    struct Book: Codable, Equatable, Sendable {
        let id: String
        let title: String
        let year: UInt64
        var tags: [String] = []
    }

    private static func bookSchema(_ s: SchemaBuilder) {
        s.addStringField("id", stored: true)
        s.addTextField("title", stored: true)
        s.addU64Field("year", stored: true, fast: true)
        s.addStringField("tags", stored: true)
    }

    private func exercise(_ books: SearchCollection<Book>) throws {
        let dune = Book(id: "b1", title: "Dune", year: 1965, tags: ["sf"])
        let messiah = Book(id: "b2", title: "Dune Messiah", year: 1969)
        let sea = Book(id: "b3", title: "The Old Man and the Sea", year: 1952, tags: ["classic", "sea"])
        try books.add(dune)
        try books.add(contentsOf: [messiah, sea])
        #expect(books.count == 3)
        #expect(try books.search("dune").sorted { $0.id < $1.id } == [dune, messiah])
        #expect(try books.search("title:sea") == [sea])
        #expect(try books.search(.range("year", 1960...1970), limit: 1).count == 1)
        let scored = try books.searchScored("dune messiah")
        #expect(scored.map(\.model) == [messiah, dune])
        #expect(scored[0].score > scored[1].score)
        #expect(try books.searchScored(.term("tags", "sea")).map(\.model) == [sea])
        #expect(try books.get(idField: "id", id: "b3") == sea)
        #expect(try books.get(idField: "id", id: "nope") == nil)
        let revised = Book(id: "b2", title: "Dune Messiah (revised)", year: 1970)
        try books.upsert(revised, idField: "id", id: revised.id)
        #expect(books.count == 3)
        #expect(try books.get(idField: "id", id: "b2") == revised)
        #expect(try books.search("revised") == [revised])
        try books.removeAll()
        #expect(books.count == 0)
        #expect(try books.search("dune").isEmpty)
    }

    @Test func aCollectionInMemory() throws {
        let books = try SearchCollection<Book>.inMemory(Self.bookSchema)
        let sendable: any Sendable = books // Sendable because Book is
        #expect(sendable is SearchCollection<Book>)
        try exercise(books)
        let schema = try SchemaBuilder().addStringField("id", stored: true).addTextField("title", stored: true)
            .addU64Field("year", stored: true).addStringField("tags", stored: true).build(defaultFields: ["title"])
        try exercise(SearchCollection<Book>.inMemory(schema: schema))
        try exercise(SearchCollection<Book>(index: try .inMemory(schema: schema)))
    }

    @Test func aCollectionOnDiskPersists() throws {
        let tmp = TemporaryDirectory()
        let url = URL(fileURLWithPath: tmp.path).appendingPathComponent("books")
        do {
            let books = try SearchCollection<Book>(path: url, schema: Self.bookSchema)
            try exercise(books)
            try books.add(Book(id: "kept", title: "Kept", year: 2000))
        }
        let reopened = try SearchCollection<Book>(path: url.path, schema: Self.bookSchema)
        #expect(reopened.count == 1)
        #expect(try reopened.search("kept").map(\.id) == ["kept"])
        // The schema a collection was created with is checked when it is opened again.
        let mismatch = #expect(throws: IndexError.self) {
            _ = try SearchCollection<Book>(path: url) { s in s.addTextField("title", stored: true) }
        }
        #expect(mismatch?.code == .schemaMismatch)
    }

    @Test func aCollectionNamesAModelPropertyItsSchemaLacks() throws {
        let books = try SearchCollection<Book>.inMemory { s in
            s.addStringField("id", stored: true)
            s.addTextField("title", stored: true)
            s.addU64Field("year", stored: true)
        }
        let error = invalidDocument { () throws(IndexError) in
            try books.add(Book(id: "b", title: "t", year: 1, tags: ["x"]))
        }
        #expect(error?.context.field == "tags")
        #expect(error?.message.contains("Book.tags") == true, "\(String(describing: error))")
        #expect(books.count == 0)
        // A schema the builder could not refuse is refused when the collection opens.
        let twice = #expect(throws: IndexError.self) {
            _ = try SearchCollection<Book>.inMemory { s in
                s.addTextField("title")
                s.addTextField("title")
            }
        }
        #expect(twice?.code == .invalidArgument)
    }
}
