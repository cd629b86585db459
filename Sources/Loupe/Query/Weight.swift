/// A query resolved against one searcher: field names are ordinals, terms are looked up once in every segment
/// (their `TermInfo`s kept, one per segment in search order), multi-term queries are expanded, and BM25
/// statistics are global (summed over the searcher's segments). Builds one scorer per segment.
package indirect enum Weight: Sendable {
    case all(score: Float)
    case empty
    case term(TermWeight)
    case phrase(PhraseWeight)
    case boolean(BooleanWeight)
    case boost(Weight, Float)
    /// The inner weight's matches, each scoring the constant.
    case constant(Weight, Float)
    /// A set of documents read into a bitset per segment, each scoring the constant.
    case docSet(DocSetWeight, score: Float)

    /// One term of one field, with where it lives in each segment.
    package struct TermWeight: Sendable {
        package var field: Int
        package var hasFreqs: Bool
        package var bm25: BM25Weight
        /// The term's info in segment i, nil where the segment lacks the term.
        package var infos: [TermInfo?]
    }

    /// One term of a phrase: its position in the phrase and its info per segment.
    package struct PhraseTerm: Sendable {
        package var offset: UInt32
        package var infos: [TermInfo?]
    }

    /// Terms at relative positions, each pair of neighbours at most `slop` positions further apart than in the phrase.
    package struct PhraseWeight: Sendable {
        package var field: Int
        package var terms: [PhraseTerm]
        package var slop: UInt32
        package var bm25: BM25Weight
    }

    /// Clauses by occurrence. Without `must`, at least `max(1, minimumShouldMatch)` of `should` must match;
    /// with `must`, at least `minimumShouldMatch`.
    package struct BooleanWeight: Sendable {
        package var must: [Weight]
        package var should: [Weight]
        package var mustNot: [Weight]
        package var minimumShouldMatch: Int
    }

    /// The scorer of this weight on `segment`, the searcher's segment number `ordinal`.
    package func scorer(_ segment: SegmentReader, ordinal: Int) -> any Scorer {
        switch self {
        case .all(let score):
            return AllScorer(maxDoc: segment.maxDoc, score: score)
        case .empty:
            return EmptyScorer()
        case .term(let term):
            guard let scorer = term.scorer(segment, ordinal: ordinal) else { return EmptyScorer() }
            return scorer
        case .phrase(let phrase):
            return phrase.scorer(segment, ordinal: ordinal) ?? EmptyScorer()
        case .boolean(let boolean):
            return boolean.scorer(segment, ordinal: ordinal)
        case .boost(let inner, let factor):
            return boosted(inner.scorer(segment, ordinal: ordinal), factor)
        case .constant(let inner, let score):
            return constant(inner.scorer(segment, ordinal: ordinal), score)
        case .docSet(let set, let score):
            return set.scorer(segment, ordinal: ordinal, score: score)
        }
    }

    /// Live matches in one segment. Without deletions a term's count is its document frequency, so counting a
    /// term query reads no postings; a document set counts its bits; everything else walks its scorer.
    package func count(_ segment: SegmentReader, ordinal: Int, scratch: inout Union.Scratch) -> Int {
        let deleted = segment.deleted
        switch self {
        case .all: return segment.liveCount
        case .empty: return 0
        case .term(let term) where deleted == nil: return Int(term.infos[ordinal]?.docFreq ?? 0)
        case .boost(let inner, _), .constant(let inner, _): return inner.count(segment, ordinal: ordinal, scratch: &scratch)
        case .docSet(let set, _): return set.count(segment, ordinal: ordinal)
        case .boolean:
            let unioned = withUnion(segment, ordinal: ordinal) { terms, mixed, excluded in
                if let terms { return Union.count(terms, excluding: excluded, deleted: deleted, scratch: &scratch) }
                return Union.count(mixed, excluding: excluded, deleted: deleted, scratch: &scratch)
            }
            return unioned ?? countDocs(scorer(segment, ordinal: ordinal), deleted: deleted)
        case .term, .phrase: return countDocs(scorer(segment, ordinal: ordinal), deleted: deleted)
        }
    }

    private func boosted<S: Scorer>(_ inner: S, _ factor: Float) -> any Scorer {
        BoostScorer(inner, factor: factor)
    }

    private func constant<S: Scorer>(_ inner: S, _ score: Float) -> any Scorer {
        ConstantScorer(inner, score: score)
    }
}

extension Weight.TermWeight {
    /// The term's scorer on one segment, nil when the segment lacks the term.
    package func scorer(_ segment: SegmentReader, ordinal: Int) -> TermScorer? {
        guard let info = infos[ordinal], info.docFreq > 0 else { return nil }
        let postings = unsafe PostingsCursor(file: segment.postings.bytes, info: info, hasFreqs: hasFreqs)
        return TermScorer(postings: postings, norms: segment.norms.column(field), bm25: bm25)
    }
}

extension Weight.PhraseWeight {
    /// The phrase's scorer on one segment, nil when the segment lacks one of its terms.
    func scorer(_ segment: SegmentReader, ordinal: Int) -> PhraseScorer? {
        var members: [(postings: PostingsCursor, positions: PositionsCursor, offset: UInt32)] = []
        for term in terms {
            guard let info = term.infos[ordinal] else { return nil }
            let postings = unsafe PostingsCursor(file: segment.postings.bytes, info: info, hasFreqs: true)
            let positions = unsafe PositionsCursor(file: segment.positions.bytes, offset: info.positionsOffset)
            members.append((postings, positions, term.offset))
        }
        return PhraseScorer(terms: members, slop: slop, norms: segment.norms.column(field), bm25: bm25)
    }
}

extension Weight.BooleanWeight {
    func scorer(_ segment: SegmentReader, ordinal: Int) -> any Scorer {
        let mustScorers = must.map { $0.scorer(segment, ordinal: ordinal) }
        if mustScorers.contains(where: { $0.doc == terminatedDoc }) { return EmptyScorer() }
        let shouldScorers = should.map { $0.scorer(segment, ordinal: ordinal) }.filter { $0.doc != terminatedDoc }
        let required = mustScorers.isEmpty ? max(1, minimumShouldMatch) : minimumShouldMatch
        if mustScorers.isEmpty && shouldScorers.isEmpty || shouldScorers.count < required { return EmptyScorer() }
        let mustNotScorers = mustNot.map { $0.scorer(segment, ordinal: ordinal) }.filter { $0.doc != terminatedDoc }
        if mustScorers.count + shouldScorers.count == 1 && mustNotScorers.isEmpty {
            return mustScorers.first ?? shouldScorers[0]
        }
        return BooleanScorer(must: mustScorers, should: shouldScorers, mustNot: mustNotScorers, minimumShouldMatch: required)
    }
}
