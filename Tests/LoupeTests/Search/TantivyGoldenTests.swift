import Foundation
import Loupe
import TestSupport
import Testing

/// Differential tests against tantivy 0.27 on the bundled movies corpus: hit counts, the top-10 documents and
/// their BM25 scores (to 1e-5 relative), from goldens made by `Fixtures/make_goldens.py`.
@Suite struct TantivyGoldenTests {
    struct Golden {
        var kind: String
        var query: String
        var count: Int
        var top: [(id: String, score: Float)]
    }

    static func load(_ name: String) throws -> [Golden] {
        let text = try String(contentsOfFile: FixturePaths.loupeTestFixtures + "/" + name, encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let top: [(id: String, score: Float)] = parts[3].split(separator: ",").map { pair in
                let p = pair.split(separator: ":", maxSplits: 1)
                return (String(p[0]), Float(String(p[1]))!)
            }
            return Golden(kind: parts[0], query: parts[1], count: Int(parts[2])!, top: top)
        }
    }

    /// Compares the exactly counted top-10 with tantivy's, and the pruned top-10 (no count) with it.
    static func check(_ index: Index, _ query: Query, _ golden: Golden) throws {
        let exact = try index.search(query, limit: 10, counting: .exact)
        check(exact, golden)
        #expect(exact.isTotalCountExact)
        let pruned = try index.search(query, limit: 10, counting: .hitsOnly)
        let summary = { (r: SearchResults) in r.hits.map { "\($0.document.string("id") ?? "?"):\($0.score)" } }
        #expect(summary(pruned) == summary(exact), "pruned top-10 of \(golden.query)")
    }

    /// Compares one result list with tantivy's. Scores must agree to 1e-5 relative; documents must agree except
    /// where tantivy's own scores tie (then the order among equals may be any, so compare as sets of score groups).
    static func check(_ results: SearchResults, _ golden: Golden) {
        #expect(results.totalCount == golden.count, "count of \(golden.query)")
        #expect(results.hits.count == golden.top.count, "hits of \(golden.query)")
        for (hit, expected) in zip(results.hits, golden.top) {
            let relative = abs(hit.score - expected.score) / max(abs(expected.score), 1e-6)
            #expect(relative <= 1e-5, "\(golden.query): score \(hit.score) vs tantivy \(expected.score)")
        }
        let ours = results.hits.map { $0.document.string("id") ?? "" }
        #expect(ours == golden.top.map(\.id), "top-10 of \(golden.query)")
    }

    @Test func parsedQueriesMatchTantivy() throws {
        let index = MoviesFixture.index
        var compared = 0
        for golden in try Self.load("movies.bm25.golden.tsv") {
            let query = try index.parseQuery(golden.query)
            try Self.check(index, query, golden)
            #expect(try index.count(query) == golden.count, "count-only of \(golden.query)")
            compared += 1
        }
        #expect(compared >= 175)
    }

    /// Every query of the movies query set (ranges included), against tantivy's recorded hit counts.
    @Test func hitCountsMatchTantivyOnTheWholeQuerySet() throws {
        let index = MoviesFixture.index
        let text = try String(
            contentsOfFile: FixturePaths.moviesDirectory + "/queries.tantivy-hits.tsv", encoding: .utf8)
        var compared: [String: Int] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t").map(String.init)
            #expect(try index.count(index.parseQuery(parts[1])) == Int(parts[2]), "\(parts[0]): \(parts[1])")
            compared[parts[0], default: 0] += 1
        }
        #expect(compared["range"] == 25)
        #expect(compared.values.reduce(0, +) == 200)
    }

    @Test func structuredQueriesMatchTantivy() throws {
        let index = MoviesFixture.index
        let goldens = try Self.load("movies.bm25.structured.golden.tsv")
        #expect(goldens.count == 30)
        for golden in goldens {
            let spec = try JSONSerialization.jsonObject(with: Data(golden.query.utf8))
            try Self.check(index, Self.query(spec), golden)
        }
    }

    /// Rebuilds a query from the golden's JSON spec: {"term": [f, t]}, {"phrase": [f, [t…]]}, {"bool": [[occur, spec]…]}.
    static func query(_ spec: Any) throws -> Query {
        let object = try #require(spec as? [String: Any])
        if let term = object["term"] as? [String] {
            return .term(term[0], .text(term[1]))
        }
        if let phrase = object["phrase"] as? [Any], let field = phrase[0] as? String, let words = phrase[1] as? [String]
        {
            return .phrase(field: field, terms: words, slop: 0)
        }
        let clauses = try #require(object["bool"] as? [[Any]])
        return .boolean(
            try clauses.map { clause in
                let occur: Occur =
                    switch clause[0] as? String {
                    case "must": .must
                    case "must_not": .mustNot
                    default: .should
                    }
                return Query.Clause(occur, try query(clause[1]))
            })
    }

    @Test func pagingSplitsTheSameRanking() throws {
        let index = MoviesFixture.index
        let query = try index.parseQuery("love story")
        let all = try index.search(query, limit: 30)
        let page = try index.search(query, limit: 10, offset: 10)
        #expect(page.totalCount == all.totalCount)
        #expect(page.hits == Array(all.hits[10..<20]))
    }
}
