/// Documents where the terms occur at the given relative positions (an exact phrase, or with `slop`, relative
/// positions at most `slop` apart), scored by BM25 with the sum of the terms' idfs and the number of phrase
/// occurrences as tf (tantivy's `PhraseScorer`).
///
/// Document candidates come from a leapfrog intersection of the terms' postings, rarest first; positions are
/// decoded only for documents in the intersection, into buffers the scorer owns and reuses, so matching a
/// document allocates nothing.
@safe
package final class PhraseScorer: DocAtATimeScorer {
    /// The terms' cursors, rarest first.
    private let postings: [PostingsCursor]
    private let positions: [PositionsCursor]
    /// The same cursors, called through without a retain and release per candidate document (the arrays above
    /// keep them alive as long as the scorer).
    private let unretainedPostings: [Unmanaged<PostingsCursor>]
    private let unretainedPositions: [Unmanaged<PositionsCursor>]
    /// Position of each term inside the phrase.
    private let offsets: [UInt32]
    private let slop: UInt32
    private let norms: FieldNormsReader.Column?
    private let bm25: BM25Weight
    /// Per term, a buffer for one document's positions, and its capacity.
    // The scorer's state is touched for every candidate document; it is only ever accessed from the scorer's own
    // methods, one call at a time, so Swift's dynamic exclusivity checks are switched off for it.
    @exclusivity(unchecked) private var buffers: [UnsafeMutablePointer<UInt32>]
    @exclusivity(unchecked) private var capacities: [Int]
    @exclusivity(unchecked) private var phraseFrequency: UInt32 = 0
    @exclusivity(unchecked) private var current: DocID = 0
    package var doc: DocID { unsafe current }
    package let scoring: Bool
    /// With `recordsStarts` (an exact phrase), where each occurrence in the current document starts: the position of
    /// the phrase's offset 0, whatever its term.
    private let recordsStarts: Bool
    @exclusivity(unchecked) private var occurrenceStarts: [Int64] = []
    package var starts: [Int64] { unsafe occurrenceStarts }

    /// - Parameters:
    ///   - terms: each term's postings and positions cursors with its offset in the phrase.
    ///   - recordsStarts: whether to keep where each occurrence starts (`starts`), for phrase prefixes.
    package init(
        terms: [(postings: PostingsCursor, positions: PositionsCursor, offset: UInt32)], slop: UInt32,
        norms: FieldNormsReader.Column?, bm25: BM25Weight, scoring: Bool, recordsStarts: Bool = false
    ) {
        self.scoring = scoring
        self.recordsStarts = recordsStarts
        let sorted = terms.sorted { $0.postings.documentFrequency < $1.postings.documentFrequency }
        postings = sorted.map(\.postings)
        positions = sorted.map(\.positions)
        unsafe unretainedPostings = unsafe sorted.map { unsafe Unmanaged.passUnretained($0.postings) }
        unsafe unretainedPositions = unsafe sorted.map { unsafe Unmanaged.passUnretained($0.positions) }
        offsets = sorted.map(\.offset)
        self.slop = slop
        self.norms = norms
        self.bm25 = bm25
        unsafe capacities = Array(repeating: 16, count: sorted.count)
        unsafe buffers = unsafe (0..<sorted.count).map { _ in .allocate(capacity: 16) }
        unsafe current = postings.isEmpty ? terminatedDoc : settle(from: postings[0].doc)
    }

    deinit {
        for i in unsafe buffers.indices { unsafe buffers[i].deallocate() }
    }

    package var cost: Int { postings.first?.documentFrequency ?? 0 }

    package var damage: SegmentDamage? {
        for p in postings { if let d = p.damage { return d } }
        for p in positions { if let d = p.damage { return d } }
        return nil
    }

    package func next() -> DocID {
        guard doc != terminatedDoc else { return doc }
        unsafe current = settle(from: postings[0].advance())
        return doc
    }

    package func advance(to target: DocID) -> DocID {
        guard doc < target else { return doc }
        unsafe current = settle(from: postings[0].seek(target))
        return doc
    }

    package func currentScore() -> Float {
        bm25.score(normCode: norms.map { $0.code(doc) } ?? 0, termFrequency: unsafe phraseFrequency)
    }

    /// The phrase frequency can be anything, so the bound is BM25's limit for an unbounded tf.
    package func maxScore(from target: DocID, through last: DocID) -> Float { paddedBound(bm25.weight) }

    /// From candidate `start` (the lead cursor's document), the first document where every term is present and
    /// the phrase occurs.
    private func settle(from start: DocID) -> DocID {
        var candidate = start
        while candidate != terminatedDoc {
            var agreed = true
            for i in 1..<postings.count {
                let d = unsafe unretainedPostings[i]._withUnsafeGuaranteedRef { $0.seek(candidate) }
                if d != candidate {
                    agreed = false
                    candidate =
                        d == terminatedDoc
                        ? terminatedDoc : unsafe unretainedPostings[0]._withUnsafeGuaranteedRef { $0.seek(d) }
                    break
                }
            }
            if !agreed { continue }
            unsafe phraseFrequency = countPhrases()
            if unsafe phraseFrequency > 0 { return candidate }
            candidate = unsafe unretainedPostings[0]._withUnsafeGuaranteedRef { $0.advance() }
        }
        return terminatedDoc
    }

    /// Occurrences of the phrase in the current document: positions p such that every term i is at p + offset_i.
    /// The lead (rarest) term's positions are filtered term by term, in place, so a term that rules the document out
    /// spares reading the positions of the terms after it.
    private func countPhrases() -> UInt32 {
        guard readPositions(0) else { return 0 }
        if slop > 0 {
            for i in 1..<postings.count { guard readPositions(i) else { return 0 } }
            return countSloppyPhrases()
        }
        let lead = unsafe buffers[0]
        var survivors = Int(postings[0].termFrequency)
        let last = postings.count - 1
        // Without scoring or starts, one occurrence decides the match: the last term stops at its first.
        let stopsAtFirst = !scoring && !recordsStarts
        for i in 1..<postings.count {
            guard readPositions(i) else { return 0 }
            let other = unsafe buffers[i]
            let count = Int(postings[i].termFrequency)
            let shift = Int64(offsets[i]) - Int64(offsets[0])
            var kept = 0
            var c = 0
            for k in 0..<survivors {
                let want = Int64(unsafe lead[k]) + shift
                while c < count && Int64(unsafe other[c]) < want { c += 1 }
                if c == count { break }
                if Int64(unsafe other[c]) == want {
                    unsafe lead[kept] = lead[k]
                    kept += 1
                    if stopsAtFirst && i == last { return 1 }
                }
            }
            survivors = kept
            if survivors == 0 { return 0 }
        }
        if recordsStarts {
            unsafe occurrenceStarts.removeAll(keepingCapacity: true)
            for k in 0..<survivors { unsafe occurrenceStarts.append(Int64(lead[k]) - Int64(offsets[0])) }
        }
        return UInt32(survivors)
    }

    /// Reads term `i`'s positions in the current document into its buffer, growing the buffer first if needed.
    private func readPositions(_ i: Int) -> Bool {
        unsafe unretainedPostings[i]._withUnsafeGuaranteedRef { postings in
            unsafe unretainedPositions[i]._withUnsafeGuaranteedRef { positions in
                let tf = Int(postings.termFrequency)
                guard positions.canHold(tf) else { return false }
                if unsafe capacities[i] < tf {
                    unsafe buffers[i].deallocate()
                    unsafe buffers[i] = .allocate(capacity: tf)
                    unsafe capacities[i] = tf
                }
                return unsafe positions.read(ordinal: postings.positionsBefore, count: tf, into: buffers[i])
            }
        }
    }

    /// Sloppy occurrences: one position of each term, their positions relative to the phrase (position − offset)
    /// within `slop` of each other, in any order. For two terms this is tantivy 0.27's rule (`"a b"~1` finds
    /// "a x b" and "b a"); for more, tantivy's result depends on the terms' document frequencies, so Loupe uses the
    /// order-free rule above (Lucene's). Counted without overlap by the smallest-window sweep: advance the term at
    /// the lowest relative position until the window fits, count it, then move every term past it.
    private func countSloppyPhrases() -> UInt32 {
        let n = postings.count
        return unsafe withUnsafeTemporaryAllocation(of: Int.self, capacity: n) { cursors in
            unsafe cursors.initialize(repeating: 0)
            var found: UInt32 = 0
            while true {
                var low = Int64.max
                var high = Int64.min
                var lowest = 0
                for i in 0..<n {
                    guard unsafe cursors[i] < Int(postings[i].termFrequency) else { return found }
                    let relative = Int64(unsafe buffers[i][cursors[i]]) - Int64(offsets[i])
                    if relative < low {
                        low = relative
                        lowest = i
                    }
                    high = max(high, relative)
                }
                if high - low <= Int64(slop) {
                    found += 1
                    if !scoring { return found }
                    for i in 0..<n { unsafe cursors[i] += 1 }
                } else {
                    unsafe cursors[lowest] += 1
                }
            }
        }
    }
}
