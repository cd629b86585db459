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

/// The k best hits by score, and how many matches there are. Ties go to the lower address (earlier segment, lower
/// document), as in tantivy. Matches are counted exactly up to `countLimit`; past it (and once k hits are kept)
/// the collector's threshold lets the driver prune, and the count becomes a lower bound.
package struct TopDocsCollector: Collector {
    package struct Entry {
        package var score: Float
        package var address: DocAddress
    }

    fileprivate enum ByScore: HeapOrder {
        @inline(__always) static func worse(_ a: Entry, _ b: Entry) -> Bool {
            a.score < b.score || (a.score == b.score && a.address > b.address)
        }
    }

    private var heap: BoundedHeap<ByScore>
    private let countLimit: Int
    /// Matches counted so far.
    package private(set) var count = 0
    /// False once a segment's matches were counted only up to the limit.
    package private(set) var countIsExact = true

    /// - Parameter countLimit: matches to count exactly (`.max`: all of them, so nothing is pruned; 0: none).
    package init(k: Int, countLimit: Int) {
        heap = BoundedHeap(k: k)
        self.countLimit = countLimit
    }

    package struct Segment: SegmentCollector {
        fileprivate var heap: BoundedHeap<ByScore>
        let ordinal: Int
        /// A match must score above this to enter the hits the earlier segments left.
        let floor: Float
        /// Matches counted before this segment.
        let before: Int
        let countLimit: Int
        var count = 0
        var countKnown = false

        package var needsMatches: Bool { true }

        package var threshold: Float {
            guard countKnown || before &+ count >= countLimit else { return -.infinity }
            return max(floor, heap.worstWhenFull?.score ?? -.infinity)
        }

        package mutating func setMatchCount(_ count: Int) {
            self.count = count
            countKnown = true
        }

        package mutating func collect(_ block: borrowing ScoreBlock) {
            if !countKnown { count += block.count }
            var entry = max(floor, heap.worstWhenFull?.score ?? -.infinity)
            for i in 0..<block.count {
                let score = unsafe Float(block.scores[i])
                guard score > entry else { continue }
                heap.offer(Entry(score: score, address: DocAddress(segment: ordinal, doc: unsafe block.docs[i])))
                entry = max(floor, heap.worstWhenFull?.score ?? -.infinity)
            }
        }
    }

    package var needsScores: Bool { true }

    package func segmentCollector(ordinal: Int, segment: SegmentReader) -> Segment {
        Segment(
            heap: BoundedHeap(k: heap.k), ordinal: ordinal, floor: heap.worstWhenFull?.score ?? -.infinity,
            before: count,
            countLimit: countLimit)
    }

    package mutating func merge(_ segment: Segment) {
        for entry in segment.heap.sorted() { heap.offer(entry) }
        count += segment.count
        if !segment.countKnown && count >= countLimit && countLimit != .max { countIsExact = false }
    }

    /// The kept hits, best first.
    package func sorted() -> [Entry] { heap.sorted() }
}
