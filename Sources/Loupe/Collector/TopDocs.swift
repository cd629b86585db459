/// A hit's address: which segment of the searcher, and the document inside it.
package struct DocAddress: Hashable, Sendable, Comparable {
    package var segment: Int
    package var doc: DocID

    package static func < (a: Self, b: Self) -> Bool { (a.segment, a.doc) < (b.segment, b.doc) }
}

/// How a `BoundedHeap` ranks its elements.
package protocol HeapOrder {
    associatedtype Element
    /// True if `a` ranks below `b`.
    static func worse(_ a: Element, _ b: Element) -> Bool
}

/// Keeps the k best elements seen, in a binary min-heap whose root is the current worst, so a candidate is
/// rejected with one comparison once the heap is full. Generic over the order, so each use specializes.
package struct BoundedHeap<Order: HeapOrder> {
    package let k: Int
    private var heap: [Order.Element] = []

    package init(k: Int) {
        self.k = k
        heap.reserveCapacity(min(k, 1 << 16))
    }

    /// The worst kept element once `k` are kept, nil before.
    @inline(__always) package var worstWhenFull: Order.Element? { heap.count == k && k > 0 ? heap[0] : nil }

    @inline(__always)
    package mutating func offer(_ element: Order.Element) {
        guard k > 0 else { return }
        if heap.count < k {
            heap.append(element)
            siftUp(heap.count - 1)
        } else if Order.worse(heap[0], element) {
            heap[0] = element
            siftDown(0)
        }
    }

    private mutating func siftUp(_ start: Int) {
        var i = start
        while i > 0 {
            let parent = (i - 1) / 2
            if !Order.worse(heap[i], heap[parent]) { break }
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
            if l < heap.count && Order.worse(heap[l], heap[m]) { m = l }
            if r < heap.count && Order.worse(heap[r], heap[m]) { m = r }
            if m == i { return }
            heap.swapAt(i, m)
            i = m
        }
    }

    /// The kept elements, best first.
    package func sorted() -> [Order.Element] {
        heap.sorted { Order.worse($1, $0) }
    }
}

/// Keeps the k best (score, address) pairs seen. Ties go to the lower address (earlier segment, lower
/// document), as in tantivy.
package struct TopDocs {
    package struct Entry {
        package var score: Float
        package var address: DocAddress
    }

    private enum ByScore: HeapOrder {
        @inline(__always) static func worse(_ a: Entry, _ b: Entry) -> Bool {
            a.score < b.score || (a.score == b.score && a.address > b.address)
        }
    }

    private var heap: BoundedHeap<ByScore>

    package init(k: Int) {
        heap = BoundedHeap(k: k)
    }

    /// A document scoring at most this cannot enter the kept hits any more (documents arrive in increasing
    /// order, so a tie loses to the document already kept); -infinity until `k` hits are kept.
    @inline(__always)
    package var entryThreshold: Float { heap.worstWhenFull?.score ?? -.infinity }

    @inline(__always)
    package mutating func offer(_ score: Float, _ address: DocAddress) {
        heap.offer(Entry(score: score, address: address))
    }

    /// The kept hits, best first.
    package func sorted() -> [Entry] { heap.sorted() }
}

/// Drives a scorer to exhaustion, feeding every live match to the top-k heap and counting them.
/// Generic over the scorer so the loop specializes for the concrete root type; deleted documents are skipped here,
/// at collection, so no scorer needs to know about them.
package func collectTopDocs<S: Scorer>(_ scorer: S, segment: Int, deleted: DeletedDocs?, into top: inout TopDocs) -> Int {
    guard let deleted else { return collectTopDocs(scorer, segment: segment, into: &top) { _ in false } }
    return collectTopDocs(scorer, segment: segment, into: &top) { deleted.contains($0) }
}

/// The collection loop, with the deletion test inlined (a constant `false` without deletions).
@inline(__always)
private func collectTopDocs<S: Scorer>(
    _ scorer: S, segment: Int, into top: inout TopDocs, isDeleted: (DocID) -> Bool
) -> Int {
    var count = 0
    var threshold = top.entryThreshold
    var doc = scorer.doc
    while doc != terminatedDoc {
        if !isDeleted(doc) {
            count += 1
            let score = scorer.score()
            if score > threshold {
                top.offer(score, DocAddress(segment: segment, doc: doc))
                threshold = top.entryThreshold
            }
        }
        doc = scorer.advance()
    }
    return count
}

/// Counts a scorer's live matches without scoring them.
package func countDocs<S: Scorer>(_ scorer: S, deleted: DeletedDocs?) -> Int {
    var count = 0
    var doc = scorer.doc
    if let deleted {
        while doc != terminatedDoc {
            if !deleted.contains(doc) { count += 1 }
            doc = scorer.advance()
        }
        return count
    }
    while doc != terminatedDoc {
        count += 1
        doc = scorer.advance()
    }
    return count
}
