/// `histogram` and `date_histogram` over one segment: a count per (parent slot, bucket position), the position
/// `floor((value - offset) / interval)` as tantivy computes it on `f64` values (nanoseconds for dates). A
/// multi-valued document counts once per bucket its values fall in, as in tantivy 0.27; values outside
/// `hard_bounds` are skipped. Empty buckets are not kept here: the final result fills the gaps.
final class HistogramAggregator: SegmentAggregator {
    // One core, by slot table (a window at the top level, a hash map under parents); the other nil. Optional
    // chaining mutates the core in place.
    private var window: HistogramCore<WindowSlots>?
    private var hashed: HistogramCore<HashedSlots>?

    init(window core: HistogramCore<WindowSlots>) { window = core }
    init(hashed core: HistogramCore<HashedSlots>) { hashed = core }

    func reserve(parents count: Int) {
        window?.reserve(count)
        hashed?.reserve(count)
    }

    func collect(_ block: DocBlock) {
        window?.collect(block)
        hashed?.collect(block)
    }

    func harvest(_ parent: UInt32) -> IntermediateResult {
        window?.harvest(parent) ?? hashed?.harvest(parent) ?? .histogram([])
    }

    var memoryBytes: Int { window?.memoryBytes ?? hashed?.memoryBytes ?? 0 }
}

/// A histogram's state, over one kind of slot table.
struct HistogramCore<Slots: BucketSlotTable> {
    private let grid: HistogramGrid
    private let decoder: DecoderKind
    private let column: Column?
    private let budget: AggregationBudget
    private var slots: Slots
    private var counts = SlotCounts()
    private var children: SubAggregators
    private var parents = 0
    private var grouped: [[(key: UInt64, slot: UInt32)]]?
    private var scratch: [Int64] = []
    private var block = BlockValues()
    private var charged = 0

    init(
        _ grid: HistogramGrid, type: FieldType, column: Column?, slots: Slots, children: SubAggregators,
        budget: AggregationBudget
    ) {
        self.grid = grid
        decoder = DecoderKind(type)
        self.column = column
        self.slots = slots
        self.children = children
        self.budget = budget
    }

    mutating func reserve(_ count: Int) {
        parents = max(parents, count)
        slots.reserve(parents: count)
    }

    mutating func collect(_ block: DocBlock) {
        guard !budget.isExceeded, let column else { return }
        if block.isTopLevel { reserve(1) }
        // Each value of the block makes at most one new slot, and queues at most one pair.
        var tally = counts
        counts = SlotCounts()
        var queue = children.pending
        children.pending = DocBlock()
        let room = column.isSingleValued ? block.count : block.docs.reduce(0) { $0 + column.valueRange($1).count }
        withBucketSink(&tally, slots: slots.slotCount + room, &queue, queueing: !children.isEmpty, room: room) { sink in
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
        children.flush(slotCount: slots.slotCount)
        let bytes = memoryBytes
        budget.charge(bytes - charged)
        charged = bytes
    }

    private mutating func collect<D: ColumnDecoder>(
        _ block: DocBlock, _ column: Column, _ decoder: D.Type, _ sink: inout BucketSink
    ) {
        switch (block.isTopLevel, grid.hardBounds) {
        case (true, nil): run(block.docs, column, TopLevelParents(), decoder, &sink)
        case (true, let bounds?): run(block.docs, column, TopLevelParents(), decoder, &sink, within: bounds)
        case (false, nil): run(block.docs, column, NestedParents(slots: block.parents), decoder, &sink)
        case (false, let bounds?):
            run(block.docs, column, NestedParents(slots: block.parents), decoder, &sink, within: bounds)
        }
    }

    /// The loop without bounds, the common case, kept free of the bounds test.
    private mutating func run<P: ParentSlots, D: ColumnDecoder>(
        _ docs: [DocID], _ column: Column, _ parents: P, _: D.Type, _ sink: inout BucketSink
    ) {
        if column.isSingleValued {
            block.read(docs, from: column)
            for i in docs.indices {
                let value = block.values[i]
                if BlockValues.hasNoValue(value, docs[i], column) { continue }
                add(docs[i], parents.parent(i), grid.position(D.double(value)), &sink)
            }
            return
        }
        for i in docs.indices {
            let doc = docs[i]
            let values = column.valueRange(doc)
            if values.count == 1 {
                add(doc, parents.parent(i), grid.position(D.double(column.value(at: values.lowerBound))), &sink)
            } else if !values.isEmpty {
                scratch.removeAll(keepingCapacity: true)
                for j in values { scratch.append(grid.position(D.double(column.value(at: j)))) }
                addDistinct(doc, parents.parent(i), &sink)
            }
        }
    }

    private mutating func run<P: ParentSlots, D: ColumnDecoder>(
        _ docs: [DocID], _ column: Column, _ parents: P, _: D.Type, _ sink: inout BucketSink,
        within bounds: HistogramBounds
    ) {
        for i in docs.indices {
            let doc = docs[i]
            scratch.removeAll(keepingCapacity: true)
            for j in column.valueRange(doc) {
                let value = D.double(column.value(at: j))
                if value >= bounds.min, value <= bounds.max { scratch.append(grid.position(value)) }
            }
            addDistinct(doc, parents.parent(i), &sink)
        }
    }

    /// Counts the document once in each bucket of `scratch`.
    private mutating func addDistinct(_ doc: DocID, _ parent: UInt32, _ sink: inout BucketSink) {
        if scratch.count > 1 { scratch.sort() }
        var previous: Int64?
        for position in scratch where position != previous {
            add(doc, parent, position, &sink)
            previous = position
        }
    }

    @inline(__always) private mutating func add(
        _ doc: DocID, _ parent: UInt32, _ position: Int64, _ sink: inout BucketSink
    ) {
        sink.add(doc, slots.slot(parent: parent, key: UInt64(bitPattern: position) ^ (1 << 63)))
    }

    mutating func harvest(_ parent: UInt32) -> IntermediateResult {
        if grouped == nil { grouped = slots.slotsByParent(max(parents, 1)) }
        var buckets: [HistogramEntry] = []
        if let grouped, Int(parent) < grouped.count {
            for (key, slot) in grouped[Int(parent)] where counts[slot] > 0 {
                let position = Int64(bitPattern: key ^ (1 << 63))
                let sub = children.harvest(slot)
                buckets.append(HistogramEntry(key: grid.key(position), docCount: counts[slot], sub: sub))
            }
        }
        buckets.sort { $0.key < $1.key }
        return .histogram(buckets)
    }

    var memoryBytes: Int { counts.memoryBytes + slots.memoryBytes + children.memoryBytes }
}

extension SegmentAggregatorBuilder {
    func makeHistogram(
        _ plan: PlannedAggregation, _ grid: HistogramGrid, _ column: Column?, _ children: SubAggregators
    )
        -> any SegmentAggregator
    {
        if plan.depth == 0 {
            return HistogramAggregator(
                window: HistogramCore(
                    grid, type: plan.fieldType, column: column, slots: WindowSlots(), children: children,
                    budget: budget))
        }
        return HistogramAggregator(
            hashed: HistogramCore(
                grid, type: plan.fieldType, column: column, slots: HashedSlots(), children: children, budget: budget))
    }
}
