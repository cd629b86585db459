/// `range` over one segment: a count per (parent slot, range), slot = parent × ranges + range. The planned ranges
/// cover the whole value line without overlap, so each value falls in exactly one, found by binary search over
/// the starts in tantivy's value space. A multi-valued document counts once per range its values fall in, as in
/// tantivy 0.27.
final class RangeAggregator: SegmentAggregator {
    private var core: RangeCore

    init(
        _ ranges: [PlannedRange], type: FieldType, column: Column?, children: SubAggregators, budget: AggregationBudget
    ) {
        core = RangeCore(ranges, type: type, column: column, children: children, budget: budget)
    }

    func reserve(parents count: Int) { core.reserve(count) }

    func collect(_ block: DocBlock) { core.collect(block) }

    func harvest(_ parent: UInt32) -> IntermediateResult { core.harvest(parent) }

    var memoryBytes: Int { core.memoryBytes }
}

/// A range aggregation's state.
struct RangeCore {
    private let ranges: [PlannedRange]
    private let starts: [UInt64]
    private let decoder: DecoderKind
    private let column: Column?
    private let budget: AggregationBudget
    private var counts = SlotCounts()
    private var children: SubAggregators
    private var scratch: [Int] = []
    private var charged = 0

    init(
        _ ranges: [PlannedRange], type: FieldType, column: Column?, children: SubAggregators, budget: AggregationBudget
    ) {
        self.ranges = ranges
        decoder = DecoderKind(type)
        starts = ranges.map(\.start)
        self.column = column
        self.children = children
        self.budget = budget
    }

    mutating func reserve(_ count: Int) {
        let needed = count * ranges.count
        guard needed > counts.count, budget.admits((needed - counts.count) * 4) else { return }
        counts.ensure(needed)
    }

    mutating func collect(_ block: DocBlock) {
        if block.isTopLevel { reserve(1) }
        guard !budget.isExceeded, let column else { return }
        // Each document queues at most one pair per range.
        var tally = counts
        counts = SlotCounts()
        var queue = children.pending
        children.pending = DocBlock()
        let room =
            column.isSingleValued
            ? block.count : block.docs.reduce(0) { $0 + min(column.valueRange($1).count, ranges.count) }
        withBucketSink(&tally, slots: 0, &queue, queueing: !children.isEmpty, room: room) { sink in
            switch decoder {
            case .u64: collect(block, column, U64Decoder.self, &sink)
            case .i64: collect(block, column, I64Decoder.self, &sink)
            case .f64: collect(block, column, F64Decoder.self, &sink)
            case .date: collect(block, column, DateDecoder.self, &sink)
            case .uncounted: collect(block, column, UncountedDecoder.self, &sink)
            }
        }
        counts = tally
        children.pending = queue
        children.flush(slotCount: counts.count)
        let bytes = memoryBytes
        budget.charge(bytes - charged)
        charged = bytes
    }

    private mutating func collect<D: ColumnDecoder>(
        _ block: DocBlock, _ column: Column, _ decoder: D.Type, _ sink: inout BucketSink
    ) {
        if block.isTopLevel {
            run(block.docs, column, TopLevelParents(), decoder, &sink)
        } else {
            run(block.docs, column, NestedParents(slots: block.parents), decoder, &sink)
        }
    }

    private mutating func run<P: ParentSlots, D: ColumnDecoder>(
        _ docs: [DocID], _ column: Column, _ parents: P, _: D.Type, _ sink: inout BucketSink
    ) {
        for i in docs.indices {
            let doc = docs[i]
            let base = Int(parents.parent(i)) * ranges.count
            let values = column.valueRange(doc)
            if values.count == 1 {
                add(doc, base + bucket(D.rangeValue(column.value(at: values.lowerBound))), &sink)
            } else if !values.isEmpty {
                scratch.removeAll(keepingCapacity: true)
                for j in values { scratch.append(bucket(D.rangeValue(column.value(at: j)))) }
                scratch.sort()
                var previous = -1
                for range in scratch where range != previous {
                    add(doc, base + range, &sink)
                    previous = range
                }
            }
        }
    }

    @inline(__always) private mutating func add(_ doc: DocID, _ slot: Int, _ sink: inout BucketSink) {
        sink.add(doc, UInt32(truncatingIfNeeded: slot))
    }

    /// The last range starting at or before `value`; the first starts at 0, so there is one.
    @inline(__always) private func bucket(_ value: UInt64) -> Int {
        var low = 0
        var high = starts.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if starts[mid] <= value { low = mid } else { high = mid }
        }
        return low
    }

    func harvest(_ parent: UInt32) -> IntermediateResult {
        let base = Int(parent) * ranges.count
        return .range(
            ranges.indices.map { i in
                let slot = base + i
                return RangeEntry(docCount: counts[UInt32(slot)], sub: children.harvest(UInt32(slot)))
            })
    }

    var memoryBytes: Int { counts.memoryBytes + children.memoryBytes }
}

extension SegmentAggregatorBuilder {
    func makeRange(
        _ plan: PlannedAggregation, _ ranges: [PlannedRange], _ column: Column?, _ children: SubAggregators
    )
        -> any SegmentAggregator
    {
        RangeAggregator(ranges, type: plan.fieldType, column: column, children: children, budget: budget)
    }
}
