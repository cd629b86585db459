/// Documents matching every `must` scorer and at least `minimumShouldMatch` `should` scorers, and no `mustNot`
/// scorer; the score is the sum of the matching `must` and `should` scores (tantivy's `SumCombiner`).
package final class BooleanScorer: Scorer {
    private let must: [any Scorer]
    private let should: [any Scorer]
    private let mustNot: [any Scorer]
    private let minimumShouldMatch: Int
    package private(set) var doc: DocID = 0

    /// - Parameter minimumShouldMatch: at least 1 when `must` is empty.
    /// - Precondition: `must` or `should` is non-empty.
    package init(must: [any Scorer], should: [any Scorer], mustNot: [any Scorer], minimumShouldMatch: Int) {
        precondition(!must.isEmpty || !should.isEmpty, "a boolean scorer needs a positive clause")
        self.must = must
        self.should = should
        self.mustNot = mustNot
        self.minimumShouldMatch = must.isEmpty ? max(1, minimumShouldMatch) : minimumShouldMatch
        doc = settle(from: must.isEmpty ? minimumShould() : must[0].doc)
    }

    package func advance() -> DocID {
        guard doc != terminatedDoc else { return doc }
        if must.isEmpty {
            for s in should where s.doc == doc { _ = s.advance() }
            doc = settle(from: minimumShould())
        } else {
            doc = settle(from: must[0].advance())
        }
        return doc
    }

    package func seek(_ target: DocID) -> DocID {
        guard doc < target else { return doc }
        if must.isEmpty {
            for s in should where s.doc < target { _ = s.seek(target) }
            doc = settle(from: minimumShould())
        } else {
            doc = settle(from: must[0].seek(target))
        }
        return doc
    }

    package func score() -> Float {
        var total: Float = 0
        for m in must { total += m.score() }
        for s in should {
            if s.doc < doc { _ = s.seek(doc) }
            if s.doc == doc { total += s.score() }
        }
        return total
    }

    private func minimumShould() -> DocID {
        var best = terminatedDoc
        for s in should where s.doc < best { best = s.doc }
        return best
    }

    /// The first document ≥ `start` that all `must` scorers agree on, enough `should` scorers are on, and no
    /// `mustNot` scorer holds.
    private func settle(from start: DocID) -> DocID {
        var candidate = start
        while candidate != terminatedDoc {
            if !must.isEmpty {
                var agreed = true
                for m in must.dropFirst() {
                    let d = m.doc < candidate ? m.seek(candidate) : m.doc
                    if d != candidate {
                        agreed = false
                        candidate = d == terminatedDoc ? terminatedDoc : must[0].seek(d)
                        break
                    }
                }
                if !agreed { continue }
            }
            if enoughShould(candidate) && !excluded(candidate) { return candidate }
            if must.isEmpty {
                for s in should where s.doc == candidate { _ = s.advance() }
                candidate = minimumShould()
            } else {
                candidate = must[0].advance()
            }
        }
        return terminatedDoc
    }

    /// Whether at least `minimumShouldMatch` `should` scorers hold `candidate` (moving the ones behind it).
    private func enoughShould(_ candidate: DocID) -> Bool {
        guard minimumShouldMatch > (must.isEmpty ? 1 : 0) else { return true }
        var matched = 0
        for s in should {
            let d = s.doc < candidate ? s.seek(candidate) : s.doc
            if d == candidate { matched += 1 }
        }
        return matched >= minimumShouldMatch
    }

    private func excluded(_ candidate: DocID) -> Bool {
        for n in mustNot {
            let d = n.doc < candidate ? n.seek(candidate) : n.doc
            if d == candidate { return true }
        }
        return false
    }
}
