/// Top-k by the first value of a fast field instead of by score: documents without a value come last, ties go
/// to the earlier document. Values are compared as mapped `UInt64`s, whose order is the field type's order; a string
/// field's values are ordinals, compared as such within a segment and by their bytes across segments.
struct FieldSort {
    let field: Int
    let type: FieldType
    let descending: Bool

    struct Entry {
        var score: Float
        /// The mapped sort value (an ordinal in its segment for strings); nil when the document has none.
        var value: UInt64?
        var address: DocAddress
        /// The string a string sort's ordinal stands for, set when its segment is merged.
        var text: [UInt8]? = nil
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
            throw IndexError(
                .invalidArgument, "cannot sort by unknown field '\(name)'\(schema.suggestion(for: name))",
                context: .init(field: name))
        }
        let entry = schema.fields[i]
        guard entry.fast else {
            throw IndexError(
                .invalidArgument, "cannot sort by '\(name)': sorting needs a fast field (declare it with fast: true)",
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
        /// The best entries so far of a string sort, best first (ordinals do not compare across segments).
        private var strings: [Entry] = []
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
                        score: unsafe Float(block.scores[i]), value: column?.first(doc),
                        address: DocAddress(segment: ordinal, doc: doc))
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
            guard sort.type == .string || sort.type == .text else {
                for entry in segment.ascending.sorted() { ascending.offer(entry) }
                for entry in segment.descendingHeap.sorted() { descending.offer(entry) }
                return
            }
            let found = sort.descending ? segment.descendingHeap.sorted() : segment.ascending.sorted()
            for var entry in found {
                if let ordinal = entry.value { entry.text = segment.column?.dictionary?.term(ordinal) }
                strings.append(entry)
            }
            let descending = sort.descending
            strings.sort { a, b in
                switch (a.text, b.text) {
                case (nil, nil): return a.address < b.address
                case (nil, _): return false
                case (_, nil): return true
                case (let x?, let y?):
                    if x == y { return a.address < b.address }
                    return descending ? y.lexicographicallyPrecedes(x) : x.lexicographicallyPrecedes(y)
                }
            }
            strings.removeLast(max(0, strings.count - max(ascending.k, self.descending.k)))
        }

        /// The kept entries, best first.
        func sorted() -> [Entry] {
            if sort.type == .string || sort.type == .text { return strings }
            return sort.descending ? descending.sorted() : ascending.sorted()
        }
    }

    /// An entry's sort value as the field's value, nil when its document has none.
    func fieldValue(of entry: Entry) -> FieldValue? {
        if let text = entry.text { return FieldValue(.bytes(text), type: type) }
        guard let mapped = entry.value, type.isNumeric else { return nil }
        return FieldValue(.mapped(mapped), type: type)
    }
}
