/// A hit's address: which segment of the searcher, and the document inside it.
package struct DocAddress: Hashable, Sendable, Comparable {
    package var segment: Int
    package var doc: DocID

    package static func < (a: Self, b: Self) -> Bool { (a.segment, a.doc) < (b.segment, b.doc) }
}

/// Keeps the k best (score, address) pairs seen, in a binary min-heap whose root is the current worst, so
/// a candidate is rejected with one comparison once the heap is full. Ties go to the lower address
/// (earlier segment, lower document), as in tantivy.
package struct TopDocs {
    package struct Entry {
        package var score: Float
        package var address: DocAddress
    }

    private let k: Int
    private var heap: [Entry] = []

    package init(k: Int) {
        self.k = k
        heap.reserveCapacity(min(k, 1 << 16))
    }

    /// True if `a` ranks below `b`.
    @inline(__always) private static func worse(_ a: Entry, _ b: Entry) -> Bool {
        a.score < b.score || (a.score == b.score && a.address > b.address)
    }

    /// A document scoring at most this cannot enter the kept hits any more (documents arrive in increasing
    /// order, so a tie loses to the document already kept); -infinity until `k` hits are kept.
    @inline(__always)
    package var entryThreshold: Float { heap.count == k && k > 0 ? heap[0].score : -.infinity }

    @inline(__always)
    package mutating func offer(_ score: Float, _ address: DocAddress) {
        guard k > 0 else { return }
        let entry = Entry(score: score, address: address)
        if heap.count < k {
            heap.append(entry)
            siftUp(heap.count - 1)
        } else if Self.worse(heap[0], entry) {
            heap[0] = entry
            siftDown(0)
        }
    }

    private mutating func siftUp(_ start: Int) {
        var i = start
        while i > 0 {
            let parent = (i - 1) / 2
            if !Self.worse(heap[i], heap[parent]) { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let l = 2 * i + 1
            let r = l + 1
            var m = i
            if l < heap.count && Self.worse(heap[l], heap[m]) { m = l }
            if r < heap.count && Self.worse(heap[r], heap[m]) { m = r }
            if m == i { return }
            heap.swapAt(i, m)
            i = m
        }
    }

    /// The kept hits, best first.
    package func sorted() -> [Entry] {
        heap.sorted { Self.worse($1, $0) }
    }
}

/// Drives a scorer to exhaustion, feeding every match to the top-k heap and counting them.
/// Generic over the scorer so the loop specializes for the concrete root type.
package func collectTopDocs<S: Scorer>(_ scorer: S, segment: Int, into top: inout TopDocs) -> Int {
    var count = 0
    var threshold = top.entryThreshold
    var doc = scorer.doc
    while doc != terminatedDoc {
        count += 1
        let score = scorer.score()
        if score > threshold {
            top.offer(score, DocAddress(segment: segment, doc: doc))
            threshold = top.entryThreshold
        }
        doc = scorer.advance()
    }
    return count
}

/// Counts a scorer's matches without scoring them.
package func countDocs<S: Scorer>(_ scorer: S) -> Int {
    var count = 0
    var doc = scorer.doc
    while doc != terminatedDoc {
        count += 1
        doc = scorer.advance()
    }
    return count
}
