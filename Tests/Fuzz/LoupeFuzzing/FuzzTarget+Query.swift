import Loupe
import LoupeQueryGrammar

extension FuzzTarget {
    /// The input as a query string: the grammar alone (both default conjunctions), then parsed, compiled and run
    /// against `FuzzIndex` ranked, sorted by a column, counted and leniently.
    static func query(_ input: [UInt8]) -> FuzzOutcome {
        let text = String(decoding: input, as: UTF8.self)
        for conjunction in [false, true] {
            do {
                let ast = try parseQuery(text, defaultConjunction: conjunction)
                if (try? parseQuery(text, defaultConjunction: conjunction)) != ast {
                    return .failed("parsing the same text twice gave different trees")
                }
            } catch {
                if !(0...text.utf8.count).contains(error.offset) {
                    return .failed("syntax error at offset \(error.offset), outside the \(text.utf8.count) bytes")
                }
            }
        }
        let index = FuzzIndex.shared
        var steps = FuzzSteps()
        steps.run { () throws(IndexError) in
            let results = try index.search(text, limit: 10, counting: .exact)
            for hit in results.hits {
                _ = hit.document.entries
                _ = hit.snippet("title")
            }
        }
        steps.run { () throws(IndexError) in
            _ = try index.search(text, limit: 5, fields: ["title", "tag"], orderBy: .descending("year"))
        }
        steps.run { () throws(IndexError) in _ = try index.count(.parsed(text, fields: ["body", "notes"])) }
        steps.run { () throws(IndexError) in
            let options = QueryParserOptions(conjunctionByDefault: true, lenient: true)
            _ = try index.search(text, limit: 3, orderBy: .ascending("rating"), options: options)
        }
        return steps.outcome
    }

    static let querySeeds = [
        "alpha", "alpha beta", "+alpha -beta gamma", "title:alpha AND body:beta", "\"alpha beta\"~2",
        "title:\"alpha be\"*", "alp*", "alpah~1", "body:/gam+a/", "title:*ta", "year:[1995 TO 2005]",
        "year:>2000", "rating:{1.5 TO *]", "delta:-3", "released:[2000-01-01T00:00:00Z TO 2010-01-01T00:00:00Z]",
        "classic:true", "genre:beta", "tag:Red", "id:d5", "notes:alpha^2", "(alpha OR beta) AND NOT gamma",
        "genre: IN [alpha beta]", "日本", "théta runs", "*", "year:*",
    ]
}
