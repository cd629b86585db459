#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Values a range query can take: numbers, dates and strings.
public protocol RangeValue: FieldValueConvertible, Comparable {}

extension Int: RangeValue {}
extension Int32: RangeValue {}
extension Int64: RangeValue {}
extension UInt: RangeValue {}
extension UInt32: RangeValue {}
extension UInt64: RangeValue {}
extension Double: RangeValue {}
extension Float: RangeValue {}
extension Date: RangeValue {}
extension String: RangeValue {}

extension Query {
    /// A term query on a field of any type.
    public static func term(_ field: String, _ value: FieldValue) -> Query { .term(field: field, value: value) }

    /// A term query with a Swift value: a `String`, any integer, `Double`, `Bool` or `Date` (variables included).
    public static func term(_ field: String, _ value: some FieldValueConvertible) -> Query {
        .term(field: field, value: value.fieldValue)
    }

    /// A term query on a date field.
    public static func term(_ field: String, date: Date) -> Query { .term(field: field, value: .date(date)) }

    /// A phrase of analyzed tokens; with `slop`, terms may stand up to `slop` positions off their places.
    public static func phrase(_ field: String, _ terms: [String], slop: Int = 0) -> Query {
        .phrase(field: field, terms: terms, slop: slop)
    }

    /// A phrase whose last token is a prefix (`"star wa"*`).
    public static func phrasePrefix(_ field: String, _ terms: [String], maxExpansions: Int = 50) -> Query {
        .phrasePrefix(field: field, terms: terms, maxExpansions: maxExpansions)
    }

    /// Terms starting with `value`.
    public static func prefix(_ field: String, _ value: String) -> Query { .prefix(field: field, value: value) }

    /// Terms within `distance` (0...2) edits of `value`.
    public static func fuzzy(
        _ field: String, _ value: String, distance: Int = 1, transpositions: Bool = true, prefix: Bool = false,
        maxExpansions: Int = 50
    ) -> Query {
        .fuzzy(
            field: field, value: value, distance: distance, transpositions: transpositions, prefix: prefix,
            maxExpansions: maxExpansions)
    }

    /// Search-as-you-type: `value`'s words (analyzed by the field's analyzer when the query runs) must all
    /// match, each within `typoTolerance` edits, the last one as a prefix.
    public static func autocomplete(_ field: String, _ value: String, typoTolerance: Int = 1) -> Query {
        .autocomplete(field: field, text: value, typoTolerance: typoTolerance)
    }

    /// Search-as-you-type over `fields` (the schema's default fields when empty), ranked by typos first: see
    /// `Query.instant(text:fields:typoTolerance:)` and `Index.instantSearch`.
    public static func instant(
        _ text: String, fields: [String] = [], typoTolerance: TypoTolerance = .default
    ) -> Query {
        .instant(text: text, fields: fields, typoTolerance: typoTolerance)
    }

    /// Terms matching `pattern` entirely (Rust `regex` syntax).
    public static func regex(_ field: String, _ pattern: String) -> Query { .regex(field: field, pattern: pattern) }

    /// Terms matching `pattern`, where `*` is any run and `?` any one character.
    public static func wildcard(_ field: String, _ pattern: String) -> Query {
        .wildcard(field: field, pattern: pattern)
    }

    /// Values in `range` (both ends included).
    public static func range<V: RangeValue>(_ field: String, _ range: ClosedRange<V>) -> Query {
        .range(
            field: field, lower: .included(range.lowerBound.fieldValue), upper: .included(range.upperBound.fieldValue))
    }

    /// Values in `range` (upper end excluded).
    public static func range<V: RangeValue>(_ field: String, _ range: Range<V>) -> Query {
        .range(
            field: field, lower: .included(range.lowerBound.fieldValue), upper: .excluded(range.upperBound.fieldValue))
    }

    /// Values from `range.lowerBound` up.
    public static func range<V: RangeValue>(_ field: String, _ range: PartialRangeFrom<V>) -> Query {
        .range(field: field, lower: .included(range.lowerBound.fieldValue), upper: .unbounded)
    }

    /// Values up to `range.upperBound`, included.
    public static func range<V: RangeValue>(_ field: String, _ range: PartialRangeThrough<V>) -> Query {
        .range(field: field, lower: .unbounded, upper: .included(range.upperBound.fieldValue))
    }

    /// Values below `range.upperBound`.
    public static func range<V: RangeValue>(_ field: String, _ range: PartialRangeUpTo<V>) -> Query {
        .range(field: field, lower: .unbounded, upper: .excluded(range.upperBound.fieldValue))
    }

    /// Dates from `from` (included) to `to` (excluded); a nil end is open.
    public static func dateRange(_ field: String, from: Date? = nil, to: Date? = nil) -> Query {
        .range(
            field: field, lower: from.map { .included(.date($0)) } ?? .unbounded,
            upper: to.map { .excluded(.date($0)) } ?? .unbounded)
    }

    /// Documents with a value in `field`.
    public static func exists(_ field: String) -> Query { .exists(field: field) }

    /// Documents like `text` on `field`.
    public static func moreLikeThis(_ field: String, _ text: String, _ options: MoreLikeThisOptions = .init()) -> Query
    {
        .moreLikeThis(field: field, text: text, options: options)
    }

    /// A boolean query from clauses.
    public static func boolean(_ clauses: [Clause]) -> Query { .boolean(clauses, minimumShouldMatch: 0) }

    /// A boolean query from (occur, query) pairs.
    public static func boolean(_ clauses: [(Occur, Query)]) -> Query {
        .boolean(clauses.map { Clause($0.0, $0.1) }, minimumShouldMatch: 0)
    }

    /// Documents matching every query; scores add up.
    public static func allOf(_ queries: [Query]) -> Query {
        .boolean(queries.map { Clause(.must, $0) }, minimumShouldMatch: 0)
    }

    /// Documents matching at least `minimumShouldMatch` (≥ 1) of the queries; scores of the matching ones add up.
    public static func anyOf(_ queries: [Query], minimumShouldMatch: Int = 1) -> Query {
        .boolean(queries.map { Clause(.should, $0) }, minimumShouldMatch: minimumShouldMatch)
    }

    /// Documents matching both; scores add up.
    public static func && (a: Query, b: Query) -> Query { .allOf([a, b]) }
    /// Documents matching either; scores of the matching ones add up.
    public static func || (a: Query, b: Query) -> Query { .anyOf([a, b]) }

    /// This query's matches minus those of `other`.
    public func excluding(_ other: Query) -> Query {
        .boolean([Clause(.must, self), Clause(.mustNot, other)], minimumShouldMatch: 0)
    }

    /// This query with its scores multiplied by `factor`.
    public func boosted(by factor: Float) -> Query { .boost(self, factor: factor) }

    /// This query's matches, each scoring `score`.
    public func constantScore(_ score: Float = 1) -> Query { .constantScore(self, score: score) }
}
