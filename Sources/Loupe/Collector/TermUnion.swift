/// Top-k and counting for a disjunction of plain terms (`a b`, or one word over several default fields): the
/// commonest query shape, run without the generic boolean scorer.
///
/// Documents are processed in windows of 4,096 (tantivy's union horizon): each term's postings are drained up to
/// the window's end, setting a bit and adding its BM25 score per document; then the window's set bits are
/// visited in order. No per-document minimum over the terms and no dynamic dispatch: each posting is touched once,
/// in a tight loop over one cursor.
package enum TermUnion {
    package static let windowSize = 4096

    /// Feeds every document matching any of `scorers` to `top` with its summed score; returns the match count.
    package static func collect(_ scorers: [TermScorer], segment: Int, into top: inout TopDocs) -> Int {
        var bits = [UInt64](repeating: 0, count: windowSize / 64)
        var scores = [Float](repeating: 0, count: windowSize)
        var count = 0
        var threshold = top.entryThreshold
        var base = scorers.reduce(terminatedDoc) { min($0, $1.doc) } & ~DocID(windowSize - 1)
        while base != terminatedDoc {
            let end = base &+ DocID(windowSize)
            var next = terminatedDoc
            for scorer in scorers {
                var doc = scorer.doc
                while doc < end {
                    let slot = Int(doc - base)
                    bits[slot >> 6] |= 1 << UInt64(slot & 63)
                    scores[slot] += scorer.score()
                    doc = scorer.advance()
                }
                next = min(next, doc)
            }
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
            base = next == terminatedDoc ? terminatedDoc : next & ~DocID(windowSize - 1)
        }
        return count
    }

    /// The number of documents matching any of `scorers`, without scoring.
    package static func count(_ scorers: [TermScorer]) -> Int {
        var bits = [UInt64](repeating: 0, count: windowSize / 64)
        var count = 0
        var base = scorers.reduce(terminatedDoc) { min($0, $1.doc) } & ~DocID(windowSize - 1)
        while base != terminatedDoc {
            let end = base &+ DocID(windowSize)
            var next = terminatedDoc
            for scorer in scorers {
                var doc = scorer.doc
                while doc < end {
                    let slot = Int(doc - base)
                    bits[slot >> 6] |= 1 << UInt64(slot & 63)
                    doc = scorer.advance()
                }
                next = min(next, doc)
            }
            for word in 0..<bits.count {
                count += bits[word].nonzeroBitCount
                bits[word] = 0
            }
            base = next == terminatedDoc ? terminatedDoc : next & ~DocID(windowSize - 1)
        }
        return count
    }
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
        case .boolean(let must, let should, let mustNot) where must.isEmpty && mustNot.isEmpty && !should.isEmpty:
            var terms: [TermWeight] = []
            for clause in should {
                guard let inner = clause.termDisjunction else { return nil }
                terms += inner
            }
            return terms
        default:
            return nil
        }
    }
}
