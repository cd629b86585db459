import FoundationEssentials

/// How a clause of a boolean query takes part.
public enum Occur: Sendable, Hashable {
    /// The document must match; the clause adds to the score.
    case must
    /// The document may match; a query with no `must` clause needs at least one `should` to match.
    case should
    /// The document must not match; the clause never scores.
    case mustNot
}

/// A structured query: build it in code, or parse a query string with `Index.parseQuery(_:)`.
///
/// ```swift
/// let q: Query = .boolean([(.must, .term("title", "heat")), (.mustNot, .term("genres", "Comedy"))])
/// ```
public indirect enum Query: Sendable, Hashable {
    /// Every document, score 1.
    case matchAll
    /// Documents whose `field` holds exactly `value`. Text values are not analyzed: give the indexed token
    /// (lowercased for the default analyzer), or use `parseQuery` to analyze words.
    case term(field: String, value: FieldValue)
    /// Documents where `terms` (already analyzed tokens) appear at consecutive positions of `field`.
    case phrase(field: String, terms: [String])
    /// Clauses combined by `Occur`; scores of matching `must` and `should` clauses add up.
    case boolean([Clause])
    /// The query's scores multiplied by `factor`.
    case boost(Query, factor: Float)

    /// One clause of a boolean query.
    public struct Clause: Sendable, Hashable {
        public var occur: Occur
        public var query: Query

        public init(_ occur: Occur, _ query: Query) {
            self.occur = occur
            self.query = query
        }
    }

    /// A term query on a field of any type.
    public static func term(_ field: String, _ value: FieldValue) -> Query { .term(field: field, value: value) }

    /// A boolean query from (occur, query) pairs.
    public static func boolean(_ clauses: [(Occur, Query)]) -> Query {
        .boolean(clauses.map { Clause($0.0, $0.1) })
    }
}
