/// Top-k and counting for disjunctions, the commonest query shape (`a b`, one word over several default fields,
/// `a -b`, `+a -b` where `a` spans several fields), run without the doc-at-a-time boolean scorer.
///
/// Documents are processed in windows of 4,096 (tantivy's union horizon): each positive scorer is drained up to
/// the window's end, setting a bit and adding its score per document; each excluded scorer then clears its
/// documents' bits; last, the window's set bits are visited in order. There is no per-document minimum over the
/// scorers: each posting is touched once, in a tight loop over one cursor. Generic over the scorer type, so the
/// all-terms case runs on `TermScorer` directly.
package enum Union {
    package static let windowSize = 4096

    /// The window's bits and scores, allocated on first use in a search and reused by its other segments
    /// (left zeroed after each use).
    package struct Scratch {
        var bits: [UInt64] = []
        var scores: [Float] = []

        package init() {}

        mutating func prepare(scoring: Bool) {
            if bits.isEmpty { bits = [UInt64](repeating: 0, count: Union.windowSize / 64) }
            if scoring && scores.isEmpty { scores = [Float](repeating: 0, count: Union.windowSize) }
        }
    }

    /// Feeds every document matching any of `scorers` and none of `excluded` to `top` with its summed score;
    /// returns the match count.
    package static func collect<S: Scorer>(
        _ scorers: [S], excluding excluded: [any Scorer], deleted: DeletedDocs?, segment: Int, into top: inout TopDocs,
        scratch: inout Scratch
    ) -> Int {
        var count = 0
        var threshold = top.entryThreshold
        forEachWindow(scorers, excluding: excluded, deleted: deleted, scoring: true, scratch: &scratch) { base, bits, scores in
            for word in 0..<bits.count where bits[word] != 0 {
                var w = bits[word]
                bits[word] = 0
                while w != 0 {
                    let slot = word << 6 | w.trailingZeroBitCount
                    w &= w &- 1
                    count += 1
                    if scores[slot] > threshold {
                        top.offer(scores[slot], DocAddress(segment: segment, doc: base + DocID(slot)))
                        threshold = top.entryThreshold
                    }
                    scores[slot] = 0
                }
            }
        }
        return count
    }

    /// The number of documents matching any of `scorers` and none of `excluded`, without scoring.
    package static func count<S: Scorer>(
        _ scorers: [S], excluding excluded: [any Scorer], deleted: DeletedDocs?, scratch: inout Scratch
    ) -> Int {
        var count = 0
        forEachWindow(scorers, excluding: excluded, deleted: deleted, scoring: false, scratch: &scratch) { _, bits, _ in
            for word in 0..<bits.count {
                count += bits[word].nonzeroBitCount
                bits[word] = 0
            }
        }
        return count
    }

    /// Walks the windows that hold matches: drains every scorer up to the window's end into the bits (and, when
    /// `scoring`, the summed scores), clears excluded and deleted documents, then hands the window to `consume`,
    /// which must leave the bits and scores zeroed.
    @inline(__always)
    private static func forEachWindow<S: Scorer>(
        _ scorers: [S], excluding excluded: [any Scorer], deleted: DeletedDocs?, scoring: Bool, scratch: inout Scratch,
        _ consume: (_ base: DocID, _ bits: inout [UInt64], _ scores: inout [Float]) -> Void
    ) {
        scratch.prepare(scoring: scoring)
        // Moved out, not copied, so the loops mutate uniquely owned buffers.
        var bits: [UInt64] = []
        var scores: [Float] = []
        swap(&bits, &scratch.bits)
        swap(&scores, &scratch.scores)
        defer {
            swap(&bits, &scratch.bits)
            swap(&scores, &scratch.scores)
        }
        var base = firstWindow(scorers)
        while base != terminatedDoc {
            let end = base &+ DocID(windowSize)
            var next = terminatedDoc
            for scorer in scorers {
                var doc = scorer.doc
                while doc < end {
                    let slot = Int(doc - base)
                    bits[slot >> 6] |= 1 << UInt64(slot & 63)
                    if scoring { scores[slot] += scorer.score() }
                    doc = scorer.advance()
                }
                next = min(next, doc)
            }
            exclude(excluded, from: &bits, base: base, end: end) { if scoring { scores[$0] = 0 } }
            if let deleted {
                let first = Int(base >> 6)
                for w in 0..<bits.count where bits[w] != 0 {
                    var gone = bits[w] & deleted.word(first + w)
                    bits[w] &= ~gone
                    while scoring && gone != 0 {
                        scores[w << 6 | gone.trailingZeroBitCount] = 0
                        gone &= gone &- 1
                    }
                }
            }
            consume(base, &bits, &scores)
            base = next == terminatedDoc ? terminatedDoc : next & ~DocID(windowSize - 1)
        }
    }

    private static func firstWindow<S: Scorer>(_ scorers: [S]) -> DocID {
        let first = scorers.reduce(terminatedDoc) { min($0, $1.doc) }
        return first == terminatedDoc ? terminatedDoc : first & ~DocID(windowSize - 1)
    }

    /// Clears the bits of the window's excluded documents, calling `cleared` with each slot.
    private static func exclude(
        _ excluded: [any Scorer], from bits: inout [UInt64], base: DocID, end: DocID, _ cleared: (Int) -> Void
    ) {
        for scorer in excluded {
            var doc = scorer.doc < base ? scorer.seek(base) : scorer.doc
            while doc < end {
                let slot = Int(doc - base)
                bits[slot >> 6] &= ~(1 << UInt64(slot & 63))
                cleared(slot)
                doc = scorer.advance()
            }
        }
    }
}

/// Lets scorers of mixed types share one generic `Union` loop (one extra call per document).
package final class AnyScorer: Scorer {
    private let inner: any Scorer
    package init(_ inner: any Scorer) { self.inner = inner }
    package var doc: DocID { inner.doc }
    package func advance() -> DocID { inner.advance() }
    package func seek(_ target: DocID) -> DocID { inner.seek(target) }
    package func score() -> Float { inner.score() }
}

extension Weight {
    /// The terms of a disjunction made only of term queries, at any nesting of should-only booleans and boosts
    /// (a boost folds into the term's BM25 weight); nil for any other shape. Nesting does not change the result:
    /// a document matches when any term does and scores the sum of the matching terms.
    package var termDisjunction: [TermWeight]? {
        switch self {
        case .term(let term):
            return [term]
        case .boost(let inner, let factor):
            return inner.termDisjunction?.map { term in
                var boosted = term
                boosted.bm25 = term.bm25.boosted(by: factor)
                return boosted
            }
        case .boolean(let b) where b.must.isEmpty && b.mustNot.isEmpty && !b.should.isEmpty && b.minimumShouldMatch <= 1:
            var terms: [TermWeight] = []
            for clause in b.should {
                guard let inner = clause.termDisjunction else { return nil }
                terms += inner
            }
            return terms
        default:
            return nil
        }
    }

    /// The weight as "any of these, none of those", when it has that shape: a should-only boolean (with or
    /// without exclusions), or one `must` clause with exclusions. Nil for everything else.
    package var unionPlan: (positives: [Weight], excluded: [Weight])? {
        guard case .boolean(let b) = self else { return nil }
        if b.must.isEmpty && !b.should.isEmpty && b.minimumShouldMatch <= 1 { return (b.should, b.mustNot) }
        if b.must.count == 1 && b.should.isEmpty && !b.mustNot.isEmpty { return (b.must, b.mustNot) }
        return nil
    }

    /// Runs `body` with this weight's union scorers on one segment: `TermScorer`s when every positive clause is a
    /// term disjunction, boxed scorers otherwise. Nil when the weight has no union plan.
    package func withUnion<R>(
        _ segment: SegmentReader, ordinal: Int,
        _ body: (_ terms: [TermScorer]?, _ mixed: [AnyScorer], _ excluded: [any Scorer]) -> R
    ) -> R? {
        guard let plan = unionPlan else { return nil }
        let excluded = plan.excluded.map { $0.scorer(segment, ordinal: ordinal) }.filter { $0.doc != terminatedDoc }
        var terms: [TermWeight] = []
        for positive in plan.positives {
            guard let inner = positive.termDisjunction else {
                let mixed = plan.positives.map { AnyScorer($0.scorer(segment, ordinal: ordinal)) }
                return body(nil, mixed.filter { $0.doc != terminatedDoc }, excluded)
            }
            terms += inner
        }
        return body(terms.compactMap { $0.scorer(segment, ordinal: ordinal) }, [], excluded)
    }
}
