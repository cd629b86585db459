/// A constant-score query resolved to the documents it matches in each segment: a union of term postings
/// (expanded prefix, regex, wildcard and term-range queries, exists on fields without fast values), a range
/// read per segment from postings or a fast column, or an exists test on a fast column or a text field's norms.
package enum DocSetWeight: Sendable {
    /// Documents holding any of the terms; `infos[i]` are the terms found in segment i.
    case terms(field: Int, hasFreqs: Bool, infos: [[TermInfo]])
    /// Documents with a value in `lower...upper` (mapped values): in segment i from the postings of `terms[i]`,
    /// or, where that is nil, from the fast column.
    case range(field: Int, hasFreqs: Bool, lower: UInt64, upper: UInt64, terms: [[TermInfo]?])
    /// Documents with at least one fast value.
    case fastExists(field: Int)
    /// Documents with at least one token in a text field.
    case normsExist(field: Int)

    /// The set's scorer in one segment, every document scoring `score`. A fast-column range is read lazily, so
    /// inside a conjunction it only looks at the documents the other clauses propose.
    package func scorer(_ segment: SegmentReader, ordinal: Int, score: Float) -> any Scorer {
        if case .range(let field, _, let lower, let upper, let terms) = self, terms[ordinal] == nil {
            guard let column = segment.fast.column(field) else { return EmptyScorer() }
            return FastRangeScorer(column: column, lower: lower, upper: upper, maxDoc: segment.maxDoc, score: score)
        }
        return BitSetScorer(bits(segment, ordinal: ordinal), score: score)
    }

    /// The number of documents of the set in one segment.
    package func count(_ segment: SegmentReader, ordinal: Int) -> Int {
        let deleted = segment.deleted
        if case .range(let field, _, let lower, let upper, let terms) = self, terms[ordinal] == nil {
            guard let column = segment.fast.column(field) else { return 0 }
            return (0..<DocID(segment.maxDoc)).reduce(0) {
                $0 + (column.holds($1, in: lower, upper) && deleted?.contains($1) != true ? 1 : 0)
            }
        }
        let set = bits(segment, ordinal: ordinal)
        guard let deleted else { return set.count }
        return set.words.indices.reduce(0) { $0 + (set.words[$1] & ~deleted.word($1)).nonzeroBitCount }
    }

    /// The set's documents in one segment, from postings, norms or a fast column's presence.
    private func bits(_ segment: SegmentReader, ordinal: Int) -> DocBitSet {
        var bits = DocBitSet(maxDoc: segment.maxDoc)
        switch self {
        case .terms(_, let hasFreqs, let infos):
            for info in infos[ordinal] {
                bits.insert(unsafe PostingsCursor(file: segment.postings.bytes, info: info, hasFreqs: hasFreqs))
            }
        case .range(_, let hasFreqs, _, _, let terms):
            for info in terms[ordinal] ?? [] {
                bits.insert(unsafe PostingsCursor(file: segment.postings.bytes, info: info, hasFreqs: hasFreqs))
            }
        case .fastExists(let field):
            guard let column = segment.fast.column(field) else { break }
            for doc in 0..<DocID(segment.maxDoc) where !column.range(doc).isEmpty { bits.insert(doc) }
        case .normsExist(let field):
            guard let norms = segment.norms.column(field) else { break }
            for doc in 0..<DocID(segment.maxDoc) where norms.code(doc) != 0 { bits.insert(doc) }
        }
        return bits
    }
}

extension FastColumn {
    /// Whether one of `doc`'s values lies in `lower...upper`.
    @inline(__always) func holds(_ doc: DocID, in lower: UInt64, _ upper: UInt64) -> Bool {
        for i in range(doc) where value(at: i) &- lower <= upper &- lower { return true }
        return false
    }
}

/// The documents of a segment whose fast value lies in a range, found by reading the column forward from the
/// position asked for (tantivy's fast-field range scorer, without its look-ahead window).
package final class FastRangeScorer: Scorer {
    private let column: FastColumn
    private let lower: UInt64
    private let upper: UInt64
    private let maxDoc: DocID
    private let constant: Float
    package private(set) var doc: DocID = 0

    init(column: FastColumn, lower: UInt64, upper: UInt64, maxDoc: Int, score: Float) {
        self.column = column
        self.lower = lower
        self.upper = upper
        self.maxDoc = DocID(maxDoc)
        self.constant = score
        doc = next(from: 0)
    }

    private func next(from start: DocID) -> DocID {
        var d = start
        while d < maxDoc {
            if column.holds(d, in: lower, upper) { return d }
            d += 1
        }
        return terminatedDoc
    }

    package func advance() -> DocID {
        guard doc != terminatedDoc else { return doc }
        doc = next(from: doc + 1)
        return doc
    }

    package func seek(_ target: DocID) -> DocID {
        guard doc < target else { return doc }
        doc = next(from: target)
        return doc
    }

    package func score() -> Float { constant }
}
