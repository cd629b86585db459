/// The number of matching documents holding each value of a fast field: the collector behind `termCounts`.
///
/// A string column counts per ordinal into an array the size of its segment's dictionary (one slot more, for the
/// documents without a value), so a document costs a column read and an increment — a single-valued column is read
/// a block at a time; a segment's counts are keyed by their strings when it is merged (ordinals differ
/// between segments). A numeric column counts per mapped value. A document holding a value twice counts once.
struct TermCountsCollector: Collector {
    let field: Int
    /// Matching documents per string, or per mapped value of a numeric field.
    private(set) var strings: [[UInt8]: Int] = [:]
    private(set) var numbers: [UInt64: Int] = [:]

    init(field: Int) {
        self.field = field
    }

    struct Segment: SegmentCollector {
        let column: Column?
        var ordinalCounts: [UInt32]
        var valueCounts: [UInt64: Int] = [:]

        var needsMatches: Bool { column != nil }
        var threshold: Float { -.infinity }
        mutating func setMatchCount(_ count: Int) {}

        mutating func collect(_ block: borrowing ScoreBlock) {
            guard let column else { return }
            if let dictionary = column.dictionary, column.isSingleValued {
                unsafe withUnsafeTemporaryAllocation(of: UInt64.self, capacity: ScoreBlock.capacity) { ordinals in
                    let values = ordinals.baseAddress!
                    unsafe column.firstValues(of: block.docs, count: block.count, into: values, missing: UInt64(dictionary.count))
                    unsafe ordinalCounts.withUnsafeMutableBufferPointer { counts in
                        for i in 0..<block.count { unsafe counts[Int(values[i])] &+= 1 }
                    }
                }
            } else if column.dictionary != nil {
                unsafe ordinalCounts.withUnsafeMutableBufferPointer { counts in
                    for i in 0..<block.count {
                        let values = column.valueRange(unsafe block.docs[i])
                        for v in values where Self.isFirst(v, in: values, of: column) {
                            unsafe counts[Int(column.value(at: v))] &+= 1
                        }
                    }
                }
            } else {
                for i in 0..<block.count {
                    let values = column.valueRange(unsafe block.docs[i])
                    for v in values where Self.isFirst(v, in: values, of: column) {
                        valueCounts[column.value(at: v), default: 0] += 1
                    }
                }
            }
        }

        /// Whether the value at `index` is its document's first occurrence of that value.
        @inline(__always) static func isFirst(_ index: Int, in values: Range<Int>, of column: Column) -> Bool {
            guard index > values.lowerBound else { return true }
            let v = column.value(at: index)
            for earlier in values.lowerBound..<index where column.value(at: earlier) == v { return false }
            return true
        }
    }

    var needsScores: Bool { false }

    func segmentCollector(ordinal: Int, segment: SegmentReader) -> Segment {
        let column = segment.fast.column(field)
        let slots = column?.dictionary.map { $0.count + 1 } ?? 0
        return Segment(column: column, ordinalCounts: [UInt32](repeating: 0, count: slots))
    }

    mutating func merge(_ segment: Segment) {
        if let dictionary = segment.column?.dictionary {
            for (ordinal, count) in segment.ordinalCounts.dropLast().enumerated() where count > 0 {
                strings[dictionary.term(UInt64(ordinal)), default: 0] += Int(count)
            }
        }
        for (value, count) in segment.valueCounts { numbers[value, default: 0] += count }
    }

    /// The `limit` most frequent values, ties by value ascending, as `type`'s values.
    func top(_ limit: Int, type: FieldType) -> [FacetCount] {
        var out: [FacetCount] = []
        if type.isNumeric {
            let best = numbers.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(limit)
            for (value, count) in best { out.append(FacetCount(value: FieldValue(.mapped(value), type: type), count: count)) }
        } else {
            let best = strings.sorted { a, b in
                a.value != b.value ? a.value > b.value : a.key.lexicographicallyPrecedes(b.key)
            }.prefix(limit)
            for (value, count) in best { out.append(FacetCount(value: FieldValue(.bytes(value), type: type), count: count)) }
        }
        return out
    }
}
