/// Documents matching at least `minimumShouldMatch` of its children (at least one) and none of `excluded`, scoring
/// the sum of the matching children's scores: `a b`, one word over several default fields, `a -b`, fuzzy and
/// prefix expansions, more-like-this.
///
/// Works in windows of 4,096 documents (tantivy's union horizon): each child adds its matches below the window's
/// end into the window's bits and score accumulators, with one call per child per window; then the window's set
/// bits are handed out in order. There is no per-document minimum over the children: each posting is touched once,
/// in the child's own loop. Generic over the child type, so a union of terms calls `TermScorer` directly; the two
/// scorer classes below hold one (a generic class's methods run unspecialized when called through `any Scorer`, so
/// the generic code lives in this struct and each class instantiates it for one concrete child type).
///
/// When the driver passes a score threshold (pruned top-k), `fill` runs MaxScore (Turtle and Flood; Lucene's
/// `MaxScoreBulkScorer`): over each region where every child's bound is known, the children whose bounds add up
/// to no more than the threshold cannot make a document competitive on their own, so only the others ("essential")
/// produce candidates, and the non-essential ones are probed only for candidates whose score could still pass.
@safe
package struct UnionCore<Child: Scorer>: ~Copyable {
    private let children: [Child]
    private let excluded: [any Scorer]
    private let minimumShouldMatch: Int
    private let scoring: Bool
    private var window: ScoreWindow
    /// Document of the window's slot 0 (a multiple of 64), valid while the window holds bits.
    private var base: DocID = 0
    /// Where `probe` and the MaxScore path gather candidates.
    private var scratch = ScoreBlock()
    /// The MaxScore window: it holds only the essential children's matches (`partial`), the non-essential
    /// children and their bounds in ascending order, and where it ends.
    private var partial = false
    /// The children by ascending bound over the current region; `order[..<split]` are the non-essential ones.
    private var order: [(bound: Float, child: Int)] = []
    private var split = 0
    private var nonEssentialBound: Float = 0
    private var windowEnd: DocID = 0
    package private(set) var doc: DocID = 0
    package let cost: Int

    /// - Precondition: `children` is non-empty; `minimumShouldMatch` ≤ `children.count`.
    package init(
        _ children: [Child], excluding excluded: [any Scorer], minimumShouldMatch: Int, scoring: Bool,
        scratch: ScorerScratch
    ) {
        precondition(!children.isEmpty, "a union needs children")
        self.children = children
        self.excluded = excluded
        self.minimumShouldMatch = max(1, minimumShouldMatch)
        self.scoring = scoring
        window = ScoreWindow(from: scratch, counting: minimumShouldMatch > 1)
        cost = children.reduce(0) { $0 + $1.cost }
        order.reserveCapacity(children.count)
        doc = lowestChildDoc()
    }

    package var damage: SegmentDamage? {
        for c in children { if let d = c.damage { return d } }
        for e in excluded { if let d = e.damage { return d } }
        return nil
    }

    private func lowestChildDoc() -> DocID {
        var lowest = terminatedDoc
        for c in children where c.doc < lowest { lowest = c.doc }
        return lowest
    }

    /// The first unhanded document of the window, or (window empty) the lowest child document.
    private mutating func refreshDoc() {
        if window.summary != 0 {
            let w = window.summary.trailingZeroBitCount
            doc = unsafe base + DocID(w << 6 | window.bits[w].trailingZeroBitCount)
        } else {
            doc = lowestChildDoc()
        }
    }

    /// Gathers the children's matches in `first ..< end` (at most a window from `first`) into the window.
    private mutating func load(from first: DocID, until end: DocID) {
        base = first & ~63
        windowEnd = min(end, base &+ DocID(ScoreWindow.size))
        for c in children where c.doc < windowEnd { c.accumulate(into: &window, base: base, end: windowEnd) }
    }

    package mutating func fill(_ block: inout ScoreBlock, until end: DocID, threshold: Float) {
        if partial
            || (threshold > -.infinity && scoring && minimumShouldMatch == 1 && children.count > 1
                && window.summary == 0)
        {
            return fillPruning(&block, until: end, threshold: threshold)
        }
        let start = block.count
        var n = start
        emitting: while n < ScoreBlock.capacity {
            if window.summary == 0 {
                let first = lowestChildDoc()
                guard first < end else { break }
                load(from: first, until: end)
                continue
            }
            let w = window.summary.trailingZeroBitCount
            var word = unsafe window.bits[w]
            while word != 0 {
                let slot = w << 6 | word.trailingZeroBitCount
                let d = base + DocID(slot)
                if d >= end || n == ScoreBlock.capacity {
                    unsafe window.bits[w] = word
                    break emitting
                }
                word &= word &- 1
                if let counts = unsafe window.counts {
                    let matched = unsafe Int(counts[slot])
                    unsafe counts[slot] = 0
                    if matched < minimumShouldMatch {
                        unsafe window.scores[slot] = 0
                        continue
                    }
                }
                unsafe block.docs[n] = d
                if scoring {
                    unsafe block.scores[n] = window.scores[slot]
                    unsafe window.scores[slot] = 0
                }
                n += 1
            }
            unsafe window.bits[w] = 0
            window.summary &= window.summary &- 1
        }
        block.count = n
        exclude(&block, from: start)
        refreshDoc()
    }

    /// Drops the documents of `block[start...]` an excluded scorer holds.
    private func exclude(_ block: inout ScoreBlock, from start: Int) {
        guard !excluded.isEmpty && block.count > start else { return }
        for e in excluded { e.probe(&block, from: start) }
        block.compact(from: start) { $0 == 0 }
    }

    /// MaxScore; see the type's comment. Region by region (the span where every child's bound holds), the
    /// essential children fill a window, and its candidates are probed by the non-essential children, highest
    /// bound first, while their score plus the bounds left could still pass `threshold`. A window is handed out
    /// over as many calls as it takes; `partial` marks one that holds only the essential children's matches.
    private mutating func fillPruning(_ block: inout ScoreBlock, until end: DocID, threshold: Float) {
        let start = block.count
        while block.count < ScoreBlock.capacity {
            if window.summary == 0 {
                if partial { finishWindow() }
                let first = lowestChildDoc()
                guard first < end else { break }
                startWindow(from: first, until: end, threshold: threshold)
                continue
            }
            scratch.count = 0
            Self.drain(&window, base: base, into: &scratch, room: ScoreBlock.capacity - block.count, until: end)
            guard scratch.count > 0 else { break }
            var remainingBound = nonEssentialBound
            for (bound, child) in order[..<split].reversed() {
                var kept = 0
                for i in 0..<scratch.count
                where unsafe scratch.scores[i] + ScoreSum(remainingBound) > ScoreSum(threshold) {
                    unsafe scratch.docs[kept] = scratch.docs[i]
                    unsafe scratch.scores[kept] = scratch.scores[i]
                    kept += 1
                }
                scratch.count = kept
                guard kept > 0 else { break }
                children[child].probe(&scratch, from: 0)
                for i in 0..<kept { unsafe scratch.hits[i] = 0 }
                remainingBound -= bound
            }
            for i in 0..<scratch.count where unsafe scratch.scores[i] > ScoreSum(threshold) {
                unsafe block.docs[block.count] = scratch.docs[i]
                unsafe block.scores[block.count] = scratch.scores[i]
                block.count += 1
            }
        }
        scratch.count = 0
        exclude(&block, from: start)
        refreshDoc()
    }

    /// Splits the children for the region from `first` into non-essential (bounds adding up to at most
    /// `threshold`) and essential, and gathers the essential children's matches into the window; a region where
    /// nothing can compete is skipped outright.
    private mutating func startWindow(from first: DocID, until end: DocID, threshold: Float) {
        var regionEnd = end - 1
        for c in children where c.doc != terminatedDoc { regionEnd = min(regionEnd, c.regionEnd(from: first)) }
        order.removeAll(keepingCapacity: true)
        for (i, c) in children.enumerated() {
            order.append((c.doc <= regionEnd ? c.maxScore(from: first, through: regionEnd) : 0, i))
        }
        order.sort { $0.bound < $1.bound }
        split = 0
        var sum: Float = 0
        while split < order.count && sum + order[split].bound <= threshold {
            sum += order[split].bound
            split += 1
        }
        if split == order.count {
            for c in children where c.doc <= regionEnd { c.seek(regionEnd &+ 1) }
            split = 0
            return
        }
        nonEssentialBound = sum
        base = first & ~63
        windowEnd = min(regionEnd &+ 1, base &+ DocID(ScoreWindow.size))
        for (_, i) in order[split...] where children[i].doc < windowEnd {
            children[i].accumulate(into: &window, base: base, end: windowEnd)
        }
        partial = true
    }

    /// Every document of the finished window's range is decided: the children that were only probed move past it.
    private mutating func finishWindow() {
        for c in children where c.doc < windowEnd { c.seek(windowEnd) }
        partial = false
        split = 0
    }

    /// Moves up to `room` of the window's set documents below `end`, with their scores, into `out`.
    private static func drain(
        _ window: inout ScoreWindow, base: DocID, into out: inout ScoreBlock, room: Int, until end: DocID
    ) {
        var moved = 0
        while window.summary != 0 && moved < room {
            let w = window.summary.trailingZeroBitCount
            var word = unsafe window.bits[w]
            while word != 0 && moved < room {
                let slot = w << 6 | word.trailingZeroBitCount
                guard base + DocID(slot) < end else {
                    unsafe window.bits[w] = word
                    return
                }
                word &= word &- 1
                unsafe out.docs[out.count] = base + DocID(slot)
                unsafe out.scores[out.count] = window.scores[slot]
                unsafe out.hits[out.count] = 0
                unsafe window.scores[slot] = 0
                out.count += 1
                moved += 1
            }
            unsafe window.bits[w] = word
            if word == 0 { window.summary &= window.summary &- 1 }
        }
    }

    package mutating func probe(_ block: inout ScoreBlock, from start: Int) {
        guard block.count > start else { return }
        scratch.count = block.count - start
        for k in 0..<scratch.count {
            unsafe scratch.docs[k] = block.docs[start + k]
            unsafe scratch.scores[k] = 0
            unsafe scratch.hits[k] = 0
        }
        for c in children where c.doc != terminatedDoc { c.probe(&scratch, from: 0) }
        unsafe withUnsafeTemporaryAllocation(of: Bool.self, capacity: ScoreBlock.capacity) { matched in
            for k in 0..<scratch.count {
                unsafe matched[k] = scratch.hits[k] >= minimumShouldMatch
                unsafe scratch.hits[k] = 0
            }
            for e in excluded { e.probe(&scratch, from: 0) }
            for k in 0..<scratch.count where unsafe matched[k] && scratch.hits[k] == 0 {
                if scoring { unsafe block.scores[start + k] += scratch.scores[k] }
                unsafe block.hits[start + k] &+= 1
            }
            for k in 0..<scratch.count { unsafe scratch.hits[k] = 0 }
        }
        scratch.count = 0
        refreshDoc()
    }

    package mutating func accumulate(into target: inout ScoreWindow, base targetBase: DocID, end: DocID) {
        if unsafe minimumShouldMatch == 1 && excluded.isEmpty && target.counts == nil && window.summary == 0 {
            // Each child adds its own matches: the sums are the same.
            for c in children where c.doc < end { c.accumulate(into: &target, base: targetBase, end: end) }
        } else {
            var matches = ScoreBlock()
            while doc < end {
                matches.count = 0
                fill(&matches, until: end, threshold: -.infinity)
                for i in 0..<matches.count {
                    target.add(
                        Int(unsafe matches.docs[i] &- targetBase), score: unsafe matches.scores[i], scoring: scoring)
                }
            }
            // Ended explicitly: Swift 6.3 drops the implicit end of this local, and its deinit with it (its buffers
            // leaked at every call; LeakSanitizer found it).
            _ = consume matches
        }
        refreshDoc()
    }

    package mutating func seek(_ target: DocID) {
        guard doc < target else { return }
        if window.summary != 0 {
            // Drop the window's documents below the target.
            while window.summary != 0 {
                let w = window.summary.trailingZeroBitCount
                var word = unsafe window.bits[w]
                while word != 0 {
                    let slot = w << 6 | word.trailingZeroBitCount
                    guard base + DocID(slot) < target else { break }
                    word &= word &- 1
                    unsafe window.scores[slot] = 0
                    if let counts = unsafe window.counts { unsafe counts[slot] = 0 }
                }
                unsafe window.bits[w] = word
                if word != 0 { break }
                window.summary &= window.summary &- 1
            }
        }
        for c in children where c.doc < target { c.seek(target) }
        refreshDoc()
    }

    /// While the window holds documents not handed out yet, the region ends with the window and its bound is
    /// unknown (those documents' scores are already summed, whatever the children's bounds now say).
    package func regionEnd(from target: DocID) -> DocID {
        var end = terminatedDoc - 1
        if window.summary != 0 { end = windowEnd &- 1 }
        for c in children where c.doc != terminatedDoc { end = min(end, c.regionEnd(from: target)) }
        return max(end, target)
    }

    package func maxScore(from target: DocID, through last: DocID) -> Float {
        if window.summary != 0 { return .infinity }
        var total: Float = 0
        for c in children where c.doc <= last { total += c.maxScore(from: target, through: last) }
        return paddedBound(total)
    }

    package mutating func countRemaining(live: LiveDocs) -> Int {
        guard minimumShouldMatch == 1 && excluded.isEmpty else {
            var count = 0
            var matches = ScoreBlock()
            while doc != terminatedDoc {
                matches.count = 0
                fill(&matches, until: terminatedDoc, threshold: -.infinity)
                for i in 0..<matches.count where live.contains(unsafe matches.docs[i]) { count += 1 }
            }
            _ = consume matches // as in `accumulate`
            return count
        }
        var count = 0
        while true {
            if window.summary == 0 {
                let first = lowestChildDoc()
                guard first != terminatedDoc else { break }
                load(from: first, until: terminatedDoc)
            }
            let firstWord = Int(base >> 6)
            while window.summary != 0 {
                let w = window.summary.trailingZeroBitCount
                window.summary &= window.summary &- 1
                count += (unsafe window.bits[w] & live.word(firstWord + w)).nonzeroBitCount
                unsafe window.bits[w] = 0
            }
        }
        doc = terminatedDoc
        return count
    }
}

/// A union of term scorers (one word over several fields, `a b`, expansions): children called directly.
/// It and `UnionScorer` are two concrete classes around one generic core, not one generic class: called through
/// `any Scorer`, a generic class would run its unspecialised code.
@safe
package final class TermUnionScorer: Scorer {
    @exclusivity(unchecked) private var core: UnionCore<TermScorer>

    package init(
        _ children: [TermScorer], excluding excluded: [any Scorer], minimumShouldMatch: Int, scoring: Bool,
        scratch: ScorerScratch
    ) {
        unsafe core = UnionCore(
            children, excluding: excluded, minimumShouldMatch: minimumShouldMatch, scoring: scoring, scratch: scratch)
    }

    package var doc: DocID { unsafe core.doc }
    package var cost: Int { unsafe core.cost }
    package var damage: SegmentDamage? { unsafe core.damage }
    package func fill(_ block: inout ScoreBlock, until end: DocID, threshold: Float) {
        unsafe core.fill(&block, until: end, threshold: threshold)
    }
    package func probe(_ block: inout ScoreBlock, from start: Int) { unsafe core.probe(&block, from: start) }
    package func accumulate(into window: inout ScoreWindow, base: DocID, end: DocID) {
        unsafe core.accumulate(into: &window, base: base, end: end)
    }
    package func seek(_ target: DocID) { unsafe core.seek(target) }
    package func regionEnd(from target: DocID) -> DocID { unsafe core.regionEnd(from: target) }
    package func maxScore(from target: DocID, through last: DocID) -> Float {
        unsafe core.maxScore(from: target, through: last)
    }
    package func countRemaining(live: LiveDocs) -> Int { unsafe core.countRemaining(live: live) }
}

/// A union of any scorers (phrases, ranges, nested booleans, mixed with terms), each called once per block.
@safe
package final class UnionScorer: Scorer {
    @exclusivity(unchecked) private var core: UnionCore<AnyScorer>

    package init(
        _ children: [any Scorer], excluding excluded: [any Scorer], minimumShouldMatch: Int, scoring: Bool,
        scratch: ScorerScratch
    ) {
        unsafe core = UnionCore(
            children.map(AnyScorer.init), excluding: excluded, minimumShouldMatch: minimumShouldMatch, scoring: scoring,
            scratch: scratch)
    }

    package var doc: DocID { unsafe core.doc }
    package var cost: Int { unsafe core.cost }
    package var damage: SegmentDamage? { unsafe core.damage }
    package func fill(_ block: inout ScoreBlock, until end: DocID, threshold: Float) {
        unsafe core.fill(&block, until: end, threshold: threshold)
    }
    package func probe(_ block: inout ScoreBlock, from start: Int) { unsafe core.probe(&block, from: start) }
    package func accumulate(into window: inout ScoreWindow, base: DocID, end: DocID) {
        unsafe core.accumulate(into: &window, base: base, end: end)
    }
    package func seek(_ target: DocID) { unsafe core.seek(target) }
    package func regionEnd(from target: DocID) -> DocID { unsafe core.regionEnd(from: target) }
    package func maxScore(from target: DocID, through last: DocID) -> Float {
        unsafe core.maxScore(from: target, through: last)
    }
    package func countRemaining(live: LiveDocs) -> Int { unsafe core.countRemaining(live: live) }
}
