/// `histogram` and `date_histogram` over one segment: a count per (parent slot, bucket position), the position
/// `floor((value - offset) / interval)` as tantivy computes it on `f64` values (nanoseconds for dates). A
/// multi-valued document counts once per bucket its values fall in, as in tantivy 0.27; values outside
/// `hard_bounds` are skipped. Empty buckets are not kept here: the final result fills the gaps.
final class HistogramAggregator<Decoder: ColumnDecoder, Slots: BucketSlotTable>: SegmentAggregator {
    private let grid: HistogramGrid
    private let column: Column?
    private let budget: AggregationBudget
    private var slots: Slots
    private var counts: [UInt32] = []
    private var children: SubAggregators
    private var parents = 0
    private var grouped: [[(key: UInt64, slot: UInt32)]]?
    private var scratch: [Int64] = []
    private var charged = 0

    init(_ grid: HistogramGrid, column: Column?, slots: Slots, children: SubAggregators, budget: AggregationBudget) {
        self.grid = grid
        self.column = column
        self.slots = slots
        self.children = children
        self.budget = budget
    }

    func reserve(parents count: Int) {
        parents = max(parents, count)
        slots.reserve(parents: count)
    }

    func collect(_ block: DocBlock) {
        guard !budget.isExceeded, let column else { return }
        if block.isTopLevel { reserve(parents: 1) }
        switch (block.isTopLevel, grid.hardBounds) {
        case (true, nil): run(block.docs, column, TopLevelParents())
        case (true, let bounds?): run(block.docs, column, TopLevelParents(), within: bounds)
        case (false, nil): run(block.docs, column, NestedParents(slots: block.parents))
        case (false, let bounds?): run(block.docs, column, NestedParents(slots: block.parents), within: bounds)
        }
        children.flush(slotCount: slots.slotCount)
        let bytes = memoryBytes
        budget.charge(bytes - charged)
        charged = bytes
    }

    /// The loop without bounds, the common case, kept free of the bounds test.
    private func run<P: ParentSlots>(_ docs: [DocID], _ column: Column, _ parents: P) {
        for i in docs.indices {
            let doc = docs[i]
            let values = column.valueRange(doc)
            if values.count == 1 {
                add(doc, parents.parent(i), grid.position(Decoder.double(column.value(at: values.lowerBound))))
            } else if !values.isEmpty {
                scratch.removeAll(keepingCapacity: true)
                for j in values { scratch.append(grid.position(Decoder.double(column.value(at: j)))) }
                addDistinct(doc, parents.parent(i))
            }
        }
    }

    private func run<P: ParentSlots>(_ docs: [DocID], _ column: Column, _ parents: P, within bounds: HistogramBounds) {
        for i in docs.indices {
            let doc = docs[i]
            scratch.removeAll(keepingCapacity: true)
            for j in column.valueRange(doc) {
                let value = Decoder.double(column.value(at: j))
                if value >= bounds.min, value <= bounds.max { scratch.append(grid.position(value)) }
            }
            addDistinct(doc, parents.parent(i))
        }
    }

    /// Counts the document once in each bucket of `scratch`.
    private func addDistinct(_ doc: DocID, _ parent: UInt32) {
        if scratch.count > 1 { scratch.sort() }
        var previous: Int64?
        for position in scratch where position != previous {
            add(doc, parent, position)
            previous = position
        }
    }

    @inline(__always) private func add(_ doc: DocID, _ parent: UInt32, _ position: Int64) {
        let slot = slots.slot(parent: parent, key: UInt64(bitPattern: position) ^ (1 << 63))
        if Int(slot) < counts.count { counts[Int(slot)] &+= 1 } else { counts.append(1) }
        if !children.isEmpty { children.pending.append(doc, slot) }
    }

    func harvest(_ parent: UInt32) -> IntermediateResult {
        if grouped == nil { grouped = slots.slotsByParent(max(parents, 1)) }
        var buckets: [HistogramEntry] = []
        if let grouped, Int(parent) < grouped.count {
            for (key, slot) in grouped[Int(parent)] where Int(slot) < counts.count && counts[Int(slot)] > 0 {
                let position = Int64(bitPattern: key ^ (1 << 63))
                buckets.append(
                    HistogramEntry(key: grid.key(position), docCount: Int(counts[Int(slot)]), sub: children.harvest(slot)))
            }
        }
        buckets.sort { $0.key < $1.key }
        return .histogram(buckets)
    }

    var memoryBytes: Int { counts.capacity * 4 + slots.memoryBytes + children.memoryBytes }
}

extension SegmentAggregatorBuilder {
    func makeHistogram(_ plan: PlannedAggregation, _ grid: HistogramGrid, _ column: Column?, _ children: SubAggregators)
        -> any SegmentAggregator
    {
        func make<D: ColumnDecoder>(_: D.Type) -> any SegmentAggregator {
            if plan.depth == 0 {
                return HistogramAggregator<D, WindowSlots>(
                    grid, column: column, slots: WindowSlots(), children: children, budget: budget)
            }
            return HistogramAggregator<D, HashedSlots>(
                grid, column: column, slots: HashedSlots(), children: children, budget: budget)
        }
        return withDecoder(plan.fieldType) { make($0) }
    }
}
