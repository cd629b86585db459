#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a clause of a boolean query takes part.
public enum Occur: Sendable, Hashable {
    /// The document must match; the clause adds to the score.
    case must
    /// The document may match; a query with no `must` clause needs at least one `should` to match.
    case should
    /// The document must not match; the clause never scores.
    case mustNot
}

/// One end of a range query.
public enum RangeBound: Sendable, Hashable {
    /// No limit on this side.
    case unbounded
    /// The value belongs to the range.
    case included(FieldValue)
    /// The value is just outside the range.
    case excluded(FieldValue)
}

/// A structured query: build it in code, or parse a query string with `Index.parseQuery(_:)` (or embed one
/// with `.parsed`). Every case is documented with its query-string form in Docs/QUERY-SYNTAX.md.
///
/// ```swift
/// let q: Query = .term("title", "heat") && .range("year", 1990...1999)
/// let typos: Query = .fuzzy("title", "hest", distance: 1)
/// ```
public indirect enum Query: Sendable, Hashable {
    /// Every document, score 1.
    case matchAll
    /// Documents whose `field` holds exactly `value`. Text values are not analyzed: give the indexed token
    /// (lowercased for the default analyzer), or use `.parsed` to analyze words.
    case term(field: String, value: FieldValue)
    /// Documents where `terms` (already analyzed tokens) appear as a phrase: consecutive with `slop` 0; otherwise
    /// each term's position minus its place in the phrase lies within `slop` of the others', in any order
    /// (tantivy's rule: `"a b"` with slop 1 finds "a x b" and "b a").
    case phrase(field: String, terms: [String], slop: Int)
    /// A phrase whose last term is a prefix, expanded to at most `maxExpansions` terms (the most frequent).
    case phrasePrefix(field: String, terms: [String], maxExpansions: Int)
    /// Terms starting with `value` (not analyzed), constant score.
    case prefix(field: String, value: String)
    /// Terms within `distance` edits of `value` (not analyzed): insertions, deletions, substitutions and, with
    /// `transpositions`, swaps of neighbours; with `prefix`, terms that start with such a string. At most
    /// `maxExpansions` terms are kept (closest first, then most frequent); each scores BM25 with the idf of the
    /// most frequent expansion, weighted by its distance and frequency, so the exact spelling ranks first and a
    /// common word beats a rare one at the same distance.
    case fuzzy(field: String, value: String, distance: Int, transpositions: Bool, prefix: Bool, maxExpansions: Int)
    /// Search-as-you-type: the words of `text` (analyzed by the field's analyzer) must all match, each within
    /// `typoTolerance` edits (fewer for short words: none below 3 characters, 1 below 6), the last as a prefix.
    case autocomplete(field: String, text: String, typoTolerance: Int)
    /// Search-as-you-type over several fields, ranked by typos first (Docs/QUERY-SYNTAX.md): every word of
    /// `text` must match in one of `fields` (the schema's default fields when empty) within the typos
    /// `typoTolerance` allows for its length; the last word is a prefix unless `text` ends with a separator. A
    /// document scores, per word, 3 minus the typos of its closest match plus a share of that match's BM25 (all the
    /// BM25 shares together stay below 1), so any document with fewer typos in all outranks one with more, and
    /// BM25 orders documents with as many. Wrap filters ANDed with it in `.constantScore` to keep that order.
    case instant(text: String, fields: [String], typoTolerance: TypoTolerance)
    /// Terms matching a regular expression over the whole term (Rust `regex` syntax), constant score.
    case regex(field: String, pattern: String)
    /// Terms matching a pattern where `*` is any run of characters and `?` any one character (`\` escapes
    /// either), constant score.
    case wildcard(field: String, pattern: String)
    /// Documents with a value of `field` between the bounds (numbers, dates, or strings in byte order),
    /// constant score.
    case range(field: String, lower: RangeBound, upper: RangeBound)
    /// Documents with any value in `field`, constant score.
    case exists(field: String)
    /// Documents like `text`: its most telling terms (by tf × idf) on `field`, as a disjunction.
    case moreLikeThis(field: String, text: String, options: MoreLikeThisOptions)
    /// Clauses combined by `Occur`; scores of matching `must` and `should` clauses add up. Without a `must`
    /// clause, at least `max(1, minimumShouldMatch)` `should` clauses must match; with one, at least
    /// `minimumShouldMatch`.
    case boolean([Clause], minimumShouldMatch: Int)
    /// The query's scores multiplied by `factor`.
    case boost(Query, factor: Float)
    /// The query's matches, each scoring `score`.
    case constantScore(Query, score: Float)
    /// A query string (tantivy syntax, see `Searcher.parseQuery`) over `fields` (the schema's default fields
    /// when nil), parsed when the query runs.
    case parsed(String, fields: [String]? = nil)

    /// One clause of a boolean query.
    public struct Clause: Sendable, Hashable {
        /// How the clause takes part.
        public var occur: Occur
        /// What it matches.
        public var query: Query

        /// A clause.
        public init(_ occur: Occur, _ query: Query) {
            self.occur = occur
            self.query = query
        }
    }
}

/// Which terms of a text `moreLikeThis` keeps, with Lucene's defaults.
public struct MoreLikeThisOptions: Sendable, Hashable {
    /// A term must occur at least this often in the text.
    public var minTermFrequency: Int
    /// A term must occur in at least this many documents.
    public var minDocFrequency: Int
    /// A term in more documents than this is ignored (nil: no limit).
    public var maxDocFrequency: Int?
    /// The query keeps at most this many terms, the best by tf × idf.
    public var maxQueryTerms: Int
    /// Terms shorter than this (in characters) are ignored (0: no limit).
    public var minWordLength: Int
    /// Terms longer than this (in characters) are ignored (0: no limit).
    public var maxWordLength: Int

    /// Options with Lucene's defaults.
    public init(
        minTermFrequency: Int = 2, minDocFrequency: Int = 5, maxDocFrequency: Int? = nil, maxQueryTerms: Int = 25,
        minWordLength: Int = 0, maxWordLength: Int = 0
    ) {
        self.minTermFrequency = minTermFrequency
        self.minDocFrequency = minDocFrequency
        self.maxDocFrequency = maxDocFrequency
        self.maxQueryTerms = maxQueryTerms
        self.minWordLength = minWordLength
        self.maxWordLength = maxWordLength
    }
}

/// How search results are ordered.
public enum SearchOrder: Sendable, Hashable {
    /// By score, best first (ties: earlier document first).
    case relevance
    /// By the first value of a fast field, smallest first; documents without a value come last.
    case ascending(String)
    /// By the first value of a fast field, largest first; documents without a value come last.
    case descending(String)
}

/// How `parseQuery` reads a query string.
public struct QueryParserOptions: Sendable, Hashable {
    /// True: clauses written without `+`, `-`, `AND`, `OR` or `NOT` must all match (default operator AND).
    /// False (default): any may match (OR), as in tantivy.
    public var conjunctionByDefault: Bool
    /// True: never fail. Syntax errors fall back to the plain words of the text, clauses naming unknown fields or
    /// holding invalid values are dropped, and a query of only exclusions excludes from every document.
    public var lenient: Bool

    /// OR by default and strict, as tantivy parses.
    public init(conjunctionByDefault: Bool = false, lenient: Bool = false) {
        self.conjunctionByDefault = conjunctionByDefault
        self.lenient = lenient
    }
}
