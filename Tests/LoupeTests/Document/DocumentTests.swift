import Foundation
import Loupe
import LoupeAnalysis
import TestSupport
import Testing

@Suite struct DocumentTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("title", stored: true)
        .addStringField("tags", stored: true)
        .addU64Field("year", stored: true, fast: true)
        .addF64Field("rating", stored: true, fast: true)
        .addBoolField("seen", stored: true)
        .addDateField("released", stored: true, fast: true)
        .addI64Field("delta", stored: true)
        .build(defaultFields: ["title"], idField: "id")

    private func expectInvalid(_ json: String, field: String?, offset: Int? = nil) throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        do {
            try writer.addJSON(json)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.code == .invalidDocument, "\(json)")
            #expect(error.context.field == field, "\(json): \(error)")
            if let offset { #expect(error.context.byteOffset == offset, "\(json): \(error)") }
        }
    }

    @Test func badDocumentsAreTypedErrorsNamingTheField() throws {
        try expectInvalid(#"{"titel": "x"}"#, field: "titel")
        try expectInvalid(#"{"year": "1999"}"#, field: "year")
        try expectInvalid(#"{"year": -3}"#, field: "year")
        try expectInvalid(#"{"year": 1.5}"#, field: "year")
        try expectInvalid(#"{"released": "yesterday"}"#, field: "released")
        try expectInvalid(#"{"seen": 1}"#, field: "seen")
        try expectInvalid(#"{"tags": [["nested"]]}"#, field: "tags")
        try expectInvalid(#"{"title": "a",}"#, field: nil, offset: 14)
        try expectInvalid(#"["not", "an", "object"]"#, field: nil)
    }

    @Test func aRejectedDocumentLeavesCommittedDataAlone() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        try writer.addJSON(#"{"id": "a", "title": "kept"}"#)
        try writer.commitAndReload()
        #expect(throws: IndexError.self) { try writer.addJSON(#"{"id": "b", "year": "bad"}"#) }
        try writer.commitAndReload()
        #expect(index.documentCount == 1)
        #expect(try index.count(.term("title", "kept")) == 1)
    }

    @Test func storedValuesComeBackTyped() throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer()
        try writer.addJSON(
            #"{"id": "m1", "title": "Heat", "tags": ["crime", "drama"], "year": 1995, "rating": 8.3, "seen": true, "released": "1995-12-15T00:00:00Z", "delta": -7}"#
        )
        let date = Date(timeIntervalSince1970: 1_000_000_000)
        try writer.addDocument([
            "id": "m2", "title": "Ronin", "year": 1998, "rating": 7, "released": DocumentValue(date), "delta": 4,
        ])
        try writer.commitAndReload()
        let heat = try #require(try index.search(.term("id", "m1")).hits.first).document
        #expect(heat.string("title") == "Heat")
        #expect(heat["tags"] == [.text("crime"), .text("drama")])
        #expect(heat.uint("year") == 1995)
        #expect(heat.double("rating") == 8.3)
        #expect(heat.bool("seen") == true)
        #expect(heat.date("released") == Date(timeIntervalSince1970: 818_985_600))
        #expect(heat.int("delta") == -7)
        let ronin = try #require(try index.search(.term("id", "m2")).hits.first).document
        #expect(ronin.double("rating") == 7)
        #expect(ronin.date("released") == date)
        #expect(ronin["tags"].isEmpty)
        #expect(try index.count(.term("year", 1998)) == 1)
        #expect(try index.count(.term("released", .date(date))) == 1)
        #expect(try index.count(.term("rating", .f64(8.3))) == 1)
        #expect(try index.count(.term("seen", .bool(true))) == 1)
        #expect(try index.count(.term("delta", .i64(-7))) == 1)
    }

    @Test func multiValuedTextKeepsValuesApartForPhrases() throws {
        let schema = try SchemaBuilder().addTextField("body", stored: true).build(defaultFields: ["body"])
        let index = try Index.inMemory(schema: schema)
        let writer = try index.writer()
        try writer.addDocument(["body": ["new york", "city lights"]])
        try writer.commitAndReload()
        #expect(try index.count(.phrase(field: "body", terms: ["new", "york"], slop: 0)) == 1)
        #expect(
            try index.count(.phrase(field: "body", terms: ["york", "city"], slop: 0)) == 0, "no phrase across values")
        #expect(try index.count(index.parseQuery(#""city lights""#)) == 1)
        let stored = try index.search(.matchAll).hits[0].document
        #expect(stored["body"] == [.text("new york"), .text("city lights")])
    }

    @Test func customAnalyzersIndexAndParse() throws {
        let schema = try SchemaBuilder().addTextField("body", tokenizer: "folded").build(defaultFields: ["body"])
        let index = try Index.inMemory(schema: schema)
        index.registerAnalyzer(
            "folded", TextAnalyzer(tokenizer: SimpleTokenizer(), filters: [LowerCaser(), AsciiFoldingFilter()]))
        let writer = try index.writer()
        try writer.addDocument(["body": "Crème Brûlée"])
        try writer.commitAndReload()
        #expect(try index.count(index.parseQuery("creme brulee")) == 1)
        #expect(try index.count(.term("body", "brulee")) == 1)
    }

    @Test func schemaRoundTripsThroughJSON() throws {
        let again = try Schema(json: Self.schema.json)
        #expect(again == Self.schema)
        let corpus = try Schema(
            json:
                #"{"fields": {"title": {"type": "text"}, "n": {"type": "u64", "multi": false}}, "default_search_fields": ["title"]}"#
        )
        #expect(corpus.field(named: "n")?.fast == true)
        #expect(corpus.defaultFields == ["title"])
        #expect(throws: IndexError.self) { try Schema(json: #"{"fields": [{"name": "x", "type": "blob"}]}"#) }
        #expect(throws: IndexError.self) {
            try Schema(json: #"{"fields": [{"name": "x", "type": "text"}], "default_fields": ["y"]}"#)
        }
        #expect(try Schema(json: #"{"fields": [{"name": "x", "type": "string", "fast": true}]}"#).fields[0].fast)
        #expect(
            try Schema(json: #"{"fields": [{"name": "x", "type": "text", "fast": true, "tokenizer": "lowercase"}]}"#)
                .fields[0].fast)
        #expect(throws: IndexError.self) {
            try Schema(json: #"{"fields": [{"name": "x", "type": "text", "fast": true}]}"#)
        }
    }
}
