/// Documents matching every `must` scorer (or, with none, at least one `should` scorer) and no `mustNot`
/// scorer; the score is the sum of the matching `must` and `should` scores (tantivy's `SumCombiner`).
package final class BooleanScorer: Scorer {
    private let must: [any Scorer]
    private let should: [any Scorer]
    private let mustNot: [any Scorer]
    package private(set) var doc: DocID = 0

    /// - Precondition: `must` or `should` is non-empty.
    package init(must: [any Scorer], should: [any Scorer], mustNot: [any Scorer]) {
        precondition(!must.isEmpty || !should.isEmpty, "a boolean scorer needs a positive clause")
        self.must = must
        self.should = should
        self.mustNot = mustNot
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

    /// The first document ≥ `start` that all `must` scorers agree on (or that a `should` scorer is on, without
    /// `must`) and no `mustNot` scorer holds.
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
            if !excluded(candidate) { return candidate }
            if must.isEmpty {
                for s in should where s.doc == candidate { _ = s.advance() }
                candidate = minimumShould()
            } else {
                candidate = must[0].advance()
            }
        }
        return terminatedDoc
    }

    private func excluded(_ candidate: DocID) -> Bool {
        for n in mustNot {
            let d = n.doc < candidate ? n.seek(candidate) : n.doc
            if d == candidate { return true }
        }
        return false
    }
}
