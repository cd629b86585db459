/// The k best hits by score, ties broken by a fast field's first value (larger first; a document without one
/// last), then by address: instant search's order when a popularity field is given. Since a match scoring as much
/// as the worst kept hit may still displace it, the threshold the driver prunes with sits just below that score.
struct PopularTopDocsCollector: Collector {
    struct Entry {
        var score: Float
        var popularity: UInt64?
        var address: DocAddress
    }

    fileprivate enum Order: HeapOrder {
        @inline(__always) static func worse(_ a: Entry, _ b: Entry) -> Bool {
            if a.score != b.score { return a.score < b.score }
            switch (a.popularity, b.popularity) {
            case (let x?, let y?) where x != y: return x < y
            case (nil, _?): return true
            case (_?, nil): return false
            default: return a.address > b.address
            }
        }
    }

    let field: Int
    private var heap: BoundedHeap<Order>

    init(k: Int, field: Int) {
        heap = BoundedHeap(k: k)
        self.field = field
    }

    struct Segment: SegmentCollector {
        fileprivate var heap: BoundedHeap<Order>
        let ordinal: Int
        let column: Column?
        /// The worst hit the earlier segments kept, once they kept k.
        let floor: Float

        var needsMatches: Bool { true }

        var threshold: Float {
            let worst = max(floor, heap.worstWhenFull?.score ?? -.infinity)
            return worst == -.infinity ? worst : worst.nextDown
        }

        mutating func setMatchCount(_ count: Int) {}

        mutating func collect(_ block: borrowing ScoreBlock) {
            for i in 0..<block.count {
                let score = unsafe Float(block.scores[i])
                guard score >= floor else { continue }
                let doc = unsafe block.docs[i]
                heap.offer(
                    Entry(score: score, popularity: column?.first(doc), address: DocAddress(segment: ordinal, doc: doc))
                )
            }
        }
    }

    var needsScores: Bool { true }

    func segmentCollector(ordinal: Int, segment: SegmentReader) -> Segment {
        Segment(
            heap: BoundedHeap(k: heap.k), ordinal: ordinal, column: segment.fast.column(field),
            floor: heap.worstWhenFull?.score ?? -.infinity)
    }

    mutating func merge(_ segment: Segment) {
        for entry in segment.heap.sorted() { heap.offer(entry) }
    }

    /// The kept hits, best first.
    func sorted() -> [Entry] { heap.sorted() }
}
