/// `percentiles` over one segment: a `DDSketch` per parent slot, fed every value (or `missing` for a document
/// without one), as tantivy does.
final class PercentilesAggregator<Decoder: ColumnDecoder>: SegmentAggregator {
    private let column: Column?
    private let missing: Double?
    private let budget: AggregationBudget
    private var sketches: [DDSketch] = []
    private var charged = 0

    init(_ request: PercentilesAggregation, column: Column?, budget: AggregationBudget) {
        self.column = column
        missing = request.missing
        self.budget = budget
    }

    func reserve(parents count: Int) {
        if sketches.count < count { sketches += Array(repeating: DDSketch(), count: count - sketches.count) }
    }

    func collect(_ block: DocBlock) {
        guard !budget.isExceeded else { return }
        if block.isTopLevel {
            reserve(parents: 1)
            run(block.docs, TopLevelParents())
        } else {
            run(block.docs, NestedParents(slots: block.parents))
        }
        let bytes = memoryBytes
        budget.charge(bytes - charged)
        charged = bytes
    }

    private func run<P: ParentSlots>(_ docs: [DocID], _ parents: P) {
        for i in docs.indices {
            let parent = Int(parents.parent(i))
            let values = column?.valueRange(docs[i]) ?? 0..<0
            if values.isEmpty {
                if let missing { sketches[parent].add(missing) }
                continue
            }
            guard let column else { continue }
            for j in values { sketches[parent].add(Decoder.double(column.value(at: j))) }
        }
    }

    func harvest(_ parent: UInt32) -> IntermediateResult {
        .percentiles(Int(parent) < sketches.count ? sketches[Int(parent)] : DDSketch())
    }

    var memoryBytes: Int { sketches.reduce(sketches.capacity * MemoryLayout<DDSketch>.stride) { $0 + $1.memoryBytes } }
}

/// `cardinality` over one segment. For a string field, a set of term ordinals per parent slot, turned into
/// hashes of the terms' bytes at harvest (ordinals differ between segments, bytes do not); for a numeric field,
/// a sketch per parent fed hashes of the mapped values. `missing` counts as one more value.
final class CardinalityAggregator: SegmentAggregator {
    private let column: Column?
    private let dictionary: ColumnDictionary?
    private let isString: Bool
    private let budget: AggregationBudget
    /// String fields: per parent, a bitset over ordinals (the missing sentinel after the last).
    private var ordinals: [[UInt64]] = []
    /// Numeric fields: per parent, the sketch.
    private var sketches: [CardinalitySketch] = []
    /// The key (ordinal or mapped value) documents without a value count as.
    private let missingKey: UInt64?
    private let missingHash: UInt64?
    private var charged = 0

    init(_ request: CardinalityAggregation, column: Column?, type: FieldType, budget: AggregationBudget) {
        self.column = column
        dictionary = column?.dictionary
        isString = !type.isNumeric
        self.budget = budget
        let placement = TermsAggregator<HashedSlots>.placeMissing(request.missing, type: type, dictionary: dictionary)
        missingKey = placement.key
        switch request.missing {
        case .string(let text)?: missingHash = CardinalitySketch.hash(Array(text.utf8))
        case let number?: missingHash = CardinalitySketch.hash(Array(AggregationText.rustDisplay(number.number ?? 0).utf8))
        case nil: missingHash = nil
        }
    }

    func reserve(parents count: Int) {
        if isString {
            if ordinals.count < count { ordinals += Array(repeating: [], count: count - ordinals.count) }
        } else if sketches.count < count {
            sketches += Array(repeating: CardinalitySketch(), count: count - sketches.count)
        }
    }

    func collect(_ block: DocBlock) {
        guard !budget.isExceeded else { return }
        if block.isTopLevel {
            reserve(parents: 1)
            run(block.docs, TopLevelParents())
        } else {
            run(block.docs, NestedParents(slots: block.parents))
        }
        let bytes = memoryBytes
        budget.charge(bytes - charged)
        charged = bytes
    }

    private func run<P: ParentSlots>(_ docs: [DocID], _ parents: P) {
        for i in docs.indices {
            let parent = Int(parents.parent(i))
            let values = column?.valueRange(docs[i]) ?? 0..<0
            if values.isEmpty {
                if let missingKey { add(parent, missingKey) }
                continue
            }
            guard let column else { continue }
            for j in values { add(parent, column.value(at: j)) }
        }
    }

    @inline(__always) private func add(_ parent: Int, _ key: UInt64) {
        guard isString else { return sketches[parent].insert(hash: CardinalitySketch.mix(key)) }
        if ordinals[parent].isEmpty {
            let bits = (dictionary?.count ?? 0) + 1
            guard budget.admits((bits + 63) / 64 * 8) else { return }
            ordinals[parent] = Array(repeating: 0, count: (bits + 63) / 64)
        }
        let word = Int(key >> 6)
        guard word < ordinals[parent].count else { return }
        ordinals[parent][word] |= 1 << (key & 63)
    }

    func harvest(_ parent: UInt32) -> IntermediateResult {
        guard isString else {
            return .cardinality(Int(parent) < sketches.count ? sketches[Int(parent)] : CardinalitySketch())
        }
        var sketch = CardinalitySketch()
        guard Int(parent) < ordinals.count else { return .cardinality(sketch) }
        let termCount = UInt64(dictionary?.count ?? 0)
        for (w, word) in ordinals[Int(parent)].enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                let ordinal = UInt64(w * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
                if ordinal < termCount, let dictionary {
                    sketch.insert(hash: CardinalitySketch.hash(dictionary.term(ordinal)))
                } else if let missingHash {
                    sketch.insert(hash: missingHash)
                }
            }
        }
        return .cardinality(sketch)
    }

    func metricValue(_ parent: UInt32, property: String) -> Double? {
        guard isString else { return Int(parent) < sketches.count ? sketches[Int(parent)].estimate : nil }
        guard Int(parent) < ordinals.count else { return nil }
        return Double(ordinals[Int(parent)].reduce(0) { $0 + $1.nonzeroBitCount })
    }

    var memoryBytes: Int {
        ordinals.reduce(ordinals.capacity * 24) { $0 + $1.capacity * 8 }
            + sketches.reduce(sketches.capacity * MemoryLayout<CardinalitySketch>.stride) { $0 + $1.memoryBytes }
    }
}

extension SegmentAggregatorBuilder {
    func makePercentiles(_ plan: PlannedAggregation, _ request: PercentilesAggregation, _ column: Column?)
        -> any SegmentAggregator
    {
        func make<D: ColumnDecoder>(_: D.Type) -> any SegmentAggregator {
            PercentilesAggregator<D>(request, column: column, budget: budget)
        }
        return withDecoder(plan.fieldType) { make($0) }
    }

    func makeCardinality(_ plan: PlannedAggregation, _ request: CardinalityAggregation, _ column: Column?)
        -> any SegmentAggregator
    {
        CardinalityAggregator(request, column: column, type: plan.fieldType, budget: budget)
    }
}
