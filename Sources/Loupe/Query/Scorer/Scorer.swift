// Query execution, one segment at a time: a `Weight` (the query resolved against a searcher) builds a tree of
// scorers per segment, and a driver (Collector/SegmentSearch.swift) pulls matches out of its root a block at a
// time and hands them to a collector.
//
// Dynamic dispatch happens once per block, never per document: a parent calls its children through `any Scorer`
// only to fill, probe or accumulate a whole block (up to 128 documents) or window (4,096 documents), and each
// scorer runs its own loop over its concrete cursors inside those calls. Nothing is virtual per posting.
//
// Invariants every scorer keeps:
// - `doc` never moves backwards; no match lies before it; `terminatedDoc` once exhausted.
// - Matches come out in increasing document order, each once.
// - A scorer built without scores (`scoring: false`) leaves score slots untouched; its parents do not read them.
// - Pruning bounds are upper bounds: no document scores more than `maxScore(from:through:)` says.

/// What block and window slots sum scores in. Each clause's score is a `Float`, computed as tantivy computes it;
/// sums are kept in `Double` (as Lucene's disjunctions keep them), so that they come out the same whatever order
/// the clauses were added in — a pruned search adds them in another order than an exhaustive one — and are
/// rounded to `Float` once, by the collector.
package typealias ScoreSum = Double

/// A block of matches in increasing document order with their scores, and a per-slot match counter that
/// `probe` calls add to. Owned by one search; reused from block to block.
@safe
package struct ScoreBlock: ~Copyable {
    /// Documents a block holds at most: the postings block size, so a term fills a block from one decode.
    package static let capacity = 128

    package let docs: UnsafeMutablePointer<DocID>
    package let scores: UnsafeMutablePointer<ScoreSum>
    /// Per slot, how many probing clauses matched it.
    package let hits: UnsafeMutablePointer<UInt32>
    package var count = 0

    package init() {
        unsafe docs = .allocate(capacity: Self.capacity)
        unsafe scores = .allocate(capacity: Self.capacity)
        unsafe hits = .allocate(capacity: Self.capacity)
        unsafe scores.initialize(repeating: 0, count: Self.capacity)
        unsafe hits.initialize(repeating: 0, count: Self.capacity)
    }

    deinit {
        unsafe docs.deallocate()
        unsafe scores.deallocate()
        unsafe hits.deallocate()
    }

    package var isFull: Bool { count == Self.capacity }

    /// Keeps, in order, the slots of `start..<count` whose hit counter satisfies `keep`, and zeroes the counters.
    @inline(__always)
    package mutating func compact(from start: Int, keeping keep: (UInt32) -> Bool) {
        var kept = start
        for i in start..<count {
            let h = unsafe hits[i]
            unsafe hits[i] = 0
            guard keep(h) else { continue }
            unsafe docs[kept] = docs[i]
            unsafe scores[kept] = scores[i]
            kept += 1
        }
        count = kept
    }
}

/// 4,096 consecutive documents as a bitset with a score accumulator per document (and, for a minimum number of
/// matching clauses, a match counter): what a disjunction gathers its children into (tantivy's union horizon).
/// Its memory comes from a `ScorerScratch` and goes back there; it is left zeroed between windows, and cleared of
/// whatever an abandoned search left in it when it goes back.
@safe
package struct ScoreWindow: ~Copyable {
    package static let size = 4096
    package static let words = size / 64

    package let bits: UnsafeMutablePointer<UInt64>
    package let scores: UnsafeMutablePointer<ScoreSum>
    /// Matching clauses per document; only when a minimum above one must be checked.
    package let counts: UnsafeMutablePointer<UInt8>?
    /// Bit w is set when `bits[w]` may be non-zero: visiting a sparse window costs its matches, not 64 words.
    package var summary: UInt64 = 0
    private let storage: ScorerScratch.Window
    private let owner: ScorerScratch

    package init(from owner: ScorerScratch, counting: Bool) {
        storage = owner.takeWindow()
        self.owner = owner
        unsafe bits = storage.bits
        unsafe scores = storage.scores
        unsafe counts = counting ? storage.counts : nil
    }

    deinit {
        for w in 0..<Self.words where unsafe bits[w] != 0 {
            var word = unsafe bits[w]
            while word != 0 {
                let slot = w << 6 | word.trailingZeroBitCount
                word &= word &- 1
                unsafe scores[slot] = 0
                unsafe counts?[slot] = 0
            }
            unsafe bits[w] = 0
        }
        owner.recycle(storage)
    }

    /// Marks window slot `slot` as matched, adding `score` when scoring.
    @inline(__always)
    package mutating func add(_ slot: Int, score: ScoreSum, scoring: Bool) {
        unsafe bits[slot >> 6] |= 1 << UInt64(slot & 63)
        summary |= 1 << UInt64(slot >> 6)
        if scoring { unsafe scores[slot] += score }
        if let counts = unsafe counts { unsafe counts[slot] &+= 1 }
    }
}

/// Memory the scorers of a searcher's searches reuse instead of allocating and zeroing it per query: the windows
/// of unions (36 KiB each). Any number of searches may take and give back at once.
@safe
package final class ScorerScratch: Sendable {
    /// One window's zeroed memory.
    @safe
    package final class Window: @unchecked Sendable {
        // @unchecked: the memory is written by one search at a time; a window crosses threads only through the
        // lock-protected `free` list, zeroed when it goes back.
        let bits: UnsafeMutablePointer<UInt64>
        let scores: UnsafeMutablePointer<ScoreSum>
        let counts: UnsafeMutablePointer<UInt8>

        init() {
            unsafe bits = .allocate(capacity: ScoreWindow.words)
            unsafe bits.initialize(repeating: 0, count: ScoreWindow.words)
            unsafe scores = .allocate(capacity: ScoreWindow.size)
            unsafe scores.initialize(repeating: 0, count: ScoreWindow.size)
            unsafe counts = .allocate(capacity: ScoreWindow.size)
            unsafe counts.initialize(repeating: 0, count: ScoreWindow.size)
        }

        deinit {
            unsafe bits.deallocate()
            unsafe scores.deallocate()
            unsafe counts.deallocate()
        }
    }

    /// Windows kept at most: enough for a few concurrent searches with a few unions each.
    private static let kept = 32
    private let free = Locked<[Window]>([])

    package init() {}

    fileprivate func takeWindow() -> Window { free.withLock { $0.popLast() } ?? Window() }

    fileprivate func recycle(_ window: Window) {
        free.withLock { if $0.count < Self.kept { $0.append(window) } }
    }
}

/// Walks the matches of one query in one segment; see the invariants at the top of this file.
package protocol Scorer: AnyObject {
    /// The first document that may still match; `terminatedDoc` when exhausted.
    var doc: DocID { get }

    /// Roughly how many documents the scorer visits: conjunctions lead with their cheapest clause.
    var cost: Int { get }

    /// Appends the matches in `doc ..< end` to `block` until it is full, and moves past them. Every match scoring
    /// above `threshold` is appended; matches at or below it may be left out (pruning).
    func fill(_ block: inout ScoreBlock, until end: DocID, threshold: Float)

    /// For each slot of `block[start..<count]` (ascending documents, none before `doc`) this scorer matches, adds its
    /// score and 1 to the slot's hit counter. Leaves `doc` at or past the last candidate's document.
    func probe(_ block: inout ScoreBlock, from start: Int)

    /// Adds every match in `doc ..< end` to `window`, whose slot 0 is document `base`, and moves past them.
    /// `end - base` is at most `ScoreWindow.size`.
    func accumulate(into window: inout ScoreWindow, base: DocID, end: DocID)

    /// Moves to the first match ≥ `target` (no move when `doc` is already there).
    func seek(_ target: DocID)

    /// The last document of the pruning region holding `target` (≥ `target`): the span over which
    /// `maxScore` is cheap to bound, read without decoding anything (a postings block).
    func regionEnd(from target: DocID) -> DocID

    /// An upper bound of the score of every match in `target...last`.
    func maxScore(from target: DocID, through last: DocID) -> Float

    /// The number of matches left, the deleted ones excepted; exhausts the scorer.
    func countRemaining(live: LiveDocs) -> Int

    /// The first damage found in the segment's files while matching, nil if none.
    var damage: SegmentDamage? { get }
}

/// A bound padded by a few ulps: float rounding in the scores themselves must never exceed their bound. (A
/// constant-score scorer's bound is its constant, unpadded: its scores are exactly that, and a top-k full of them
/// must be able to skip the rest.)
@inline(__always)
package func paddedBound(_ x: Float) -> Float {
    x <= 0 ? 0 : x * (1 + 1e-6)
}

/// A scorer whose natural loop is one document at a time (phrases, fast-column ranges, bit sets): it provides
/// `next`, `advance(to:)` and `currentScore`, and gets the block methods of `Scorer` as loops over them,
/// specialized for its concrete type.
package protocol DocAtATimeScorer: Scorer {
    /// Moves to the next match and returns it.
    func next() -> DocID
    /// Moves to the first match ≥ `target` (> `doc`) and returns it.
    func advance(to target: DocID) -> DocID
    /// The score of the match at `doc`.
    func currentScore() -> Float
    /// Whether scores are computed at all.
    var scoring: Bool { get }
}

extension DocAtATimeScorer {
    package func fill(_ block: inout ScoreBlock, until end: DocID, threshold: Float) {
        var d = doc
        var n = block.count
        while d < end && n < ScoreBlock.capacity {
            unsafe block.docs[n] = d
            if scoring { unsafe block.scores[n] = ScoreSum(currentScore()) }
            n += 1
            d = next()
        }
        block.count = n
    }

    package func probe(_ block: inout ScoreBlock, from start: Int) {
        var d = doc
        for i in start..<block.count {
            let candidate = unsafe block.docs[i]
            if d < candidate { d = advance(to: candidate) }
            if d == candidate {
                if scoring { unsafe block.scores[i] += ScoreSum(currentScore()) }
                unsafe block.hits[i] &+= 1
            } else if d == terminatedDoc {
                return
            }
        }
    }

    package func accumulate(into window: inout ScoreWindow, base: DocID, end: DocID) {
        var d = doc
        let scoring = scoring
        while d < end {
            window.add(Int(d &- base), score: scoring ? ScoreSum(currentScore()) : 0, scoring: scoring)
            d = next()
        }
    }

    package func seek(_ target: DocID) {
        if doc < target { _ = advance(to: target) }
    }

    package func countRemaining(live: LiveDocs) -> Int {
        var count = 0
        var d = doc
        while d != terminatedDoc {
            if live.contains(d) { count += 1 }
            d = next()
        }
        return count
    }

    package func regionEnd(from target: DocID) -> DocID { terminatedDoc - 1 }
}

/// Lets scorers of mixed types be the children of one generic `UnionScorer`: each block call is forwarded through
/// the existential, one extra call per block.
package final class AnyScorer: Scorer {
    private let inner: any Scorer
    package init(_ inner: any Scorer) { self.inner = inner }
    package var doc: DocID { inner.doc }
    package var cost: Int { inner.cost }
    package var damage: SegmentDamage? { inner.damage }
    package func fill(_ block: inout ScoreBlock, until end: DocID, threshold: Float) {
        inner.fill(&block, until: end, threshold: threshold)
    }
    package func probe(_ block: inout ScoreBlock, from start: Int) { inner.probe(&block, from: start) }
    package func accumulate(into window: inout ScoreWindow, base: DocID, end: DocID) {
        inner.accumulate(into: &window, base: base, end: end)
    }
    package func seek(_ target: DocID) { inner.seek(target) }
    package func regionEnd(from target: DocID) -> DocID { inner.regionEnd(from: target) }
    package func maxScore(from target: DocID, through last: DocID) -> Float {
        inner.maxScore(from: target, through: last)
    }
    package func countRemaining(live: LiveDocs) -> Int { inner.countRemaining(live: live) }
}
