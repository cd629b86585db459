import Loupe

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The small index the `query` and `aggregation` targets search, and whose files the `segment-…` targets damage:
/// every field type, stored, indexed and fast, over 140 documents (so that "alpha", in every title, fills a
/// whole 128-document postings block).
enum FuzzIndex {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true, fast: true)
        .addTextField("title", stored: true)
        .addTextField("body", stored: true, tokenizer: .english)
        .addTextField("tag", stored: true, tokenizer: .raw, fast: true)
        .addTextField("notes", record: .freq)
        .addStringField("genre", stored: true, fast: true)
        .addU64Field("year", stored: true, fast: true)
        .addI64Field("delta", stored: true, fast: true)
        .addF64Field("rating", stored: true, fast: true)
        .addDateField("released", stored: true, fast: true)
        .addBoolField("classic", stored: true, fast: true)
        .build(defaultFields: ["title", "body"], idField: "id")

    static let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "théta", "日本", "running"]

    /// The index of `query` and `aggregation`: two segments, a document deleted from the first.
    static let shared: Index = {
        let index = try! Index.inMemory(schema: schema)
        try! fill(index, commitAt: [70])
        return index
    }()

    /// Adds the documents to `index`, committing after each document number of `commitAt` and at the end, then
    /// deletes document `d7`.
    static func fill(_ index: Index, commitAt: Set<Int>) throws(IndexError) {
        let writer = try index.writer()
        for i in 0..<140 {
            let body = (0..<(3 + i % 9)).map { words[(i * 7 + $0 * $0) % words.count] }.joined(separator: " ")
            try writer.addDocument([
                "id": "d\(i)", "title": DocumentValue(.text("alpha \(words[i % words.count]) title \(i)")),
                "body": DocumentValue(.text(body)), "tag": DocumentValue(.text(["Red", "green", "Blue"][i % 3])),
                "notes": DocumentValue(.text(words[i % 4])),
                "genre": DocumentValue((0..<(i % 3)).map { .text(words[(i + $0) % 5]) }),
                "year": DocumentValue(.u64(UInt64(1990 + i % 30))), "delta": DocumentValue(.i64(Int64(i % 11) - 5)),
                "rating": DocumentValue(i % 6 == 0 ? [] : [.f64(Double(i % 10) / 2)]),
                "released": DocumentValue(.date(Date(timeIntervalSince1970: Double(i) * 86_400 * 17))),
                "classic": DocumentValue(.bool(i % 4 == 0)),
            ])
            if commitAt.contains(i) { try writer.commit() }
        }
        try writer.commit()
        try writer.deleteDocuments(field: "id", equals: "d7")
        try writer.commitAndReload()
        try writer.close()
    }
}
