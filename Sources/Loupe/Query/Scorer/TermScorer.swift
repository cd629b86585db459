/// Scores one term in one segment: postings cursor + BM25 + the field's norms.
///
/// Works a decoded postings block at a time: `fill` copies a run of the block's ids and scores them in one loop,
/// `accumulate` scatters them into a window. The BM25 factors of the 256 norm codes are read through the query's
/// shared table's raw pointer, so scoring a document is two loads, an add and a divide, with no bounds check and
/// no reference counting. Pruning bounds come from the skip entries' (maxTF, minNorm).
@safe
package final class TermScorer: Scorer {
    package let postings: PostingsCursor
    /// The field's norm codes; nil when the field keeps no norms (every code is 0).
    private let norms: FieldNormsReader.Column?
    private let weight: Float
    /// Keeps `normFactors` alive.
    private let factors: NormFactors
    private let normFactors: UnsafeMutablePointer<Float>
    package let scoring: Bool

    /// A scorer of the term's documents only, without scores.
    package convenience init(matching postings: PostingsCursor) {
        self.init(postings: postings, norms: nil, bm25: .unscored, scoring: false)
    }

    package init(postings: PostingsCursor, norms: FieldNormsReader.Column?, bm25: BM25Weight, scoring: Bool) {
        self.postings = postings
        self.norms = norms
        weight = bm25.weight
        factors = bm25.cache
        unsafe normFactors = bm25.cache.base
        self.scoring = scoring
    }

    package var doc: DocID { postings.doc }
    package var cost: Int { postings.documentFrequency }
    package var damage: SegmentDamage? { postings.damage }

    /// The score of the decoded block's slot `slot`.
    @inline(__always) private func score(slot: Int) -> Float {
        let code = norms.map { Int($0.code(postings.doc(at: slot))) } ?? 0
        return Self.bm25(weight, tf: postings.tf(at: slot), factor: unsafe normFactors[code])
    }

    /// BM25 of one document: `weight` (idf and boost) times the saturated term frequency, `factor` being the
    /// norm's part of the denominator.
    @inline(__always) private static func bm25(_ weight: Float, tf: UInt32, factor: Float) -> Float {
        let tf = Float(tf)
        return weight * (tf / (tf + factor))
    }

    package func fill(_ block: inout ScoreBlock, until end: DocID, threshold: Float) {
        var n = block.count
        while n < ScoreBlock.capacity {
            let c = postings.cursor
            let available = postings.blockCount - c
            guard available > 0 else { break }
            var take = min(available, ScoreBlock.capacity - n)
            if postings.doc(at: c + take - 1) >= end {
                var k = 0
                while k < take && postings.doc(at: c + k) < end { k += 1 }
                take = k
            }
            guard take > 0 else { break }
            unsafe (block.docs + n).update(from: postings.docs + c, count: take)
            if scoring {
                for i in 0..<take { unsafe block.scores[n + i] = ScoreSum(score(slot: c + i)) }
            }
            n += take
            postings.consume(take)
        }
        block.count = n
    }

    package func probe(_ block: inout ScoreBlock, from start: Int) {
        for i in start..<block.count {
            let candidate = unsafe block.docs[i]
            var d = postings.doc
            if d < candidate { d = postings.seek(candidate) }
            if d == candidate {
                if scoring { unsafe block.scores[i] += ScoreSum(score(slot: postings.cursor)) }
                unsafe block.hits[i] &+= 1
            } else if d == terminatedDoc {
                return
            }
        }
    }

    package func accumulate(into window: inout ScoreWindow, base: DocID, end: DocID) {
        while true {
            let c = postings.cursor
            let count = postings.blockCount
            guard c < count else { return }
            let docs = unsafe postings.docs
            // The block's documents before `end`: all of them unless its last is past it (then one is, which ends
            // the scan).
            var stop = count
            if unsafe docs[count - 1] >= end {
                stop = c
                while unsafe docs[stop] < end { stop += 1 }
            }
            if stop > c { add(c..<stop, into: &window, base: base) }
            postings.consume(stop - c)
            if stop < count { return }
        }
    }

    /// Adds the decoded block's slots `run` (documents in `base..<base + ScoreWindow.size`) to `window`. Everything
    /// the loop reads is in locals, so no store into the window makes it reload the scorer's fields.
    @inline(__always)
    private func add(_ run: Range<Int>, into window: inout ScoreWindow, base: DocID) {
        let docs = unsafe postings.docs
        let bits = unsafe window.bits
        var summary = window.summary
        defer { window.summary = summary }
        if scoring {
            let tfs = unsafe postings.tfs
            let scores = unsafe window.scores
            let factors = unsafe normFactors
            let weight = self.weight
            if let norms {
                for i in run {
                    let doc = unsafe docs[i]
                    let slot = Int(doc &- base)
                    let factor = unsafe factors[Int(norms.code(doc))]
                    unsafe bits[slot &>> 6] |= 1 &<< UInt64(slot & 63)
                    summary |= 1 &<< UInt64(slot &>> 6)
                    unsafe scores[slot] += ScoreSum(Self.bm25(weight, tf: tfs[i], factor: factor))
                }
            } else {
                let factor = unsafe factors[0]
                for i in run {
                    let slot = Int(unsafe docs[i] &- base)
                    unsafe bits[slot &>> 6] |= 1 &<< UInt64(slot & 63)
                    summary |= 1 &<< UInt64(slot &>> 6)
                    unsafe scores[slot] += ScoreSum(Self.bm25(weight, tf: tfs[i], factor: factor))
                }
            }
        } else {
            for i in run {
                let slot = Int(unsafe docs[i] &- base)
                unsafe bits[slot &>> 6] |= 1 &<< UInt64(slot & 63)
                summary |= 1 &<< UInt64(slot &>> 6)
            }
        }
        if let counts = unsafe window.counts {
            for i in run { unsafe counts[Int(docs[i] &- base)] &+= 1 }
        }
    }

    package func seek(_ target: DocID) { _ = postings.seek(target) }

    package func regionEnd(from target: DocID) -> DocID { postings.regionEnd(from: target) }

    package func maxScore(from target: DocID, through last: DocID) -> Float {
        guard weight > 0 else { return 0 }
        guard let bounds = postings.blockBounds(from: target, through: last), bounds.maxTF != .max else {
            return paddedBound(weight)
        }
        let tf = Float(bounds.maxTF)
        let factor = unsafe normFactors[Int(bounds.minNorm)]
        return paddedBound(weight * (tf / (tf + factor)))
    }

    package func countRemaining(live: LiveDocs) -> Int {
        var count = 0
        if live.deleted == nil {
            while postings.doc != terminatedDoc {
                count += postings.blockCount - postings.cursor
                postings.consume(postings.blockCount - postings.cursor)
            }
            return count
        }
        while postings.doc != terminatedDoc {
            for i in postings.cursor..<postings.blockCount where live.contains(postings.doc(at: i)) { count += 1 }
            postings.consume(postings.blockCount - postings.cursor)
        }
        return count
    }
}
