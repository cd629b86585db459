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
            values.forEachNumber(of: block.docs, in: column, missing: missing, decoder) { sketch.add($0) }
            bytes += sketch.memoryBytes - before
            sketches[0] = sketch
        } else {
            run(block.docs, NestedParents(slots: block.parents), decoder)
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

extension SegmentAggregatorBuilder {
    func makePercentiles(
        _ plan: PlannedAggregation, _ request: PercentilesAggregation, _ column: Column?
    )
        -> any SegmentAggregator
    {
        PercentilesAggregator(request, column: column, type: plan.fieldType, budget: budget)
    }
}
