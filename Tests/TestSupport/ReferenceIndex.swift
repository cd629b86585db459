import Loupe
import LoupeAnalysis

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A brute-force search "engine" for differential tests: it keeps every document's tokens and values and answers
/// every `Query` case by scanning every document and every term, scoring with BM25 written out plainly in
/// `Double`. Each case follows the semantics documented on `Query` (and in Docs/QUERY-SYNTAX.md); where the
/// engine takes a shortcut (automata, fast columns, block skipping), this takes none.
///
/// Documents are numbered in insertion order, which is the engine's document order as long as nothing merges or
/// deletes: segments are searched in commit order and keep their documents in insertion order.
public struct ReferenceIndex {
    /// A query or document the reference does not model: a query string, a value of the wrong type, an option
    /// out of range. The engine rejects most of these with `IndexError.Code.invalidQuery`.
    public struct Unsupported: Error, CustomStringConvertible {
        /// What is not modelled, and where.
        public var description: String
    }

    /// Matching documents (insertion ordinals) with their scores.
    public typealias Matches = [Int: Double]

    /// The engine index's schema: field types, analyzers and which fields are indexed or fast.
    public let schema: Schema
    private(set) var docs: [Doc] = []
    /// Per text or string field: the number of documents holding each term (BM25's n), whose keys are also the
    /// field's term dictionary for multi-term queries.
    private(set) var docFreqs: [String: [String: Int]] = [:]
    /// Per field: tokens (values, for non-text fields) over all documents, BM25's avgdl numerator.
    private(set) var totalTokens: [String: Int] = [:]

    /// One document as the engine indexes it.
    struct Doc {
        /// Text and string fields: each term's positions (the value ordinal, for a string field).
        var terms: [String: [String: [Int]]] = [:]
        /// The field norm: a text field's token count, any other field's value count.
        var lengths: [String: Int] = [:]
        /// Numeric, date and bool fields, in input order.
        var values: [String: [Ordered]] = [:]
    }

    /// A numeric, date or bool value in an order-preserving form: integers (u64, i64, date microseconds, bool)
    /// exactly, floats as themselves. One field only ever holds one of the two cases.
    enum Ordered: Hashable, Comparable {
        case integer(Int128)
        case real(Double)
    }

    /// An empty reference for documents of `schema`.
    public init(schema: Schema) {
        self.schema = schema
    }

    /// Documents added so far (BM25's N).
    public var documentCount: Int { docs.count }

    /// Adds a document the way the engine's writer sees it: text through the field's built-in analyzer (values
    /// of a multi-valued field one position gap apart), string values as one term each.
    /// - Throws: `Unsupported` for a value that does not fit its field.
    public mutating func add(_ document: Document) throws(Unsupported) {
        var doc = Doc()
        var nextPosition: [String: Int] = [:]
        for (name, values) in document.entries {
            guard let entry = schema.field(named: name), entry.indexed || entry.fast else { continue }
            for value in values {
                switch (entry.type, value) {
                case (.text, .text(let text)):
                    let start = nextPosition[name, default: 0]
                    let tokens = try Self.analyzer(entry).tokens(text)
                    for token in tokens {
                        doc.terms[name, default: [:]][token.text, default: []].append(start + token.position)
                    }
                    doc.lengths[name, default: 0] += tokens.count
                    nextPosition[name] = (tokens.last.map { start + $0.position + 1 } ?? start) + 1
                case (.string, .text(let text)):
                    doc.terms[name, default: [:]][text, default: []].append(doc.lengths[name, default: 0])
                    doc.lengths[name, default: 0] += 1
                default:
                    guard let ordered = Self.ordered(value, entry.type) else {
                        throw Unsupported(description: "field '\(name)' cannot hold \(value)")
                    }
                    doc.values[name, default: []].append(ordered)
                    doc.lengths[name, default: 0] += 1
                }
            }
        }
        for (name, terms) in doc.terms {
            for term in terms.keys { docFreqs[name, default: [:]][term, default: 0] += 1 }
        }
        for (name, length) in doc.lengths { totalTokens[name, default: 0] += length }
        docs.append(doc)
    }

    /// Every matching document with its score, as `Index.search(_:boosts:)` should find them.
    /// - Throws: `Unsupported` for what the reference does not model (see the type).
    public func search(_ query: Query, boosts: [String: Float] = [:]) throws(Unsupported) -> Matches {
        try Evaluator(index: self, boosts: boosts.mapValues(Double.init)).matches(query)
    }

    /// Whether the engine's scores for `query` are expected to equal the reference's. They are for text fields;
    /// scored leaves on string, numeric and date fields are compared by hit set only.
    public func comparesScores(_ query: Query) -> Bool {
        switch query {
        case .term(let name, _), .phrase(let name, _, _), .phrasePrefix(let name, _, _),
            .fuzzy(let name, _, _, _, _, _), .autocomplete(let name, _, _), .moreLikeThis(let name, _, _):
            return schema.field(named: name)?.type == .text
        case .instant(_, let fields, _):
            return (fields.isEmpty ? schema.searchedByDefault : fields).allSatisfy {
                schema.field(named: $0)?.type == .text
            }
        case .boolean(let clauses, _):
            return clauses.allSatisfy { $0.occur == .mustNot || comparesScores($0.query) }
        case .boost(let inner, _):
            return comparesScores(inner)
        case .matchAll, .prefix, .regex, .wildcard, .range, .exists, .constantScore:
            return true
        case .parsed:
            return false
        }
    }

    /// The documents of `matches` in the order a search returns them: by score, best first, or by the first
    /// value of a field, documents without one last; ties go to the earlier document.
    public func ordered(_ matches: Matches, by order: SearchOrder) -> [Int] {
        switch order {
        case .relevance:
            return matches.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        case .ascending(let name), .descending(let name):
            let descending = order == .descending(name)
            return matches.keys.sorted { a, b in
                switch (docs[a].values[name]?.first, docs[b].values[name]?.first) {
                case (nil, nil): return a < b
                case (nil, _): return false
                case (_, nil): return true
                case (let x?, let y?): return x != y ? (descending ? x > y : x < y) : a < b
                }
            }
        }
    }

    static func analyzer(_ entry: FieldEntry) throws(Unsupported) -> TextAnalyzer {
        guard let analyzer = AnalyzerRegistry.builtIn.analyzer(named: entry.tokenizer) else {
            throw Unsupported(description: "field '\(entry.name)' uses a tokenizer that is not built in")
        }
        return analyzer
    }

    /// A value as its field type orders it; nil when the value cannot belong to the field. Negative integers are
    /// kept for u64 fields, where only range bounds use them.
    static func ordered(_ value: FieldValue, _ type: FieldType) -> Ordered? {
        switch (type, value) {
        case (.u64, .u64(let v)), (.i64, .u64(let v)): .integer(Int128(v))
        case (.u64, .i64(let v)), (.i64, .i64(let v)): .integer(Int128(v))
        case (.f64, .f64(let v)): .real(v)
        case (.f64, .i64(let v)): .real(Double(v))
        case (.f64, .u64(let v)): .real(Double(v))
        case (.date, .date(let d)): .integer(Int128((d.timeIntervalSince1970 * 1_000_000).rounded()))
        case (.bool, .bool(let b)): .integer(b ? 1 : 0)
        default: nil
        }
    }
}

/// UTF-8 bytes ordered bytewise, as the term dictionary orders terms (`String`'s own `<` is not bytewise).
struct TermBytes: Comparable {
    var bytes: [UInt8]

    init(_ text: String) { bytes = Array(text.utf8) }

    static func < (a: TermBytes, b: TermBytes) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}

// MARK: - Evaluation

extension ReferenceIndex {
    /// Evaluates one query tree for one search (its field boosts fixed), each node to its full set of matches.
    struct Evaluator {
        let index: ReferenceIndex
        let boosts: [String: Double]

        func matches(_ query: Query) throws(Unsupported) -> Matches {
            switch query {
            case .matchAll:
                return Dictionary(uniqueKeysWithValues: index.docs.indices.map { ($0, 1) })
            case .term(let name, let value):
                return try term(name, value)
            case .phrase(let name, let terms, let slop):
                return try phrase(name, terms, slop: slop)
            case .phrasePrefix(let name, let terms, let maxExpansions):
                return try phrasePrefix(name, terms, maxExpansions: maxExpansions)
            case .prefix(let name, let value):
                _ = try textual(name)
                return constant(name) { doc in
                    doc.terms[name]?.keys.contains { $0.utf8.starts(with: value.utf8) } ?? false
                }
            case .regex(let name, let pattern):
                return try regex(name, pattern)
            case .wildcard(let name, let pattern):
                _ = try textual(name)
                let scalars = Array(pattern.unicodeScalars)
                return constant(name) { doc in
                    doc.terms[name]?.keys.contains { Self.wildcardMatches(scalars[...], Array($0.unicodeScalars)[...]) }
                        ?? false
                }
            case .fuzzy(let name, let value, let distance, let transpositions, let prefix, let maxExpansions):
                return try fuzzy(
                    name, value, distance, transpositions: transpositions, prefix: prefix, maxExpansions: maxExpansions)
            case .autocomplete(let name, let text, let typoTolerance):
                return try autocomplete(name, text, typoTolerance: typoTolerance)
            case .instant(let text, let fields, let tolerance):
                return try instant(text, fields: fields, tolerance: tolerance)
            case .range(let name, let lower, let upper):
                return try range(name, lower, upper)
            case .exists(let name):
                _ = try field(name, fastWillDo: true)
                return constant(name) { ($0.lengths[name] ?? 0) > 0 }
            case .moreLikeThis(let name, let text, let options):
                return try moreLikeThis(name, text, options)
            case .boolean(let clauses, let minimumShouldMatch):
                return try boolean(clauses, minimumShouldMatch: minimumShouldMatch)
            case .boost(let inner, let factor):
                return try matches(inner).mapValues { $0 * Double(factor) }
            case .constantScore(let inner, let score):
                return try matches(inner).mapValues { _ in Double(score) }
            case .parsed(let text, _):
                throw Unsupported(description: "query strings (\(text)) are not modelled")
            }
        }

        // MARK: Fields and statistics

        /// The field's entry; like the engine, it must be indexed, or, with `fastWillDo`, fast.
        func field(_ name: String, fastWillDo: Bool = false) throws(Unsupported) -> FieldEntry {
            guard let entry = index.schema.field(named: name), entry.indexed || (fastWillDo && entry.fast) else {
                throw Unsupported(description: "field '\(name)' is unknown or not searchable")
            }
            return entry
        }

        /// A text or string field: the only ones whose terms are words.
        func textual(_ name: String) throws(Unsupported) -> FieldEntry {
            let entry = try field(name)
            guard entry.type == .text || entry.type == .string else {
                throw Unsupported(description: "field '\(name)' is a \(entry.type) field, not text or string")
            }
            return entry
        }

        func boost(_ name: String) -> Double { boosts[name] ?? 1 }

        func docFreq(_ name: String, _ term: String) -> Int { index.docFreqs[name]?[term] ?? 0 }

        /// The field's distinct terms with their document frequencies.
        func dictionary(_ name: String) -> [String: Int] { index.docFreqs[name] ?? [:] }

        func idf(_ docFreq: Int) -> Double {
            let n = Double(index.docs.count)
            return log(1 + (n - Double(docFreq) + 0.5) / (Double(docFreq) + 0.5))
        }

        /// BM25 of one term (or phrase) with the given idf and frequency in document `d`, times the field boost.
        func bm25(_ name: String, idf: Double, tf: Int, _ d: Int) -> Double {
            let k1 = 1.2
            let b = 0.75
            let average = Double(index.totalTokens[name] ?? 0) / Double(index.docs.count)
            let length = Double(Self.quantizedLength(index.docs[d].lengths[name] ?? 0))
            return boost(name) * idf * (1 + k1) * Double(tf) / (Double(tf) + k1 * (1 - b + b * length / average))
        }

        /// Lucene's SmallFloat.intToByte4 round trip, written independently of the engine: exact below 24, then
        /// 3 mantissa bits over the remainder.
        static func quantizedLength(_ count: Int) -> Int {
            if count < 24 { return count }
            let rest = count - 24
            let bits = Int.bitWidth - rest.leadingZeroBitCount
            if bits < 4 { return count }
            let shift = bits - 4
            return 24 + ((rest >> shift) << shift)
        }

        /// Every document `accepts`, scoring the field boost.
        func constant(_ name: String, _ accepts: (Doc) -> Bool) -> Matches {
            var out: Matches = [:]
            for (d, doc) in index.docs.enumerated() where accepts(doc) { out[d] = boost(name) }
            return out
        }

        /// BM25 of `term` in every document holding it, with `idf` (the term's own by default) and `factor`.
        /// Basic postings (string fields) count a term once per document.
        func termScores(_ entry: FieldEntry, _ term: String, idf: Double? = nil, factor: Double = 1) -> Matches {
            let idf = idf ?? self.idf(docFreq(entry.name, term))
            var out: Matches = [:]
            for (d, doc) in index.docs.enumerated() {
                guard let positions = doc.terms[entry.name]?[term] else { continue }
                let tf = entry.record == .basic ? 1 : positions.count
                out[d] = factor * bm25(entry.name, idf: idf, tf: tf, d)
            }
            return out
        }

        static func add(_ more: Matches, to out: inout Matches) {
            out.merge(more, uniquingKeysWith: +)
        }

        // MARK: Terms and phrases

        func term(_ name: String, _ value: FieldValue) throws(Unsupported) -> Matches {
            let entry = try field(name)
            if entry.type == .text || entry.type == .string {
                guard case .text(let term) = value else {
                    throw Unsupported(description: "\(value) on \(entry.type) field '\(name)'")
                }
                return termScores(entry, term)
            }
            guard let wanted = ReferenceIndex.ordered(value, entry.type) else {
                throw Unsupported(description: "\(value) on \(entry.type) field '\(name)'")
            }
            let holders = index.docs.indices.filter { index.docs[$0].values[name]?.contains(wanted) ?? false }
            let idf = self.idf(holders.count)
            return Dictionary(uniqueKeysWithValues: holders.map { ($0, bm25(name, idf: idf, tf: 1, $0)) })
        }

        func phrase(_ name: String, _ terms: [String], slop: Int) throws(Unsupported) -> Matches {
            let entry = try field(name)
            guard slop >= 0 else { throw Unsupported(description: "negative slop") }
            guard let first = terms.first else { return [:] }
            if terms.count == 1 { return try term(name, .text(first)) }
            guard entry.type == .text, entry.record == .position else {
                throw Unsupported(description: "field '\(name)' records no positions")
            }
            let idf = terms.reduce(0.0) { $0 + self.idf(docFreq(name, $1)) }
            var out: Matches = [:]
            for (d, doc) in index.docs.enumerated() {
                let tf = Self.phraseFrequency(terms.map { doc.terms[name]?[$0] ?? [] }, slop: slop)
                if tf > 0 { out[d] = bm25(name, idf: idf, tf: tf, d) }
            }
            return out
        }

        /// The phrase frequency. Positions are taken relative to the phrase (position − the term's offset in
        /// it). Exact (slop 0): the relative positions every term shares. Sloppy: one position of each term, all
        /// within `slop` of each other, in any order (tantivy 0.27's two-term rule, applied to every length, as
        /// Docs/QUERY-SYNTAX.md and PhraseSlopTests state), counted without overlap: while the current positions
        /// do not fit, move past the lowest (the first such term on ties); when they fit, count one occurrence
        /// and move every term past it.
        static func phraseFrequency(_ positions: [[Int]], slop: Int) -> Int {
            let relative = positions.enumerated().map { k, p in p.map { $0 - k }.sorted() }
            if slop == 0 {
                let shared = relative.dropFirst().reduce(Set(relative.first ?? [])) { $0.intersection($1) }
                return shared.count
            }
            var cursors = [Int](repeating: 0, count: relative.count)
            var found = 0
            while relative.indices.allSatisfy({ cursors[$0] < relative[$0].count }) {
                let current = relative.indices.map { relative[$0][cursors[$0]] }
                let low = current.min() ?? 0
                if (current.max() ?? 0) - low <= slop {
                    found += 1
                    for i in cursors.indices { cursors[i] += 1 }
                } else if let lowest = current.firstIndex(of: low) {
                    cursors[lowest] += 1
                }
            }
            return found
        }

        /// tantivy's phrase prefix: the head words as an exact phrase with one of the last word's expansions right
        /// after an occurrence (a lone last word: any expansion), scored by the head phrase's BM25 (its idfs, its
        /// occurrences), or a constant when the head is one word or empty. The expansions are the most frequent
        /// `maxExpansions` terms starting with the last word.
        func phrasePrefix(_ name: String, _ terms: [String], maxExpansions: Int) throws(Unsupported) -> Matches {
            let entry = try textual(name)
            guard maxExpansions >= 1 else { throw Unsupported(description: "maxExpansions < 1") }
            guard let last = terms.last else { return [:] }
            if terms.count > 1, entry.type != .text || entry.record != .position {
                throw Unsupported(description: "field '\(name)' records no positions")
            }
            let expansions = dictionary(name).filter { $0.key.utf8.starts(with: last.utf8) }
                .sorted { $0.value != $1.value ? $0.value > $1.value : TermBytes($0.key) < TermBytes($1.key) }
                .prefix(maxExpansions).map(\.key)
            let head = Array(terms.dropLast())
            if head.isEmpty { return constant(name) { doc in expansions.contains { doc.terms[name]?[$0] != nil } } }
            let idf = head.reduce(0.0) { $0 + self.idf(docFreq(name, $1)) }
            var out: Matches = [:]
            for (d, doc) in index.docs.enumerated() {
                var starts = Set((doc.terms[name]?[head[0]] ?? []))
                for (k, word) in head.enumerated().dropFirst() {
                    let shifted = (doc.terms[name]?[word] ?? []).map { $0 - k }
                    starts.formIntersection(shifted)
                }
                let completed = expansions.contains { word in
                    (doc.terms[name]?[word] ?? []).contains { starts.contains($0 - head.count) }
                }
                guard completed else { continue }
                out[d] = head.count == 1 ? boost(name) : bm25(name, idf: idf, tf: starts.count, d)
            }
            return out
        }
    }
}
