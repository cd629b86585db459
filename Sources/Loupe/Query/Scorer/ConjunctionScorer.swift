/// Documents matching every required clause, at least `minimumShouldMatch` optional clauses and no excluded one,
/// scoring the sum of the matching required and optional clauses (tantivy's `SumCombiner`): `+a +b`, `+a b`,
/// `+a -b`, a range filter under a text query.
///
/// The cheapest required clause leads: it fills a block of candidates, and every other clause probes the block,
/// each with one call and its own loop of seeks, cheapest first, the block compacted after each required clause.
/// Pruning needs nothing of its own: its region is where every clause's bound holds, its bound their sum, so the
/// driver skipping regions that cannot compete is block-max AND.
@safe
package final class ConjunctionScorer: Scorer {
    private let lead: any Scorer
    /// The other required clauses, cheapest first.
    private let required: [any Scorer]
    private let optional: [any Scorer]
    private let minimumShouldMatch: Int
    private let excluded: [any Scorer]
    private let scoring: Bool
    /// Where `probe` and `accumulate` gather this scorer's own matches.
    private var scratch = ScoreBlock()

    /// - Parameter required: at least one scorer; the cheapest leads.
    package init(
        required: [any Scorer], optional: [any Scorer], minimumShouldMatch: Int, excluding excluded: [any Scorer],
        scoring: Bool
    ) {
        precondition(!required.isEmpty, "a conjunction needs a required clause")
        let byCost = required.sorted { $0.cost < $1.cost }
        lead = byCost[0]
        self.required = Array(byCost.dropFirst())
        self.optional = optional.sorted { $0.cost < $1.cost }
        self.minimumShouldMatch = minimumShouldMatch
        self.excluded = excluded
        self.scoring = scoring
    }

    package var doc: DocID { lead.doc }
    package var cost: Int { lead.cost }

    package var damage: SegmentDamage? {
        if let d = lead.damage { return d }
        for c in required { if let d = c.damage { return d } }
        for c in optional { if let d = c.damage { return d } }
        for c in excluded { if let d = c.damage { return d } }
        return nil
    }

    package func fill(_ block: inout ScoreBlock, until end: DocID, threshold: Float) {
        while block.count < ScoreBlock.capacity && lead.doc < end {
            let start = block.count
            lead.fill(&block, until: end, threshold: -.infinity)
            filter(&block, from: start)
        }
    }

    /// Keeps the candidates of `block[start...]` every other clause agrees on, adding their scores.
    private func filter(_ block: inout ScoreBlock, from start: Int) {
        for clause in required {
            guard block.count > start else { return }
            clause.probe(&block, from: start)
            block.compact(from: start) { $0 > 0 }
        }
        if !optional.isEmpty && block.count > start {
            for clause in optional { clause.probe(&block, from: start) }
            let minimum = UInt32(minimumShouldMatch)
            block.compact(from: start) { $0 >= minimum }
        }
        if !excluded.isEmpty && block.count > start {
            for clause in excluded { clause.probe(&block, from: start) }
            block.compact(from: start) { $0 == 0 }
        }
    }

    package func probe(_ block: inout ScoreBlock, from start: Int) {
        guard block.count > start else { return }
        scratch.count = 0
        for i in start..<block.count {
            unsafe scratch.docs[scratch.count] = block.docs[i]
            unsafe scratch.scores[scratch.count] = 0
            unsafe scratch.hits[scratch.count] = 0
            scratch.count += 1
        }
        // The lead probes too: here candidates come from outside.
        lead.probe(&scratch, from: 0)
        unsafe withUnsafeTemporaryAllocation(of: Int.self, capacity: ScoreBlock.capacity) { origin in
            // Remember each candidate's slot in `block` across compactions.
            var kept = 0
            for k in 0..<scratch.count where unsafe scratch.hits[k] > 0 {
                unsafe origin[kept] = start + k
                unsafe scratch.docs[kept] = scratch.docs[k]
                unsafe scratch.scores[kept] = scratch.scores[k]
                kept += 1
            }
            for k in 0..<scratch.count { unsafe scratch.hits[k] = 0 }
            scratch.count = kept
            guard kept > 0 else { return }
            unsafe markMatches(origin: origin.baseAddress!)
            for k in 0..<scratch.count {
                let slot = unsafe origin[k]
                if scoring { unsafe block.scores[slot] += scratch.scores[k] }
                unsafe block.hits[slot] &+= 1
            }
        }
        scratch.count = 0
    }

    /// Narrows `scratch` to the candidates the other clauses accept, keeping `origin` in step.
    private func markMatches(origin: UnsafeMutablePointer<Int>) {
        func narrow(_ keep: (UInt32) -> Bool) {
            var kept = 0
            for k in 0..<scratch.count {
                let h = unsafe scratch.hits[k]
                unsafe scratch.hits[k] = 0
                guard keep(h) else { continue }
                unsafe origin[kept] = origin[k]
                unsafe scratch.docs[kept] = scratch.docs[k]
                unsafe scratch.scores[kept] = scratch.scores[k]
                kept += 1
            }
            scratch.count = kept
        }
        for clause in required where scratch.count > 0 {
            clause.probe(&scratch, from: 0)
            narrow { $0 > 0 }
        }
        if !optional.isEmpty && scratch.count > 0 {
            for clause in optional { clause.probe(&scratch, from: 0) }
            let minimum = UInt32(minimumShouldMatch)
            narrow { $0 >= minimum }
        }
        if !excluded.isEmpty && scratch.count > 0 {
            for clause in excluded { clause.probe(&scratch, from: 0) }
            narrow { $0 == 0 }
        }
    }

    package func accumulate(into window: inout ScoreWindow, base: DocID, end: DocID) {
        while lead.doc < end {
            scratch.count = 0
            fill(&scratch, until: end, threshold: -.infinity)
            for i in 0..<scratch.count {
                window.add(Int(unsafe scratch.docs[i] &- base), score: unsafe scratch.scores[i], scoring: scoring)
            }
        }
        scratch.count = 0
    }

    package func seek(_ target: DocID) { lead.seek(target) }

    package func regionEnd(from target: DocID) -> DocID {
        var end = lead.regionEnd(from: target)
        for c in required { end = min(end, c.regionEnd(from: target)) }
        for c in optional where c.doc != terminatedDoc { end = min(end, c.regionEnd(from: target)) }
        return max(end, target)
    }

    package func maxScore(from target: DocID, through last: DocID) -> Float {
        var total = lead.maxScore(from: target, through: last)
        for c in required { total += c.maxScore(from: target, through: last) }
        for c in optional where c.doc <= last { total += c.maxScore(from: target, through: last) }
        return paddedBound(total)
    }

    package func countRemaining(live: LiveDocs) -> Int {
        var count = 0
        while lead.doc != terminatedDoc {
            scratch.count = 0
            fill(&scratch, until: terminatedDoc, threshold: -.infinity)
            for i in 0..<scratch.count where live.contains(unsafe scratch.docs[i]) { count += 1 }
        }
        scratch.count = 0
        return count
    }
}
