/// `cardinality` over one segment. For a string field, a set of term ordinals per parent slot, turned into
/// hashes of the terms' bytes at harvest (ordinals differ between segments, bytes do not); for a numeric field,
/// a sketch per parent fed hashes of the mapped values. `missing` counts as one more value.
final class CardinalityAggregator: SegmentAggregator {
    private let budget: AggregationBudget
    private var core: CardinalityCore
    private var charged = 0

    init(_ request: CardinalityAggregation, column: Column?, type: FieldType, budget: AggregationBudget) {
        self.budget = budget
        let dictionary = column?.dictionary
        let missingHash: UInt64?
        switch request.missing {
        case .string(let text)?: missingHash = CardinalitySketch.hash(Array(text.utf8))
        case let number?:
            missingHash = CardinalitySketch.hash(Array(AggregationText.rustDisplay(number.number ?? 0).utf8))
        case nil: missingHash = nil
        }
        core = CardinalityCore(
            column: column, dictionary: dictionary, isString: !type.isNumeric,
            missingKey: TermsAggregator.placeMissing(request.missing, type: type, dictionary: dictionary).key,
            missingHash: missingHash, budget: budget)
    }

    func reserve(parents count: Int) { core.reserve(count) }

    func collect(_ block: DocBlock) {
        guard !budget.isExceeded else { return }
        if block.isTopLevel {
            core.reserve(1)
            core.run(block.docs, TopLevelParents())
        } else {
            core.run(block.docs, NestedParents(slots: block.parents))
        }
        let bytes = memoryBytes
        budget.charge(bytes - charged)
        charged = bytes
    }

    func harvest(_ parent: UInt32) -> IntermediateResult { .cardinality(core.sketch(parent)) }

    func metricValue(_ parent: UInt32, property: String) -> Double? { core.distinctCount(parent) }

    var memoryBytes: Int { core.bytes }
}

struct CardinalityCore {
    let column: Column?
    let dictionary: ColumnDictionary?
    let isString: Bool
    /// The key (ordinal or mapped value) documents without a value count as.
    let missingKey: UInt64?
    let missingHash: UInt64?
    let budget: AggregationBudget
    /// String fields: per parent, a bitset over ordinals (the missing sentinel after the last).
    private var ordinals: [[UInt64]] = []
    /// Numeric fields: per parent, the sketch.
    private var sketches: [CardinalitySketch] = []
    private(set) var bytes = 0

    init(
        column: Column?, dictionary: ColumnDictionary?, isString: Bool, missingKey: UInt64?, missingHash: UInt64?,
        budget: AggregationBudget
    ) {
        self.column = column
        self.dictionary = dictionary
        self.isString = isString
        self.missingKey = missingKey
        self.missingHash = missingHash
        self.budget = budget
    }

    mutating func reserve(_ count: Int) {
        if isString {
            if ordinals.count < count {
                bytes += (count - ordinals.count) * 24
                ordinals += Array(repeating: [], count: count - ordinals.count)
            }
        } else if sketches.count < count {
            bytes += (count - sketches.count) * MemoryLayout<CardinalitySketch>.stride
            sketches += Array(repeating: CardinalitySketch(), count: count - sketches.count)
        }
    }

    mutating func run<P: ParentSlots>(_ docs: [DocID], _ parents: P) {
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

    @inline(__always) private mutating func add(_ parent: Int, _ key: UInt64) {
        guard isString else {
            let before = sketches[parent].memoryBytes
            sketches[parent].insert(hash: CardinalitySketch.mix(key))
            bytes += sketches[parent].memoryBytes - before
            return
        }
        if ordinals[parent].isEmpty {
            let words = ((dictionary?.count ?? 0) + 64) / 64
            guard budget.admits(words * 8) else { return }
            bytes += words * 8
            ordinals[parent] = Array(repeating: 0, count: words)
        }
        let word = Int(key >> 6)
        guard word < ordinals[parent].count else { return }
        ordinals[parent][word] |= 1 << (key & 63)
    }

    func sketch(_ parent: UInt32) -> CardinalitySketch {
        guard isString else { return Int(parent) < sketches.count ? sketches[Int(parent)] : CardinalitySketch() }
        var sketch = CardinalitySketch()
        guard Int(parent) < ordinals.count else { return sketch }
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
        return sketch
    }

    /// The segment's count for an order by this aggregation: exact for strings (the set's size), the sketch's
    /// estimate for numbers.
    func distinctCount(_ parent: UInt32) -> Double? {
        guard isString else { return Int(parent) < sketches.count ? sketches[Int(parent)].estimate : nil }
        guard Int(parent) < ordinals.count else { return nil }
        return Double(ordinals[Int(parent)].reduce(0) { $0 + $1.nonzeroBitCount })
    }
}

extension SegmentAggregatorBuilder {
    func makeCardinality(
        _ plan: PlannedAggregation, _ request: CardinalityAggregation, _ column: Column?
    )
        -> any SegmentAggregator
    {
        CardinalityAggregator(request, column: column, type: plan.fieldType, budget: budget)
    }
}
