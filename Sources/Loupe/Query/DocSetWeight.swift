import LoupeCodec

/// A constant-score query resolved to the documents it matches in each segment: a union of term postings
/// (expanded prefix, regex, wildcard and term-range queries, exists on fields without fast values), a range
/// read per segment from postings or a fast column, or an exists test on a fast column or a text field's norms.
package enum DocSetWeight: Sendable {
    /// Documents holding any of the terms; `infos[i]` are the terms found in segment i.
    case terms(field: Int, hasFreqs: Bool, infos: [[TermInfo]])
    /// Documents with a value in `lower...upper` (mapped values): in segment i from the fast column when
    /// `fromColumn[i]`, otherwise from the postings of the terms in the range, looked up when the segment's scorer is
    /// built (a count the dictionary answers never needs them).
    case range(field: Int, hasFreqs: Bool, lower: UInt64, upper: UInt64, fromColumn: [Bool])
    /// Documents of a string column holding an ordinal of `ordinals[i]` in segment i (a range over a fast string
    /// field that is not indexed).
    case columnRange(field: Int, ordinals: [ClosedRange<UInt64>?])
    /// Documents with at least one fast value.
    case fastExists(field: Int)
    /// Documents with at least one token in a text field.
    case normsExist(field: Int)

    /// The set's matches in one segment when the term dictionary tells them without a posting read: nothing is
    /// deleted and no document holds two of the field's terms (a single-valued keyword or numeric field), so the
    /// documents holding any of the terms number the sum of their docFreqs — Lucene counts a range on a
    /// single-valued field from its points the same way. Nil otherwise.
    /// - Throws: `IndexError` `.corruption` when the dictionary, walked for a range read from the fast column, is
    ///   damaged.
    package func shortcutCount(_ segment: SegmentReader, ordinal: Int) throws(IndexError) -> Int? {
        guard segment.deleted == nil else { return nil }
        switch self {
        case .terms(let field, _, let infos):
            guard segment.terms.field(field)?.isSingleValued == true else { return nil }
            return infos[ordinal].reduce(0) { $0 + Int($1.docFreq) }
        case .range(let field, _, let lower, let upper, _):
            guard let dictionary = segment.terms.field(field), dictionary.isSingleValued else { return nil }
            return try segment.readingTerms { (_) throws(FormatError) in
                Int(
                    try dictionary.docFreqSum(
                        from: NumericMapping.termBytes(lower), through: NumericMapping.termBytes(upper)
                    )
                    .docFreqs)
            }
        case .columnRange, .fastExists, .normsExist:
            return nil
        }
    }

    /// Sets of at most this many terms are read lazily, as a union of their postings, instead of into a bit set
    /// (Lucene rewrites multi-term queries of up to 16 terms to a boolean query for the same reason): a top-k that
    /// needs no count then reads only as far as its first k documents, and a conjunction only what it probes.
    static let lazyTermLimit = 16

    /// The set's scorer in one segment, every document scoring `score`. A fast-column range and a set of few terms
    /// are read lazily, so inside a conjunction they only look at the documents the other clauses propose.
    package func scorer(
        _ segment: SegmentReader, ordinal: Int, score: Float, scoring: Bool, scratch: ScorerScratch
    ) -> any Scorer {
        var lazyTerms: (infos: [TermInfo], hasFreqs: Bool)?
        switch self {
        case .range(let field, _, let lower, let upper, let fromColumn) where fromColumn[ordinal]:
            guard let column = segment.fast.column(field) else { return EmptyScorer() }
            return FastRangeScorer(
                column: column, lower: lower, upper: upper, maxDoc: segment.maxDoc, score: score, scoring: scoring)
        case .range(let field, let hasFreqs, let lower, let upper, _):
            do {
                lazyTerms = (try Self.terms(of: field, lower, upper, in: segment), hasFreqs)
            } catch {
                return BitSetScorer(
                    DocBitSet(maxDoc: 0), score: score, scoring: scoring, damage: SegmentDamage(.terms, error))
            }
        case .terms(_, let hasFreqs, let infos):
            lazyTerms = (infos[ordinal], hasFreqs)
        case .columnRange(let field, let ordinals):
            guard let column = segment.fast.column(field), let bounds = ordinals[ordinal] else { return EmptyScorer() }
            return FastRangeScorer(
                column: column, lower: bounds.lowerBound, upper: bounds.upperBound, maxDoc: segment.maxDoc,
                score: score,
                scoring: scoring)
        case .fastExists, .normsExist:
            break
        }
        if let (infos, hasFreqs) = lazyTerms, infos.count <= Self.lazyTermLimit {
            let postings = infos.filter { $0.docFreq > 0 }.map { info in
                TermScorer(
                    matching: unsafe PostingsCursor(
                        file: segment.postings.bytes, info: info, hasFreqs: hasFreqs, maxDoc: segment.maxDoc))
            }
            guard let first = postings.first else { return EmptyScorer() }
            let matches: any Scorer =
                postings.count == 1
                ? first
                : TermUnionScorer(postings, excluding: [], minimumShouldMatch: 1, scoring: false, scratch: scratch)
            return scoring ? ConstantScorer(matches, score: score, scoring: true) : matches
        }
        let (bits, damage) = bits(segment, ordinal: ordinal, terms: lazyTerms?.infos ?? [])
        return BitSetScorer(bits, score: score, scoring: scoring, damage: damage)
    }

    /// The infos of a field's terms in `lower...upper` (mapped values) in one segment.
    private static func terms(
        of field: Int, _ lower: UInt64, _ upper: UInt64, in segment: SegmentReader
    ) throws(FormatError)
        -> [TermInfo]
    {
        var infos: [TermInfo] = []
        unsafe try segment.terms.field(field)?.forEachTerm(
            from: NumericMapping.termBytes(lower), includingLower: true, to: NumericMapping.termBytes(upper),
            includingUpper: true
        ) { _, info in
            infos.append(info)
            return true
        }
        return infos
    }

    /// The set's documents in one segment, from postings (`terms`: a range's, looked up), norms or a fast column's
    /// presence, and the first damage found in the postings read.
    private func bits(
        _ segment: SegmentReader, ordinal: Int, terms rangeTerms: [TermInfo]
    ) -> (DocBitSet, SegmentDamage?) {
        var bits = DocBitSet(maxDoc: segment.maxDoc)
        var damage: SegmentDamage?
        func insert(_ infos: [TermInfo], hasFreqs: Bool) {
            for info in infos {
                let postings = unsafe PostingsCursor(
                    file: segment.postings.bytes, info: info, hasFreqs: hasFreqs, maxDoc: segment.maxDoc)
                bits.insert(postings)
                damage = damage ?? postings.damage
            }
        }
        switch self {
        case .terms(_, let hasFreqs, let infos):
            insert(infos[ordinal], hasFreqs: hasFreqs)
        case .range(_, let hasFreqs, _, _, _):
            insert(rangeTerms, hasFreqs: hasFreqs)
        case .fastExists(let field):
            guard let column = segment.fast.column(field) else { break }
            for doc in 0..<DocID(segment.maxDoc) where !column.valueRange(doc).isEmpty { bits.insert(doc) }
        case .columnRange:
            break
        case .normsExist(let field):
            guard let norms = segment.norms.column(field) else { break }
            for doc in 0..<DocID(segment.maxDoc) where norms.code(doc) != 0 { bits.insert(doc) }
        }
        return (bits, damage)
    }
}
