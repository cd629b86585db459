import Loupe
import Testing

/// Sloppy phrases against tantivy 0.27.0 (PyPI), which returned these documents for these queries on these eight
/// one-field documents. One deliberate difference: for three or more terms tantivy's answer depends on the terms'
/// document frequencies; Loupe applies the two-term rule (relative positions within the slop) to all terms.
@Suite struct PhraseSlopTests {
    static let docs = ["a b c d e f", "b a", "a x b", "a x x b", "c b a", "a b a b", "a a b", "b x a x c"]

    static let index: Index = {
        let schema = try! SchemaBuilder().addTextField("t", stored: true).build(defaultFields: ["t"])
        let index = try! Index.inMemory(schema: schema)
        let writer = try! index.writer()
        for text in docs { try! writer.addDocument(["t": DocumentValue(.text(text))]) }
        try! writer.commitAndReload()
        return index
    }()

    @Test(arguments: [
        (#""a b"~0"#, ["a a b", "a b a b", "a b c d e f"]),
        (#""a b"~1"#, ["a a b", "a b a b", "a b c d e f", "a x b"]),
        (#""b a"~1"#, ["a b a b", "b a", "b x a x c", "c b a"]),
        (#""b a"~2"#, ["a a b", "a b a b", "a b c d e f", "b a", "b x a x c", "c b a"]),
        (#""a c"~1"#, ["a b c d e f", "b x a x c"]),
        (#""c a"~1"#, ["c b a"]),
        (#""c a"~3"#, ["a b c d e f", "b x a x c", "c b a"]),
        (#""a b c"~1"#, ["a b c d e f"]),
        (#""c b a"~3"#, ["c b a"]),
        (#""c b a"~4"#, ["a b c d e f", "c b a"]),
        (#""a c b"~1"#, []),
        (#""a c b"~2"#, ["a b c d e f"]),
        (#""b a c"~3"#, ["a b c d e f", "b x a x c", "c b a"]),
    ])
    func matchesTantivy(query: String, expected: [String]) throws {
        let results = try Self.index.search(Self.index.parseQuery(query), limit: 20)
        #expect(results.hits.compactMap { $0.document.string("t") }.sorted() == expected, "\(query)")
    }

    @Test func repeatedOccurrencesCountOnce() throws {
        let exact = try Self.index.search(Self.index.parseQuery(#""a b""#), limit: 20)
        let sloppy = try Self.index.search(Self.index.parseQuery(#""a b"~1"#), limit: 20)
        let score = { (r: SearchResults, t: String) in r.hits.first { $0.document.string("t") == t }?.score }
        #expect(score(exact, "a b a b") == score(sloppy, "a b a b"), "both occurrences, same tf")
    }
}
