/// One bit per document of a segment: the matches of a constant-score query (ranges, exists, expanded
/// multi-term queries), filled once per segment and then walked in order.
package struct DocBitSet: Sendable {
    package var words: [UInt64]
    package let maxDoc: Int

    package init(maxDoc: Int) {
        self.maxDoc = maxDoc
        words = [UInt64](repeating: 0, count: (maxDoc + 63) / 64)
    }

    @inline(__always) package mutating func insert(_ doc: DocID) {
        words[Int(doc >> 6)] |= 1 << UInt64(doc & 63)
    }

    @inline(__always) package func contains(_ doc: DocID) -> Bool {
        words[Int(doc >> 6)] & (1 << UInt64(doc & 63)) != 0
    }

    /// Adds every document of a postings list (whose ids the cursor checked against the segment's `maxDoc`), a
    /// decoded block at a time.
    package mutating func insert(_ postings: PostingsCursor) {
        while postings.doc != terminatedDoc {
            for i in postings.cursor..<postings.blockCount { insert(postings.doc(at: i)) }
            postings.consume(postings.blockCount - postings.cursor)
        }
    }

    /// Adds every document of `other` (of the same segment).
    package mutating func formUnion(_ other: DocBitSet) {
        for i in words.indices { words[i] |= other.words[i] }
    }

    /// Documents in the set.
    package var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// The first document ≥ `start` in the set, `terminatedDoc` if none.
    package func next(from start: DocID) -> DocID {
        var w = Int(start >> 6)
        guard w < words.count else { return terminatedDoc }
        var word = words[w] & (~0 << UInt64(start & 63))
        while true {
            if word != 0 { return DocID(w << 6 | word.trailingZeroBitCount) }
            w += 1
            guard w < words.count else { return terminatedDoc }
            word = words[w]
        }
    }
}
