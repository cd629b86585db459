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

    private enum Ascending: HeapOrder {
        static func worse(_ a: Entry, _ b: Entry) -> Bool {
            switch (a.value, b.value) {
            case (nil, nil): return a.address > b.address
            case (nil, _): return true
            case (_, nil): return false
            case (let x?, let y?): return x > y || (x == y && a.address > b.address)
            }
        }
    }

    private enum Descending: HeapOrder {
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

    /// The live match count and the best `k` entries, best first.
    func collect(_ weight: Weight, segments: [SegmentReader], k: Int) -> (Int, [Entry]) {
        if descending {
            var heap = BoundedHeap<Descending>(k: k)
            let count = run(weight, segments) { heap.offer($0) }
            return (count, heap.sorted())
        }
        var heap = BoundedHeap<Ascending>(k: k)
        let count = run(weight, segments) { heap.offer($0) }
        return (count, heap.sorted())
    }

    private func run(_ weight: Weight, _ segments: [SegmentReader], _ offer: (Entry) -> Void) -> Int {
        var count = 0
        for (i, segment) in segments.enumerated() {
            let column = segment.fast.column(field)
            let scorer = weight.scorer(segment, ordinal: i)
            var doc = scorer.doc
            while doc != terminatedDoc {
                if segment.deleted?.contains(doc) != true {
                    count += 1
                    offer(Entry(score: scorer.score(), value: column?.first(doc), address: DocAddress(segment: i, doc: doc)))
                }
                doc = scorer.advance()
            }
        }
        return count
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
