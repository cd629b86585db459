/// A query resolved against one searcher: field names are ordinals, terms are bytes, and BM25 statistics are
/// global (summed over the searcher's segments). Builds one scorer per segment.
package indirect enum Weight: Sendable {
    case all(score: Float)
    case empty
    case term(field: Int, term: [UInt8], bm25: BM25Weight, hasFreqs: Bool)
    case phrase(field: Int, terms: [(bytes: [UInt8], offset: UInt32)], bm25: BM25Weight)
    case boolean(must: [Weight], should: [Weight], mustNot: [Weight])
    case boost(Weight, Float)

    /// The scorer of this weight on `segment`.
    package func scorer(_ segment: SegmentReader) -> any Scorer {
        switch self {
        case .all(let score):
            return AllScorer(maxDoc: segment.maxDoc, score: score)
        case .empty:
            return EmptyScorer()
        case .term(let field, let term, let bm25, let hasFreqs):
            guard let cursor = postings(segment, field: field, term: term, hasFreqs: hasFreqs) else { return EmptyScorer() }
            return TermScorer(postings: cursor.postings, norms: segment.norms.column(field), bm25: bm25)
        case .phrase(let field, let terms, let bm25):
            var members: [(postings: PostingsCursor, positions: PositionsCursor, offset: UInt32)] = []
            for term in terms {
                guard let found = postings(segment, field: field, term: term.bytes, hasFreqs: true) else {
                    return EmptyScorer()
                }
                let positions = unsafe PositionsCursor(file: segment.positions.bytes, offset: found.info.positionsOffset)
                members.append((found.postings, positions, term.offset))
            }
            return PhraseScorer(terms: members, norms: segment.norms.column(field), bm25: bm25)
        case .boolean(let must, let should, let mustNot):
            let mustScorers = must.map { $0.scorer(segment) }
            if mustScorers.contains(where: { $0.doc == terminatedDoc }) { return EmptyScorer() }
            let shouldScorers = should.map { $0.scorer(segment) }.filter { $0.doc != terminatedDoc }
            if mustScorers.isEmpty && shouldScorers.isEmpty { return EmptyScorer() }
            let mustNotScorers = mustNot.map { $0.scorer(segment) }.filter { $0.doc != terminatedDoc }
            if mustScorers.count + shouldScorers.count == 1 && mustNotScorers.isEmpty {
                return mustScorers.first ?? shouldScorers[0]
            }
            return BooleanScorer(must: mustScorers, should: shouldScorers, mustNot: mustNotScorers)
        case .boost(let inner, let factor):
            return boosted(inner.scorer(segment), factor)
        }
    }

    private func boosted<S: Scorer>(_ inner: S, _ factor: Float) -> any Scorer {
        BoostScorer(inner, factor: factor)
    }

    private func postings(_ segment: SegmentReader, field: Int, term: [UInt8], hasFreqs: Bool)
        -> (postings: PostingsCursor, info: TermInfo)?
    {
        guard let info = segment.terms.field(field)?.get(term), info.docFreq > 0 else { return nil }
        return unsafe (PostingsCursor(file: segment.postings.bytes, info: info, hasFreqs: hasFreqs), info)
    }
}
