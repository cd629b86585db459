import Loupe
import TestSupport
import Testing

/// Pathological queries answer or fail with a typed error in bounded time and memory, never hang: the per-query
/// limits of `QueryBudget` at their boundaries, and a catalogue of hostile query strings against the movies index.
@Suite struct BoundedQueryTests {
    static func terms(_ count: Int) -> Query {
        .anyOf((0..<count).map { .term("title", .text("w\($0)")) })
    }

    static func limit(of body: () throws(IndexError) -> Void) -> IndexError.Limit? {
        do {
            try body()
            return nil
        } catch {
            return error.code == .limitExceeded ? error.limit : nil
        }
    }

    @Test func clausesUpToTheLimitAnswerAndOneMoreIsRefused() throws {
        let index = MoviesFixture.index
        #expect(try index.count(Self.terms(QueryBudget.clauses)) == 0)
        #expect(
            Self.limit { () throws(IndexError) in _ = try index.count(Self.terms(QueryBudget.clauses + 1)) }
                == .queryClauses)
        let words = Array(repeating: "love", count: QueryBudget.clauses)
        #expect(try index.count(.phrase("title", words)) == 0, "a phrase of as many terms answers")
        #expect(
            Self.limit { () throws(IndexError) in _ = try index.count(.phrase("title", words + ["story"])) }
                == .queryClauses)
        let nested = Query.allOf([Self.terms(QueryBudget.clauses / 2), Self.terms(QueryBudget.clauses / 2 + 1)])
        #expect(
            Self.limit { () throws(IndexError) in _ = try index.count(nested) } == .queryClauses,
            "nested clauses count together")
    }

    @Test func expandingClausesUpToTheLimitAnswerAndOneMoreIsRefused() throws {
        let index = MoviesFixture.index
        let fuzzy = (0..<QueryBudget.expansions).map { Query.fuzzy("title", "lov\($0)", distance: 1) }
        #expect(try index.count(.anyOf(fuzzy)) >= 0)
        #expect(
            Self.limit { () throws(IndexError) in _ = try index.count(.anyOf(fuzzy + [.prefix("title", "lo")])) }
                == .queryExpansions)
        let text = (0...QueryBudget.expansions).map { "title:w\($0)*" }.joined(separator: " ")
        let error = try #require(throws: IndexError.self) { try index.search(text, limit: 10) }
        #expect(error.limit == .queryExpansions && error.message.contains("\(QueryBudget.expansions)"))
    }

    /// Each hostile query string, with what it must give: results, or an error of the given code.
    static let hostile: [(name: String, query: String, refusedWith: IndexError.Code?)] = [
        ("exponential regex", "title:/(a|aa)*b(c|cc)*d(e|ee)*f/", nil),
        ("stacked .*", "title:/.*.*.*.*.*.*.*.*.*.*x/", nil),
        ("counted repetition", "title:/[a-z]{1,200}q[a-z]{1,200}/", nil),
        ("nested counted repetition", "title:/(.{1,50}){1,50}/", nil),
        ("repetition past the bound", "title:/a{1000000}/", .invalidQuery),
        ("wildcard of many stars", "title:*a*e*i*o*u*", nil),
        ("fuzzy 500-byte term", "title:" + String(repeating: "abcdefghij", count: 50) + "~2", nil),
        ("100k distinct OR", (0..<100_000).map { "w\($0)" }.joined(separator: " OR "), .limitExceeded),
        ("100k AND of one word", Array(repeating: "love", count: 100_000).joined(separator: " AND "), nil),
        ("100k distinct AND", (0..<100_000).map { "w\($0)" }.joined(separator: " AND "), .limitExceeded),
        ("100k +terms", (0..<100_000).map { "+w\($0)" }.joined(separator: " "), .limitExceeded),
        (
            "100k parentheses",
            String(repeating: "(", count: 100_000) + "love" + String(repeating: ")", count: 100_000),
            .invalidQuery
        ),
        ("100k dashes", String(repeating: "-", count: 100_000) + "love", .invalidQuery),
        ("1 MB term", String(repeating: "a", count: 1 << 20), nil),
        ("1 MB phrase", "\"" + String(repeating: "the love ", count: 120_000) + "\"", .limitExceeded),
        ("1 MB sloppy phrase", "title:\"" + String(repeating: "the love ", count: 120_000) + "\"~100", .limitExceeded),
        ("largest slop", "title:\"the love story\"~4294967295", nil),
        ("slop past u32", "title:\"the love story\"~99999999999999999999999", .invalidQuery),
        ("20k fuzzy terms", (0..<20_000).map { "w\($0)~2" }.joined(separator: " "), .limitExceeded),
        ("10k regexes", (0..<10_000).map { "title:/a.\($0)/" }.joined(separator: " "), .limitExceeded),
    ]

    @Test(.timeLimit(.minutes(Sanitizers.slowdown)), arguments: hostile.indices)
    func hostileQueryStringAnswersOrFailsAtOnce(_ i: Int) throws {
        let (name, query, refusedWith) = Self.hostile[i]
        let index = MoviesFixture.index
        do {
            let results = try index.search(query, limit: 10)
            #expect(refusedWith == nil, "\(name): answered \(results.count) instead of failing")
        } catch {
            #expect(error.code == refusedWith, "\(name): \(error)")
        }
    }
}
