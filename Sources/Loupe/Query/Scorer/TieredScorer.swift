/// One word of an instant query: the union of its tiers (its expansions with 0, 1, 2 typos, in that order), where
/// a document scores the bonus of the first tier holding it plus that tier's score, and nothing from the tiers
/// after. So a document that holds the word as typed is never outranked through a misspelling it also holds.
///
/// Each tier is a union scorer of its own; this scorer reads them a block at a time into per-tier buffers and
/// merges the buffers, one comparison per tier per document (at most three). Under a top-k threshold, tier i is
/// filled with the threshold minus its bonus, so a tier that cannot reach the top-k is skipped by its own
/// MaxScore pruning. A document a pruned earlier tier left out may then come from a later tier with that tier's
/// lower bonus; that score is below the one it really has, which was already at or below the threshold, so it
/// is dropped here and the result is the same.
@safe
package final class TieredScorer: DocAtATimeScorer {
    private let children: [any Scorer]
    private let bonuses: UnsafeMutablePointer<ScoreSum>
    private let tierCount: Int
    /// Tier i's buffered matches: `docs[i * capacity + cursor[i] ..< i * capacity + count[i]]`, with their scores.
    private let docs: UnsafeMutablePointer<DocID>
    private let scores: UnsafeMutablePointer<ScoreSum>
    private let cursors: UnsafeMutablePointer<Int>
    private let counts: UnsafeMutablePointer<Int>
    private var refill = ScoreBlock()
    /// The highest threshold a fill was given: tiers are refilled with it.
    private var threshold: Float = -.infinity
    package private(set) var doc: DocID = 0
    private var score: ScoreSum = 0
    package let cost: Int
    package var scoring: Bool { true }

    private static let capacity = ScoreBlock.capacity

    /// - Parameter tiers: non-empty, in order of precedence (fewest typos first), each with its bonus.
    package init(_ tiers: [(scorer: any Scorer, bonus: Float)]) {
        precondition(!tiers.isEmpty, "a tiered scorer needs tiers")
        children = tiers.map(\.scorer)
        tierCount = tiers.count
        cost = tiers.reduce(0) { $0 + $1.scorer.cost }
        unsafe bonuses = .allocate(capacity: tierCount)
        for i in 0..<tierCount { unsafe bonuses[i] = ScoreSum(tiers[i].bonus) }
        unsafe docs = .allocate(capacity: tierCount * Self.capacity)
        unsafe scores = .allocate(capacity: tierCount * Self.capacity)
        unsafe cursors = .allocate(capacity: tierCount)
        unsafe cursors.initialize(repeating: 0, count: tierCount)
        unsafe counts = .allocate(capacity: tierCount)
        unsafe counts.initialize(repeating: 0, count: tierCount)
        for i in 0..<tierCount { load(i) }
        settle()
    }

    deinit {
        unsafe bonuses.deallocate()
        unsafe docs.deallocate()
        unsafe scores.deallocate()
        unsafe cursors.deallocate()
        unsafe counts.deallocate()
    }

    package var damage: SegmentDamage? {
        for c in children { if let d = c.damage { return d } }
        return nil
    }

    /// Refills tier `i`'s empty buffer with its next matches, until one is found or the tier is exhausted.
    private func load(_ i: Int) {
        let child = children[i]
        let threshold = unsafe Float(ScoreSum(threshold) - bonuses[i])
        unsafe cursors[i] = 0
        unsafe counts[i] = 0
        while child.doc != terminatedDoc {
            refill.count = 0
            child.fill(&refill, until: terminatedDoc, threshold: threshold)
            let n = refill.count
            guard n > 0 else { continue }
            unsafe (docs + i * Self.capacity).update(from: refill.docs, count: n)
            unsafe (scores + i * Self.capacity).update(from: refill.scores, count: n)
            unsafe counts[i] = n
            return
        }
    }

    /// The head of tier `i`'s buffer, `terminatedDoc` when the tier is exhausted.
    @inline(__always) private func head(_ i: Int) -> DocID {
        unsafe cursors[i] < counts[i] ? docs[i * Self.capacity + cursors[i]] : terminatedDoc
    }

    /// Makes the lowest head the current match and works out its score from the first tier holding it.
    private func settle() {
        var lowest = terminatedDoc
        for i in 0..<tierCount {
            let h = head(i)
            if h < lowest {
                lowest = h
                unsafe score = bonuses[i] + scores[i * Self.capacity + cursors[i]]
            }
        }
        doc = lowest
    }

    /// Moves every tier past the current match.
    private func consume() {
        for i in 0..<tierCount where head(i) == doc {
            unsafe cursors[i] += 1
            if unsafe cursors[i] == counts[i] { load(i) }
        }
    }

    package func next() -> DocID {
        consume()
        settle()
        return doc
    }

    package func advance(to target: DocID) -> DocID {
        for i in 0..<tierCount {
            while head(i) < target { unsafe cursors[i] += 1 }
            if unsafe cursors[i] >= counts[i] {
                if children[i].doc < target { children[i].seek(target) }
                load(i)
                while head(i) < target { unsafe cursors[i] += 1 }
            }
        }
        settle()
        return doc
    }

    package func currentScore() -> Float { Float(score) }

    package func fill(_ block: inout ScoreBlock, until end: DocID, threshold: Float) {
        if threshold > self.threshold { self.threshold = threshold }
        if tierCount == 1 { return fillOneTier(&block, until: end) }
        var n = block.count
        let floor = ScoreSum(threshold)
        while doc < end && n < ScoreBlock.capacity {
            if score > floor {
                unsafe block.docs[n] = doc
                unsafe block.scores[n] = score
                n += 1
            }
            _ = next()
        }
        block.count = n
    }

    /// A word with one tier (typed without typos, or with none tolerated) has nothing to merge: its buffered
    /// matches go to the block, then the tier fills the rest of the block itself, and its scores get the bonus.
    private func fillOneTier(_ block: inout ScoreBlock, until end: DocID) {
        let floor = ScoreSum(threshold)
        let bonus = unsafe bonuses[0]
        var n = block.count
        while unsafe cursors[0] < counts[0] && n < ScoreBlock.capacity {
            let d = unsafe docs[cursors[0]]
            guard d < end else { break }
            let s = unsafe bonus + scores[cursors[0]]
            if s > floor {
                unsafe block.docs[n] = d
                unsafe block.scores[n] = s
                n += 1
            }
            unsafe cursors[0] += 1
        }
        block.count = n
        if unsafe cursors[0] == counts[0] {
            let child = children[0]
            if n < ScoreBlock.capacity && child.doc < end {
                child.fill(&block, until: end, threshold: Float(floor - bonus))
                for k in n..<block.count {
                    let s = unsafe bonus + block.scores[k]
                    guard s > floor else { continue }
                    unsafe block.docs[n] = block.docs[k]
                    unsafe block.scores[n] = s
                    n += 1
                }
                block.count = n
            }
            load(0)
        }
        settle()
    }

    package func regionEnd(from target: DocID) -> DocID {
        var end = terminatedDoc - 1
        for c in children where c.doc != terminatedDoc { end = min(end, c.regionEnd(from: max(target, c.doc))) }
        return max(end, target)
    }

    package func maxScore(from target: DocID, through last: DocID) -> Float {
        var best: ScoreSum = 0
        for i in 0..<tierCount {
            let base = i * Self.capacity
            for k in unsafe cursors[i]..<counts[i] {
                let d = unsafe docs[base + k]
                if d > last { break }
                if d >= target { best = unsafe max(best, bonuses[i] + scores[base + k]) }
            }
            let child = children[i]
            if child.doc <= last {
                let bound = ScoreSum(child.maxScore(from: max(target, child.doc), through: last))
                best = unsafe max(best, bonuses[i] + bound)
            }
        }
        return paddedBound(Float(best))
    }
}
