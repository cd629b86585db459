/// `percentiles` over one segment: a `DDSketch` per parent slot, fed every value (or `missing` for a document
/// without one), as tantivy does.
final class PercentilesAggregator: SegmentAggregator {
    private let decoder: DecoderKind
    private let budget: AggregationBudget
    private var core: PercentilesCore
    private var charged = 0

    init(_ request: PercentilesAggregation, column: Column?, type: FieldType, budget: AggregationBudget) {
        decoder = DecoderKind(type)
        self.budget = budget
        core = PercentilesCore(column: column, missing: request.missing)
    }

    func reserve(parents count: Int) { core.reserve(count) }

    func collect(_ block: DocBlock) {
        guard !budget.isExceeded else { return }
        switch decoder {
        case .u64: core.collect(block, U64Decoder.self)
        case .i64: core.collect(block, I64Decoder.self)
        case .f64: core.collect(block, F64Decoder.self)
        case .date: core.collect(block, DateDecoder.self)
        case .uncounted: core.collect(block, UncountedDecoder.self)
        }
        budget.charge(core.bytes - charged)
        charged = core.bytes
    }

    func harvest(_ parent: UInt32) -> IntermediateResult {
        .percentiles(Int(parent) < core.sketches.count ? core.sketches[Int(parent)] : DDSketch())
    }

    var memoryBytes: Int { core.bytes }
}

struct PercentilesCore {
    let column: Column?
    let missing: Double?
    var sketches: [DDSketch] = []
    /// Bytes of the sketches, kept up to date as bins are added.
    private(set) var bytes = 0
    private var values = BlockValues()

    init(column: Column?, missing: Double?) {
        self.column = column
        self.missing = missing
    }

    mutating func reserve(_ count: Int) {
        guard sketches.count < count else { return }
        bytes += (count - sketches.count) * DDSketch().memoryBytes
        sketches += Array(repeating: DDSketch(), count: count - sketches.count)
    }

    mutating func collect<D: ColumnDecoder>(_ block: DocBlock, _ decoder: D.Type) {
        if block.isTopLevel {
            reserve(1)
            var sketch = sketches[0]
            sketches[0] = DDSketch()
            let before = sketch.memoryBytes
            Self.runTopLevel(block.docs, column, missing, &values, &sketch, decoder)
            bytes += sketch.memoryBytes - before
            sketches[0] = sketch
        } else {
            run(block.docs, NestedParents(slots: block.parents), decoder)
        }
    }

    /// The top-level loop, over one sketch held apart from the array.
    private static func runTopLevel<D: ColumnDecoder>(
        _ docs: [DocID], _ column: Column?, _ missing: Double?, _ values: inout BlockValues, _ sketch: inout DDSketch,
        _: D.Type
    ) {
        guard let column else {
            if let missing { for _ in docs.indices { sketch.add(missing) } }
            return
        }
        if column.isSingleValued {
            values.read(docs, from: column)
            for i in docs.indices {
                let value = values.values[i]
                if BlockValues.hasNoValue(value, docs[i], column) {
                    if let missing { sketch.add(missing) }
                } else {
                    sketch.add(D.double(value))
                }
            }
            return
        }
        for doc in docs {
            let range = column.valueRange(doc)
            if range.isEmpty, let missing { sketch.add(missing) }
            for j in range { sketch.add(D.double(column.value(at: j))) }
        }
    }

    private mutating func run<P: ParentSlots, D: ColumnDecoder>(_ docs: [DocID], _ parents: P, _: D.Type) {
        for i in docs.indices {
            let parent = Int(parents.parent(i))
            let values = column?.valueRange(docs[i]) ?? 0..<0
            if values.isEmpty {
                if let missing { add(parent, missing) }
                continue
            }
            guard let column else { continue }
            for j in values { add(parent, D.double(column.value(at: j))) }
        }
    }

    @inline(__always) private mutating func add(_ parent: Int, _ value: Double) {
        let before = sketches[parent].memoryBytes
        sketches[parent].add(value)
        bytes += sketches[parent].memoryBytes - before
    }
}

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
    func makePercentiles(_ plan: PlannedAggregation, _ request: PercentilesAggregation, _ column: Column?)
        -> any SegmentAggregator
    {
        PercentilesAggregator(request, column: column, type: plan.fieldType, budget: budget)
    }

    func makeCardinality(_ plan: PlannedAggregation, _ request: CardinalityAggregation, _ column: Column?)
        -> any SegmentAggregator
    {
        CardinalityAggregator(request, column: column, type: plan.fieldType, budget: budget)
    }
}
