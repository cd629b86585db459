import FoundationEssentials

/// Top-k by the first value of a fast field instead of by score: documents without a value come last, ties go
/// to the earlier document. Values are compared as mapped `UInt64`s, whose order is the field type's order.
struct FieldSort {
    let field: Int
    let type: FieldType
    let descending: Bool

    struct Entry {
        var score: Float
        /// The mapped sort value; nil when the document has none.
        var value: UInt64?
        var address: DocAddress
    }

    fileprivate enum Ascending: HeapOrder {
        static func worse(_ a: Entry, _ b: Entry) -> Bool {
            switch (a.value, b.value) {
            case (nil, nil): return a.address > b.address
            case (nil, _): return true
            case (_, nil): return false
            case (let x?, let y?): return x > y || (x == y && a.address > b.address)
            }
        }
    }

    fileprivate enum Descending: HeapOrder {
        static func worse(_ a: Entry, _ b: Entry) -> Bool {
            switch (a.value, b.value) {
            case (nil, nil): return a.address > b.address
            case (nil, _): return true
            case (_, nil): return false
            case (let x?, let y?): return x < y || (x == y && a.address > b.address)
            }
        }
    }

    init(schema: Schema, field name: String, descending: Bool) throws(IndexError) {
        guard let i = schema.fieldIndex[name] else {
            throw IndexError(.invalidArgument, "cannot sort by unknown field '\(name)'\(schema.suggestion(for: name))", context: .init(field: name))
        }
        let entry = schema.fields[i]
        guard entry.fast, entry.type != .text, entry.type != .string else {
            throw IndexError(
                .invalidArgument,
                "cannot sort by '\(name)': sorting needs a fast numeric, date or bool field (declare it with fast: true)",
                context: .init(field: name))
        }
        field = i
        type = entry.type
        self.descending = descending
    }

    /// A collector of the best `k` entries by this order, and of the match count.
    func collector(k: Int) -> Top { Top(sort: self, k: k) }

    /// The best `k` matches by the field (both orders keep a heap of their own type, so each specializes).
    struct Top: Collector {
        let sort: FieldSort
        private var ascending: BoundedHeap<Ascending>
        private var descending: BoundedHeap<Descending>
        private(set) var count = 0

        init(sort: FieldSort, k: Int) {
            self.sort = sort
            ascending = BoundedHeap(k: sort.descending ? 0 : k)
            descending = BoundedHeap(k: sort.descending ? k : 0)
        }

        struct Segment: SegmentCollector {
            let ordinal: Int
            let column: Column?
            let descending: Bool
            fileprivate var ascending: BoundedHeap<Ascending>
            fileprivate var descendingHeap: BoundedHeap<Descending>
            var count = 0

            var needsMatches: Bool { true }
            var threshold: Float { -.infinity }
            mutating func setMatchCount(_ count: Int) {}

            mutating func collect(_ block: borrowing ScoreBlock) {
                count += block.count
                for i in 0..<block.count {
                    let doc = unsafe block.docs[i]
                    let entry = Entry(
                        score: unsafe Float(block.scores[i]), value: column?.first(doc), address: DocAddress(segment: ordinal, doc: doc))
                    if descending { descendingHeap.offer(entry) } else { ascending.offer(entry) }
                }
            }
        }

        var needsScores: Bool { true }

        func segmentCollector(ordinal: Int, segment: SegmentReader) -> Segment {
            Segment(
                ordinal: ordinal, column: segment.fast.column(sort.field), descending: sort.descending,
                ascending: BoundedHeap(k: ascending.k), descendingHeap: BoundedHeap(k: descending.k))
        }

        mutating func merge(_ segment: Segment) {
            count += segment.count
            for entry in segment.ascending.sorted() { ascending.offer(entry) }
            for entry in segment.descendingHeap.sorted() { descending.offer(entry) }
        }

        /// The kept entries, best first.
        func sorted() -> [Entry] { sort.descending ? descending.sorted() : ascending.sorted() }
    }

    /// A mapped value back as the field's value.
    func fieldValue(_ mapped: UInt64) -> FieldValue {
        switch type {
        case .i64: return .i64(NumericMapping.toI64(mapped))
        case .f64: return .f64(NumericMapping.toF64(mapped))
        case .bool: return .bool(mapped != 0)
        case .date: return .date(Date(timeIntervalSince1970: Double(NumericMapping.toI64(mapped)) / 1_000_000))
        case .u64, .text, .string: return .u64(mapped)
        }
    }
}
