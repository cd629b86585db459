/// Building a segment's scorer tree from a weight: the query plan. Clauses that cannot match in the segment are
/// dropped (a required one empties the tree), nested disjunctions are flattened into one union, a union of terms
/// gets `TermScorer` children directly, and a conjunction leads with its cheapest clause. Without scores, clauses
/// that only add to the score are left out.
extension Weight {
    /// The scorer of this weight on `segment`, the searcher's segment number `ordinal`.
    /// - Parameters:
    ///   - scoring: false when only the matches are wanted (counts, deletes); scorers then skip every score
    ///     computation.
    ///   - scratch: where unions take their windows from.
    package func scorer(_ segment: SegmentReader, ordinal: Int, scoring: Bool, scratch: ScorerScratch) -> any Scorer {
        switch self {
        case .all(let score):
            return AllScorer(maxDoc: segment.maxDoc, score: score, scoring: scoring)
        case .empty:
            return EmptyScorer()
        case .term(let term):
            return term.scorer(segment, ordinal: ordinal, scoring: scoring) ?? EmptyScorer()
        case .phrase(let phrase):
            return phrase.scorer(segment, ordinal: ordinal, scoring: scoring) ?? EmptyScorer()
        case .phrasePrefix(let prefix):
            return prefix.scorer(segment, ordinal: ordinal, scoring: scoring) ?? EmptyScorer()
        case .boolean(let boolean):
            return boolean.scorer(segment, ordinal: ordinal, scoring: scoring, scratch: scratch)
        case .constant(.docSet(let set, _), let score):
            return set.scorer(segment, ordinal: ordinal, score: score, scoring: scoring, scratch: scratch)
        case .constant(let inner, let score):
            let matches = inner.scorer(segment, ordinal: ordinal, scoring: false, scratch: scratch)
            if matches.doc == terminatedDoc { return EmptyScorer() }
            return scoring ? ConstantScorer(matches, score: score, scoring: true) : matches
        case .docSet(let set, let score):
            return set.scorer(segment, ordinal: ordinal, score: score, scoring: scoring, scratch: scratch)
        case .tiered(let tiers):
            guard scoring else {
                let union = BooleanWeight(must: [], should: tiers.map(\.weight), mustNot: [], minimumShouldMatch: 1)
                return union.scorer(segment, ordinal: ordinal, scoring: false, scratch: scratch)
            }
            var children: [(scorer: any Scorer, bonus: Float)] = []
            for tier in tiers {
                let s = tier.weight.scorer(segment, ordinal: ordinal, scoring: true, scratch: scratch)
                if s.doc != terminatedDoc { children.append((s, tier.bonus)) }
            }
            if children.isEmpty { return EmptyScorer() }
            return TieredScorer(children)
        }
    }

    /// The clauses of a disjunction that can be merged into an enclosing one: a should-only boolean needing one
    /// match, at any depth. Nesting does not change a union's result: a document matches when any leaf does and
    /// scores the sum of the matching leaves.
    fileprivate var disjuncts: [Weight] {
        guard case .boolean(let b) = self, b.must.isEmpty, b.mustNot.isEmpty, b.minimumShouldMatch <= 1 else {
            return [self]
        }
        return b.should.flatMap(\.disjuncts)
    }
}

extension Weight.TermWeight {
    /// The term's scorer on one segment, nil when the segment lacks the term.
    package func scorer(_ segment: SegmentReader, ordinal: Int, scoring: Bool) -> TermScorer? {
        guard let info = infos[ordinal], info.docFreq > 0 else { return nil }
        let postings = unsafe PostingsCursor(
            file: segment.postings.bytes, info: info, hasFreqs: hasFreqs, maxDoc: segment.maxDoc)
        return TermScorer(postings: postings, norms: segment.norms.column(field), bm25: bm25, scoring: scoring)
    }
}

extension Weight.PhraseWeight {
    /// The phrase's scorer on one segment, nil when the segment lacks one of its terms.
    func scorer(_ segment: SegmentReader, ordinal: Int, scoring: Bool, recordsStarts: Bool = false) -> PhraseScorer? {
        var members: [(postings: PostingsCursor, positions: PositionsCursor, offset: UInt32)] = []
        for term in terms {
            guard let info = term.infos[ordinal] else { return nil }
            let postings = unsafe PostingsCursor(
                file: segment.postings.bytes, info: info, hasFreqs: true, maxDoc: segment.maxDoc)
            let positions = unsafe PositionsCursor(file: segment.positions.bytes, offset: info.positionsOffset)
            members.append((postings, positions, term.offset))
        }
        return PhraseScorer(
            terms: members, slop: slop, norms: segment.norms.column(field), bm25: bm25, scoring: scoring,
            recordsStarts: recordsStarts)
    }
}

extension Weight.PhrasePrefixWeight {
    /// The scorer on one segment, nil when the segment lacks a head word or every expansion.
    func scorer(_ segment: SegmentReader, ordinal: Int, scoring: Bool) -> PhrasePrefixScorer? {
        guard !suffixes[ordinal].isEmpty,
            let phrase = head.scorer(segment, ordinal: ordinal, scoring: scoring, recordsStarts: true)
        else {
            return nil
        }
        let cursors = suffixes[ordinal].map { info in
            unsafe (
                PostingsCursor(file: segment.postings.bytes, info: info, hasFreqs: true, maxDoc: segment.maxDoc),
                PositionsCursor(file: segment.positions.bytes, offset: info.positionsOffset)
            )
        }
        return PhrasePrefixScorer(
            head: phrase, suffixes: cursors, suffixOffset: suffixOffset, constant: constant, scoring: scoring)
    }
}

extension Weight.BooleanWeight {
    func scorer(_ segment: SegmentReader, ordinal: Int, scoring: Bool, scratch: ScorerScratch) -> any Scorer {
        var required: [any Scorer] = []
        for clause in must {
            let s = clause.scorer(segment, ordinal: ordinal, scoring: scoring, scratch: scratch)
            if s.doc == terminatedDoc { return EmptyScorer() }
            required.append(s)
        }
        let needed = must.isEmpty ? max(1, minimumShouldMatch) : minimumShouldMatch
        let excluded = mustNot.map { $0.scorer(segment, ordinal: ordinal, scoring: false, scratch: scratch) }.filter {
            $0.doc != terminatedDoc
        }
        if required.isEmpty {
            let flattened = needed == 1 ? should.flatMap(\.disjuncts) : should
            return Self.union(flattened, needed: needed, excluding: excluded, segment, ordinal, scoring, scratch)
        }
        // With required clauses and no minimum, optional clauses only add to the score.
        let optional =
            needed == 0 && !scoring
            ? []
            : should.map { $0.scorer(segment, ordinal: ordinal, scoring: scoring, scratch: scratch) }.filter {
                $0.doc != terminatedDoc
            }
        if optional.count < needed { return EmptyScorer() }
        if required.count == 1 && optional.isEmpty && excluded.isEmpty { return required[0] }
        return ConjunctionScorer(
            required: required, optional: optional, minimumShouldMatch: needed, excluding: excluded, scoring: scoring)
    }

    /// At least `needed` of `clauses`: a union, on `TermScorer`s directly when every clause is a term.
    private static func union(
        _ clauses: [Weight], needed: Int, excluding excluded: [any Scorer], _ segment: SegmentReader, _ ordinal: Int,
        _ scoring: Bool, _ scratch: ScorerScratch
    ) -> any Scorer {
        var terms: [TermScorer] = []
        var allTerms = true
        for clause in clauses {
            guard case .term(let term) = clause else {
                allTerms = false
                break
            }
            if let s = term.scorer(segment, ordinal: ordinal, scoring: scoring) { terms.append(s) }
        }
        if allTerms {
            if terms.count < needed || terms.isEmpty { return EmptyScorer() }
            if terms.count == 1 && excluded.isEmpty { return terms[0] }
            return TermUnionScorer(
                terms, excluding: excluded, minimumShouldMatch: needed, scoring: scoring, scratch: scratch)
        }
        let scorers = clauses.map { $0.scorer(segment, ordinal: ordinal, scoring: scoring, scratch: scratch) }.filter {
            $0.doc != terminatedDoc
        }
        if scorers.count < needed || scorers.isEmpty { return EmptyScorer() }
        if scorers.count == 1 && excluded.isEmpty { return scorers[0] }
        return UnionScorer(scorers, excluding: excluded, minimumShouldMatch: needed, scoring: scoring, scratch: scratch)
    }
}
