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
        offsets = sorted.map(\.offset)
        self.slop = slop
        self.norms = norms
        self.bm25 = bm25
        unsafe capacities = Array(repeating: 16, count: sorted.count)
        unsafe buffers = unsafe (0..<sorted.count).map { _ in .allocate(capacity: 16) }
        unsafe current = postings.isEmpty ? terminatedDoc : settle(from: postings[0].doc)
    }

    deinit {
        for unsafe buffer in unsafe buffers { unsafe buffer.deallocate() }
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
                let d = postings[i].seek(candidate)
                if d != candidate {
                    agreed = false
                    candidate = d == terminatedDoc ? terminatedDoc : postings[0].seek(d)
                    break
                }
            }
            if !agreed { continue }
            unsafe phraseFrequency = countPhrases()
            if unsafe phraseFrequency > 0 { return candidate }
            candidate = postings[0].advance()
        }
        return terminatedDoc
    }

    /// Occurrences of the phrase in the current document: positions p such that every term i is at p + offset_i.
    private func countPhrases() -> UInt32 {
        for i in postings.indices {
            let tf = Int(postings[i].termFrequency)
            guard positions[i].canHold(tf) else { return 0 }
            if unsafe capacities[i] < tf {
                unsafe buffers[i].deallocate()
                unsafe buffers[i] = .allocate(capacity: tf)
                unsafe capacities[i] = tf
            }
            guard unsafe positions[i].read(ordinal: postings[i].positionsBefore, count: tf, into: buffers[i]) else {
                return 0
            }
        }
        if slop > 0 { return countSloppyPhrases() }
        // Walk the lead term's positions; every other term keeps a cursor into its own sorted positions.
        return unsafe withUnsafeTemporaryAllocation(of: Int.self, capacity: postings.count) { cursors in
            unsafe cursors.initialize(repeating: 0)
            let leadCount = Int(postings[0].termFrequency)
            var found: UInt32 = 0
            unsafe occurrenceStarts.removeAll(keepingCapacity: true)
            for p in 0..<leadCount {
                let start = Int64(unsafe buffers[0][p]) - Int64(offsets[0])
                var matched = true
                for i in 1..<postings.count {
                    let want = start + Int64(offsets[i])
                    let count = Int(postings[i].termFrequency)
                    var c = unsafe cursors[i]
                    while c < count && Int64(unsafe buffers[i][c]) < want { c += 1 }
                    unsafe cursors[i] = c
                    if c == count { return found }
                    if Int64(unsafe buffers[i][c]) != want { matched = false }
                }
                if matched {
                    found += 1
                    if recordsStarts {
                        unsafe occurrenceStarts.append(start)
                    } else if !scoring {
                        return found  // one occurrence decides a match that is not scored
                    }
                }
            }
            return found
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
