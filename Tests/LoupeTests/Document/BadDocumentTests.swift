import Loupe
import TestSupport
import Testing

/// Bad documents among good ones, through the Swift API: each bad one throws an `IndexError` that names what and
/// where, leaves no trace, and does not poison the writer; the commit holds exactly the good ones, with one
/// indexing thread or several.
@Suite struct BadDocumentTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("title", stored: true)
        .addU64Field("year", stored: true, fast: true)
        .addBoolField("seen")
        .build(defaultFields: ["title"], idField: "id")

    /// JSON lines, each with what must happen: nil for a good one, else the error's code and the field it names.
    static let lines: [(json: String, error: IndexError.Code?, field: String?)] = [
        (#"{"id": "a", "title": "first", "year": 1999}"#, nil, nil),
        (#"{"id": "b", "title": "wrong type", "year": "soon"}"#, .invalidDocument, "year"),
        (#"{"id": "c", "title": "negative", "year": -3}"#, .invalidDocument, "year"),
        (#"{"id": "d", "titel": "unknown field"}"#, .invalidDocument, "titel"),
        (#"{"id": "e", "title": "unclosed"#, .invalidDocument, nil),
        (#"["not", "an", "object"]"#, .invalidDocument, nil),
        (#"{"id": "f", "seen": 1}"#, .invalidDocument, "seen"),
        (#"{"id": "g", "title": "second", "year": 2001, "seen": true}"#, nil, nil),
        (#"{"id": "\#(String(repeating: "x", count: 70_000))"}"#, .limitExceeded, "id"),
        (#"{"id": "h", "year": 18446744073709551616}"#, .invalidDocument, "year"),
        (#"{"id": "i", "title": ["third", "and more"]}"#, nil, nil),
    ]

    @Test(arguments: [1, 2]) func badDocumentsThrowAndTheRestAreCommitted(threads: Int) throws {
        let index = try Index.inMemory(schema: Self.schema)
        let writer = try index.writer(memoryBudget: 2 << 20 * threads, threads: threads)
        for (i, line) in Self.lines.enumerated() {
            do {
                try writer.addJSON(line.json)
                #expect(line.error == nil, "line \(i) was accepted")
            } catch {
                #expect(error.code == line.error, "line \(i): \(error)")
                if let field = line.field { #expect(error.context.field == field, "line \(i): \(error)") }
                #expect(!error.message.isEmpty)
            }
        }
        #expect(throws: IndexError.self) { try writer.addDocument(["id": "j", "year": "later"]) }
        try writer.addDocument(["id": "k", "title": "after the bad ones", "year": 2020])
        try writer.commitAndReload()
        let ids = try index.search(.matchAll, limit: 20).hits.compactMap { $0.string("id") }.sorted()
        #expect(ids == ["a", "g", "i", "k"])
        #expect(try index.count(.parsed("year:[1990 TO 2030]")) == 3, "no refused document left a fast value")
        #expect(index.verify { Issue.record("\($0)") } == 0)
    }
}
