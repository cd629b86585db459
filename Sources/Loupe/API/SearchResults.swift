#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The stored fields of a document, with typed accessors.
///
/// Values are decoded when asked for: reading one field of a hit does not build the others.
public struct StoredDocument: Sendable, Hashable {
    private let schema: Schema
    /// The document's encoded values, validated when the hit was fetched.
    private let encoded: ArraySlice<UInt8>

    package init(schema: Schema, encoded: ArraySlice<UInt8>) {
        self.schema = schema
        self.encoded = encoded
    }

    /// Field names with their values, in schema order.
    public var entries: [(name: String, values: [FieldValue])] {
        var grouped = [[FieldValue]](repeating: [], count: schema.fields.count)
        for v in decoded(only: nil) { grouped[v.field].append(FieldValue(v.value, type: schema.fields[v.field].type)) }
        return grouped.enumerated().filter { !$0.element.isEmpty }.map { (schema.fields[$0.offset].name, $0.element) }
    }

    /// Every stored value of `field` (empty when none).
    public subscript(field: String) -> [FieldValue] {
        guard let ordinal = schema.fieldIndex[field] else { return [] }
        let type = schema.fields[ordinal].type
        return decoded(only: ordinal).map { FieldValue($0.value, type: type) }
    }

    private func decoded(only field: Int?) -> [(field: Int, value: PreparedDocument.Value)] {
        // `encoded` passed `StoredValueCoding.validate` when the hit was fetched, so decoding cannot fail here.
        (try? StoredValueCoding.decode(encoded, schema: schema, only: field)) ?? []
    }

    /// The first value of a text or string field.
    public func string(_ field: String) -> String? {
        for v in self[field] { if case .text(let s) = v { return s } }
        return nil
    }

    /// The first value of an i64 field (or a u64 that fits).
    public func int(_ field: String) -> Int64? {
        for v in self[field] {
            switch v {
            case .i64(let i): return i
            case .u64(let u) where u <= UInt64(Int64.max): return Int64(u)
            default: continue
            }
        }
        return nil
    }

    /// The first value of a u64 field (or a non-negative i64).
    public func uint(_ field: String) -> UInt64? {
        for v in self[field] {
            switch v {
            case .u64(let u): return u
            case .i64(let i) where i >= 0: return UInt64(i)
            default: continue
            }
        }
        return nil
    }

    /// The first value of an f64 field (integers convert).
    public func double(_ field: String) -> Double? {
        for v in self[field] {
            switch v {
            case .f64(let d): return d
            case .i64(let i): return Double(i)
            case .u64(let u): return Double(u)
            default: continue
            }
        }
        return nil
    }

    /// The first value of a bool field.
    public func bool(_ field: String) -> Bool? {
        for v in self[field] { if case .bool(let b) = v { return b } }
        return nil
    }

    /// The first value of a date field.
    public func date(_ field: String) -> Date? {
        for v in self[field] { if case .date(let d) = v { return d } }
        return nil
    }

    /// Documents are equal when they hold the same values.
    public static func == (a: Self, b: Self) -> Bool {
        a.entries.elementsEqual(b.entries) { $0.name == $1.name && $0.values == $1.values }
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        for e in entries {
            hasher.combine(e.name)
            hasher.combine(e.values)
        }
    }
}

/// One search result: its score and stored fields, read through the same typed accessors as `StoredDocument`
/// (`hit.string("title")`, `hit.int("year")`, `hit["tags"]`).
public struct SearchHit: Sendable, Hashable {
    /// BM25 score (summed over clauses and fields), as tantivy computes it; the real score on field-sorted hits
    /// too, and 0 for a fetch without scoring (`Index.get`).
    public let score: Float
    /// The hit's stored fields.
    public let document: StoredDocument
    /// The value the hits were sorted by (`orderBy` a field); nil when sorted by relevance or when the document
    /// has no value.
    public let sortValue: FieldValue?
    /// What the query matched, for snippets.
    private let highlighter: Highlighter?

    package init(score: Float, document: StoredDocument, sortValue: FieldValue? = nil, highlighter: Highlighter?) {
        self.score = score
        self.document = document
        self.sortValue = sortValue
        self.highlighter = highlighter
    }

    /// The best fragment of the stored `field` (at most `maxChars` characters, cut at word boundaries) with
    /// the query's matches marked: terms, phrases (one mark per occurrence), and fuzzy, prefix, wildcard and
    /// regex expansions. Nil when the field is not stored or has no text value.
    public func snippet(_ field: String, maxChars: Int = 150) -> Snippet? {
        let texts = document[field].compactMap { value -> String? in
            if case .text(let s) = value { return s }
            return nil
        }
        guard !texts.isEmpty else { return nil }
        guard let highlighter else { return Snippet.leading(texts[0], maxChars: maxChars) }
        return highlighter.snippet(field: field, texts: texts, maxChars: max(1, maxChars))
    }

    /// Every stored value of `field` (empty when none).
    public subscript(field: String) -> [FieldValue] { document[field] }

    /// The first value of a text or string field.
    public func string(_ field: String) -> String? { document.string(field) }

    /// The first value of an i64 field (or a u64 that fits).
    public func int(_ field: String) -> Int64? { document.int(field) }

    /// The first value of a u64 field (or a non-negative i64), exact over the whole u64 range.
    public func uint(_ field: String) -> UInt64? { document.uint(field) }

    /// The first value of an f64 field (integers convert).
    public func double(_ field: String) -> Double? { document.double(field) }

    /// The first value of a bool field.
    public func bool(_ field: String) -> Bool? { document.bool(field) }

    /// The first value of a date field.
    public func date(_ field: String) -> Date? { document.date(field) }

    /// Hits are equal when their scores, documents and sort values are.
    public static func == (a: SearchHit, b: SearchHit) -> Bool {
        a.score == b.score && a.document == b.document && a.sortValue == b.sortValue
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(score)
        hasher.combine(document)
        hasher.combine(sortValue)
    }
}

/// The hits of one page, best first, and the number of matching documents: a random-access collection of
/// `SearchHit`, so `for hit in try index.search("sea whale")` reads as with the bindings' `[SearchHit]`.
///
/// `count` (as for any collection) is the number of hits on this page; `totalCount` is the number of matches.
public struct SearchResults: Sendable, Hashable, RandomAccessCollection {
    /// Documents matching the query, whatever the page: exact when `isTotalCountExact`, otherwise a lower bound
    /// (the search stopped counting once its `CountPolicy` was met).
    public let totalCount: Int
    /// Whether `totalCount` is every match (see `CountPolicy`).
    public let isTotalCountExact: Bool
    /// The page of hits, best first.
    public let hits: [SearchHit]

    package init(totalCount: Int, isTotalCountExact: Bool = true, hits: [SearchHit]) {
        self.totalCount = totalCount
        self.isTotalCountExact = isTotalCountExact
        self.hits = hits
    }

    /// The position of the first hit (0).
    public var startIndex: Int { hits.startIndex }
    /// The position after the last hit.
    public var endIndex: Int { hits.endIndex }
    /// The hit at `position`.
    public subscript(position: Int) -> SearchHit { hits[position] }
}

/// How many of a search's matches are counted.
///
/// Counting every match means visiting every match, while the best hits alone can often be found without looking
/// at most of them: a search that need not count skips the postings blocks, and the parts of a disjunction, that
/// cannot reach its top hits (block-max pruning and MaxScore). The hits are the same either way.
public enum CountPolicy: Sendable, Hashable {
    /// Every match is counted: `SearchResults.totalCount` is exact, and nothing is skipped (except what a count known
    /// in advance, such as a single term's document frequency, makes unnecessary).
    case exact
    /// Matches are counted exactly up to `n`; past that, only the best hits are sought and `totalCount` is a lower bound
    /// (`isTotalCountExact` false): Lucene's `totalHitsThreshold`. The default, `.atLeast(1_000)`, is Lucene's too.
    case atLeast(Int)
    /// No count is needed: the hits are found as cheaply as possible and `totalCount` is only a lower bound.
    case hitsOnly

    /// `.atLeast(1_000)`: exact for most searches, "at least 1,000" for broad ones, which then run pruned.
    public static let standard = CountPolicy.atLeast(1_000)
}
