/// Scorers whose every match scores the same: no documents, all documents, a bit set, a fast-column range, and
/// any scorer's matches under a constant.

/// A scorer with no documents, for terms or fields absent from a segment.
package final class EmptyScorer: Scorer {
    package init() {}
    package var doc: DocID { terminatedDoc }
    package var cost: Int { 0 }
    package var damage: SegmentDamage? { nil }
    package func fill(_ block: inout ScoreBlock, until end: DocID, threshold: Float) {}
    package func probe(_ block: inout ScoreBlock, from start: Int) {}
    package func accumulate(into window: inout ScoreWindow, base: DocID, end: DocID) {}
    package func seek(_ target: DocID) {}
    package func regionEnd(from target: DocID) -> DocID { terminatedDoc - 1 }
    package func maxScore(from target: DocID, through last: DocID) -> Float { 0 }
    package func countRemaining(live: LiveDocs) -> Int { 0 }
}

/// Every document of the segment with a constant score.
@safe
package final class AllScorer: Scorer {
    private let maxDoc: DocID
    private let constant: Float
    private let scoring: Bool
    package private(set) var doc: DocID

    package init(maxDoc: Int, score: Float, scoring: Bool) {
        self.maxDoc = DocID(maxDoc)
        self.constant = score
        self.scoring = scoring
        doc = maxDoc == 0 ? terminatedDoc : 0
    }

    package var cost: Int { Int(maxDoc) }
    package var damage: SegmentDamage? { nil }

    package func fill(_ block: inout ScoreBlock, until end: DocID, threshold: Float) {
        var n = block.count
        let stop = min(end, maxDoc)
        while doc < stop && n < ScoreBlock.capacity {
            unsafe block.docs[n] = doc
            if scoring { unsafe block.scores[n] = ScoreSum(constant) }
            n += 1
            doc += 1
        }
        if doc >= maxDoc { doc = terminatedDoc }
        block.count = n
    }

    package func probe(_ block: inout ScoreBlock, from start: Int) {
        for i in start..<block.count where unsafe block.docs[i] < maxDoc {
            if scoring { unsafe block.scores[i] += ScoreSum(constant) }
            unsafe block.hits[i] &+= 1
        }
        if block.count > start { seek(unsafe block.docs[block.count - 1]) }
    }

    package func accumulate(into window: inout ScoreWindow, base: DocID, end: DocID) {
        let stop = min(end, maxDoc)
        while doc < stop {
            window.add(Int(doc - base), score: ScoreSum(constant), scoring: scoring)
            doc += 1
        }
        if doc >= maxDoc { doc = terminatedDoc }
    }

    package func seek(_ target: DocID) {
        doc = target < maxDoc ? max(target, doc) : terminatedDoc
    }

    package func regionEnd(from target: DocID) -> DocID { terminatedDoc - 1 }
    package func maxScore(from target: DocID, through last: DocID) -> Float { constant }

    package func countRemaining(live: LiveDocs) -> Int {
        var count = 0
        while doc < maxDoc {
            if live.contains(doc) { count += 1 }
            doc += 1
        }
        doc = terminatedDoc
        return count
    }
}

/// The documents of a bitset, each with the same score.
package final class BitSetScorer: DocAtATimeScorer {
    private let bits: DocBitSet
    private let constant: Float
    package let scoring: Bool
    package private(set) var doc: DocID
    package let cost: Int
    /// Damage found in the postings the set was read from.
    package let damage: SegmentDamage?

    package init(_ bits: DocBitSet, score: Float, scoring: Bool, damage: SegmentDamage? = nil) {
        self.bits = bits
        self.constant = score
        self.scoring = scoring
        self.damage = damage
        cost = bits.count
        doc = bits.next(from: 0)
    }

    package func next() -> DocID {
        guard doc != terminatedDoc else { return doc }
        doc = bits.next(from: doc + 1)
        return doc
    }

    package func advance(to target: DocID) -> DocID {
        guard doc < target else { return doc }
        doc = bits.next(from: target)
        return doc
    }

    package func currentScore() -> Float { constant }
    package func maxScore(from target: DocID, through last: DocID) -> Float { constant }

    /// A bit test per candidate, not a walk over the set.
    package func probe(_ block: inout ScoreBlock, from start: Int) {
        guard doc != terminatedDoc else { return }
        for i in start..<block.count {
            let candidate = unsafe block.docs[i]
            guard Int(candidate) < bits.maxDoc, bits.contains(candidate) else { continue }
            if scoring { unsafe block.scores[i] += ScoreSum(constant) }
            unsafe block.hits[i] &+= 1
        }
        if block.count > start { seek(unsafe block.docs[block.count - 1]) }
    }

    /// Counts the set's bits from `doc` on, a word at a time.
    package func countRemaining(live: LiveDocs) -> Int {
        guard doc != terminatedDoc else { return 0 }
        var w = Int(doc >> 6)
        var count = (bits.words[w] & (~0 << UInt64(doc & 63)) & live.word(w)).nonzeroBitCount
        w += 1
        while w < bits.words.count {
            count += (bits.words[w] & live.word(w)).nonzeroBitCount
            w += 1
        }
        doc = terminatedDoc
        return count
    }
}

/// The documents of a segment whose fast value lies in a range, found by reading the column forward from the
/// position asked for (tantivy's fast-field range scorer, without its look-ahead window); a conjunction probes it
/// with one column read per candidate.
package final class FastRangeScorer: DocAtATimeScorer {
    private let column: Column
    private let lower: UInt64
    private let upper: UInt64
    private let maxDoc: DocID
    private let constant: Float
    package let scoring: Bool
    package private(set) var doc: DocID = 0

    init(column: Column, lower: UInt64, upper: UInt64, maxDoc: Int, score: Float, scoring: Bool) {
        self.column = column
        self.lower = lower
        self.upper = upper
        self.maxDoc = DocID(maxDoc)
        self.constant = score
        self.scoring = scoring
        doc = find(from: 0)
    }

    package var cost: Int { Int(maxDoc) }
    package var damage: SegmentDamage? { nil }

    private func find(from start: DocID) -> DocID {
        var d = start
        while d < maxDoc {
            if column.holds(d, in: lower, upper) { return d }
            d += 1
        }
        return terminatedDoc
    }

    package func next() -> DocID {
        guard doc != terminatedDoc else { return doc }
        doc = find(from: doc + 1)
        return doc
    }

    package func advance(to target: DocID) -> DocID {
        guard doc < target else { return doc }
        doc = find(from: target)
        return doc
    }

    package func currentScore() -> Float { constant }
    package func maxScore(from target: DocID, through last: DocID) -> Float { constant }

    package func probe(_ block: inout ScoreBlock, from start: Int) {
        guard doc != terminatedDoc else { return }
        for i in start..<block.count {
            let candidate = unsafe block.docs[i]
            guard candidate < maxDoc, column.holds(candidate, in: lower, upper) else { continue }
            if scoring { unsafe block.scores[i] += ScoreSum(constant) }
            unsafe block.hits[i] &+= 1
        }
        if block.count > start { seek(unsafe block.docs[block.count - 1]) }
    }
}

extension Column {
    /// Whether one of `doc`'s values lies in `lower...upper`.
    @inline(__always) func holds(_ doc: DocID, in lower: UInt64, _ upper: UInt64) -> Bool {
        for i in valueRange(doc) where value(at: i) &- lower <= upper &- lower { return true }
        return false
    }
}

/// Another scorer's matches, each scoring the same constant (the inner scorer runs without scores).
@safe
package final class ConstantScorer: Scorer {
    private let inner: any Scorer
    private let constant: Float
    private let scoring: Bool
    /// Where `accumulate` gathers the inner matches before adding them to a window.
    private var scratch = ScoreBlock()

    package init(_ inner: any Scorer, score: Float, scoring: Bool) {
        self.inner = inner
        self.constant = score
        self.scoring = scoring
    }

    package var doc: DocID { inner.doc }
    package var cost: Int { inner.cost }
    package var damage: SegmentDamage? { inner.damage }

    package func fill(_ block: inout ScoreBlock, until end: DocID, threshold: Float) {
        let start = block.count
        inner.fill(&block, until: end, threshold: -.infinity)
        if scoring { for i in start..<block.count { unsafe block.scores[i] = ScoreSum(constant) } }
    }

    package func probe(_ block: inout ScoreBlock, from start: Int) {
        guard scoring else { return inner.probe(&block, from: start) }
        unsafe withUnsafeTemporaryAllocation(of: UInt32.self, capacity: ScoreBlock.capacity) { before in
            for i in start..<block.count { unsafe before[i] = block.hits[i] }
            inner.probe(&block, from: start)
            for i in start..<block.count where unsafe block.hits[i] != before[i] {
                unsafe block.scores[i] += ScoreSum(constant)
            }
        }
    }

    package func accumulate(into window: inout ScoreWindow, base: DocID, end: DocID) {
        while inner.doc < end {
            scratch.count = 0
            inner.fill(&scratch, until: end, threshold: -.infinity)
            for i in 0..<scratch.count {
                window.add(Int(unsafe scratch.docs[i] - base), score: ScoreSum(constant), scoring: scoring)
            }
        }
    }

    package func seek(_ target: DocID) { inner.seek(target) }
    package func regionEnd(from target: DocID) -> DocID { terminatedDoc - 1 }
    package func maxScore(from target: DocID, through last: DocID) -> Float { constant }
    package func countRemaining(live: LiveDocs) -> Int { inner.countRemaining(live: live) }
}
