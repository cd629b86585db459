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

    /// Sets of at most this many terms are read lazily, as a union of their postings, instead of into a bit set
    /// (Lucene rewrites multi-term queries of up to 16 terms to a boolean query for the same reason): a top-k that
    /// needs no count then reads only as far as its first k documents, and a conjunction only what it probes.
    static let lazyTermLimit = 16

    /// The set's scorer in one segment, every document scoring `score`. A fast-column range and a set of few terms
    /// are read lazily, so inside a conjunction they only look at the documents the other clauses propose.
    package func scorer(_ segment: SegmentReader, ordinal: Int, score: Float, scoring: Bool, scratch: ScorerScratch) -> any Scorer {
        var lazyTerms: (infos: [TermInfo], hasFreqs: Bool)?
        switch self {
        case .range(let field, _, let lower, let upper, let terms) where terms[ordinal] == nil:
            guard let column = segment.fast.column(field) else { return EmptyScorer() }
            return FastRangeScorer(column: column, lower: lower, upper: upper, maxDoc: segment.maxDoc, score: score, scoring: scoring)
        case .range(_, let hasFreqs, _, _, let terms):
            lazyTerms = (terms[ordinal] ?? [], hasFreqs)
        case .terms(_, let hasFreqs, let infos):
            lazyTerms = (infos[ordinal], hasFreqs)
        case .fastExists, .normsExist:
            break
        }
        if let (infos, hasFreqs) = lazyTerms, infos.count <= Self.lazyTermLimit {
            let postings = infos.filter { $0.docFreq > 0 }.map { info in
                TermScorer(
                    matching: unsafe PostingsCursor(file: segment.postings.bytes, info: info, hasFreqs: hasFreqs, maxDoc: segment.maxDoc))
            }
            guard let first = postings.first else { return EmptyScorer() }
            let matches: any Scorer = postings.count == 1
                ? first : TermUnionScorer(postings, excluding: [], minimumShouldMatch: 1, scoring: false, scratch: scratch)
            return scoring ? ConstantScorer(matches, score: score, scoring: true) : matches
        }
        let (bits, damage) = bits(segment, ordinal: ordinal)
        return BitSetScorer(bits, score: score, scoring: scoring, damage: damage)
    }

    /// The set's documents in one segment, from postings, norms or a fast column's presence, and the first damage
    /// found in the postings read.
    private func bits(_ segment: SegmentReader, ordinal: Int) -> (DocBitSet, SegmentDamage?) {
        var bits = DocBitSet(maxDoc: segment.maxDoc)
        var damage: SegmentDamage?
        func insert(_ infos: [TermInfo], hasFreqs: Bool) {
            for info in infos {
                let postings = unsafe PostingsCursor(file: segment.postings.bytes, info: info, hasFreqs: hasFreqs, maxDoc: segment.maxDoc)
                bits.insert(postings)
                damage = damage ?? postings.damage
            }
        }
        switch self {
        case .terms(_, let hasFreqs, let infos):
            insert(infos[ordinal], hasFreqs: hasFreqs)
        case .range(_, let hasFreqs, _, _, let terms):
            insert(terms[ordinal] ?? [], hasFreqs: hasFreqs)
        case .fastExists(let field):
            guard let column = segment.fast.column(field) else { break }
            for doc in 0..<DocID(segment.maxDoc) where !column.range(doc).isEmpty { bits.insert(doc) }
        case .normsExist(let field):
            guard let norms = segment.norms.column(field) else { break }
            for doc in 0..<DocID(segment.maxDoc) where norms.code(doc) != 0 { bits.insert(doc) }
        }
        return (bits, damage)
    }
}

