/// The number of matching documents holding each value of a fast field: the collector behind `termCounts`.
///
/// A string column counts per ordinal into an array the size of its segment's dictionary (one slot more, for the
/// documents without a value), so a document costs a column read and an increment — a single-valued column is read
/// a block at a time. Ordinals differ between segments, so the result walks the segments' dictionaries together in
/// byte order, adding up each string's counts without hashing it and keeping only the best `limit` as it goes. A numeric column counts per mapped value. A document holding a value twice counts once: per
/// ordinal the segment remembers the last document it counted (the column keeps a document's repeats, which
/// tantivy's `value_count` counts); a numeric document's values are compared with each other.
struct TermCountsCollector: Collector {
    let field: Int
    /// Per segment with a string column, its dictionary and matching documents per ordinal.
    private var strings: [(dictionary: ColumnDictionary, counts: [UInt32])] = []
    /// Matching documents per mapped value of a numeric field.
    private var numbers: [UInt64: Int] = [:]

    init(field: Int) {
        self.field = field
    }

    struct Segment: SegmentCollector {
        let column: Column?
        var ordinalCounts: [UInt32]
        /// Per ordinal, the last document counted for it (multi-valued string columns).
        var lastCounted: [DocID]
        var valueCounts: [UInt64: Int] = [:]

        var needsMatches: Bool { column != nil }
        var threshold: Float { -.infinity }
        mutating func setMatchCount(_ count: Int) {}

        mutating func collect(_ block: borrowing ScoreBlock) {
            guard let column else { return }
            if let dictionary = column.dictionary, column.isSingleValued {
                unsafe withUnsafeTemporaryAllocation(of: UInt64.self, capacity: ScoreBlock.capacity) { ordinals in
                    let values = ordinals.baseAddress!
                    unsafe column.firstValues(
                        of: block.docs, count: block.count, into: values, missing: UInt64(dictionary.count))
                    unsafe ordinalCounts.withUnsafeMutableBufferPointer { counts in
                        for i in 0..<block.count { unsafe counts[Int(values[i])] &+= 1 }
                    }
                }
            } else if column.dictionary != nil {
                unsafe ordinalCounts.withUnsafeMutableBufferPointer { counts in
                    unsafe lastCounted.withUnsafeMutableBufferPointer { last in
                        for i in 0..<block.count {
                            let doc = unsafe block.docs[i]
                            for v in column.valueRange(doc) {
                                let ordinal = Int(column.value(at: v))
                                guard unsafe last[ordinal] != doc else { continue }
                                unsafe last[ordinal] = doc
                                unsafe counts[ordinal] &+= 1
                            }
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

        /// A single-valued string column counts every document by running down its values: no scorer, no
        /// document-to-row lookup.
        mutating func collectEveryDocument() -> Bool {
            guard let column, column.dictionary != nil, column.isSingleValued else { return false }
            unsafe ordinalCounts.withUnsafeMutableBufferPointer { counts in
                unsafe column.forEachValueBlock { values in
                    for i in values.indices { unsafe counts[Int(values[i])] &+= 1 }
                }
            }
            return true
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
        let multiValued = column.map { $0.dictionary != nil && !$0.isSingleValued } ?? false
        return Segment(
            column: column, ordinalCounts: [UInt32](repeating: 0, count: slots),
            lastCounted: [DocID](repeating: terminatedDoc, count: multiValued ? slots : 0))
    }

    mutating func merge(_ segment: Segment) {
        if let dictionary = segment.column?.dictionary { strings.append((dictionary, segment.ordinalCounts)) }
        for (value, count) in segment.valueCounts { numbers[value, default: 0] += count }
    }

    /// The `limit` most frequent values, ties by value ascending, as `type`'s values.
    func top(_ limit: Int, type: FieldType) -> [FacetCount] {
        var out: [FacetCount] = []
        if type.isNumeric {
            let best = numbers.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(limit)
            for (value, count) in best {
                out.append(FacetCount(value: FieldValue(.mapped(value), type: type), count: count))
            }
        } else {
            for (value, count) in topStrings(limit) {
                out.append(FacetCount(value: FieldValue(.bytes(value), type: type), count: count))
            }
        }
        return out
    }

    /// The `limit` strings held by the most documents, most first, ties by string ascending: a k-way walk of the
    /// segments' dictionaries in byte order (comparing strings in place), summing each string's counts. Strings come
    /// in ascending order, so one that only ties the worst kept entry never displaces it.
    private func topStrings(_ limit: Int) -> [(value: [UInt8], count: Int)] {
        guard limit > 0 else { return [] }
        var best: [(value: [UInt8], count: Int)] = []
        var next = [Int](repeating: 0, count: strings.count)
        func skipEmpty(_ s: Int) {
            let counts = strings[s].counts
            while next[s] < counts.count - 1 && counts[next[s]] == 0 { next[s] += 1 }
        }
        for s in strings.indices { skipEmpty(s) }
        var tied: [Int] = []
        while true {
            tied.removeAll(keepingCapacity: true)
            for s in strings.indices where next[s] < strings[s].counts.count - 1 {
                guard let leader = tied.first else {
                    tied.append(s)
                    continue
                }
                let order = unsafe strings[s].dictionary.withTerm(UInt64(next[s])) { candidate in
                    unsafe strings[leader].dictionary.withTerm(UInt64(next[leader])) {
                        unsafe compareBytes(candidate, $0)
                    }
                }
                if order < 0 {
                    tied = [s]
                } else if order == 0 {
                    tied.append(s)
                }
            }
            guard let leader = tied.first else { break }
            var count = 0
            for s in tied { count += Int(strings[s].counts[next[s]]) }
            if best.count < limit || count > best[best.count - 1].count {
                let value = strings[leader].dictionary.term(UInt64(next[leader]))
                var at = best.count
                while at > 0 && best[at - 1].count < count { at -= 1 }
                best.insert((value, count), at: at)
                if best.count > limit { best.removeLast() }
            }
            for s in tied {
                next[s] += 1
                skipEmpty(s)
            }
        }
        return best
    }
}
