/// What one query may ask of the engine, so that a pathological query (a pasted book, a generated query of 100,000
/// clauses, thousands of fuzzy terms) fails at once with a clear error instead of running for minutes. Charged by
/// `WeightBuilder` as it resolves each leaf, so it covers parsed and built queries alike (Docs/QUERY-SYNTAX.md,
/// "Limits").
///
/// The other bounds of a query sit with what they bound: query-string nesting in the parser, regex repetition
/// and automaton states in LoupeAutomata and the `AutomatonCache`, fuzzy and phrase-prefix `maxExpansions` in the
/// leaves, aggregation buckets and memory in `AggregationLimits`.
package final class QueryBudget {
    /// The most leaf clauses and phrase terms in one query: 10,000. Lucene's `IndexSearcher.maxClauseCount` is 1,024
    /// leaves; the higher cap leaves room for long pasted text, and keeps the worst query near a second.
    package static let clauses = 10_000
    /// The most leaves that expand over the term dictionary: 256. Each builds an automaton and walks the terms it
    /// accepts (a distance-2 fuzzy term costs about a millisecond on a small index).
    package static let expansions = 256

    private var clauses = 0
    private var expansions = 0

    package init() {}

    /// Counts `query` if it is a leaf (boolean, boost, constant-score and parsed nodes are counted through their
    /// leaves).
    /// - Throws: `IndexError` `.limitExceeded` (`.queryClauses` or `.queryExpansions`) past a limit.
    package func charge(_ query: Query) throws(IndexError) {
        switch query {
        case .boolean, .boost, .constantScore, .parsed:
            return
        case .phrase(_, let terms, _):
            clauses += max(terms.count, 1)
        case .phrasePrefix(_, let terms, _):
            clauses += max(terms.count, 1)
            expansions += 1
        case .prefix, .fuzzy, .autocomplete, .regex, .wildcard:
            clauses += 1
            expansions += 1
        case .matchAll, .term, .instant, .range, .exists, .moreLikeThis:
            clauses += 1
        }
        if clauses > Self.clauses {
            throw Self.exceeded(
                .queryClauses,
                "the query has more than \(Self.clauses) clauses and phrase terms; search for fewer words or split it")
        }
        if expansions > Self.expansions {
            throw Self.exceeded(
                .queryExpansions,
                "the query has more than \(Self.expansions) prefix, wildcard, regex and fuzzy clauses; use fewer")
        }
    }

    @inline(never)
    private static func exceeded(_ limit: IndexError.Limit, _ message: String) -> IndexError {
        var error = IndexError(.limitExceeded, message)
        error.limit = limit
        return error
    }
}
