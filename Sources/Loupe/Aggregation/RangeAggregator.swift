/// `range` over one segment: a count per (parent slot, range), slot = parent × ranges + range. The planned ranges
/// cover the whole value line without overlap, so each value falls in exactly one, found by binary search over
/// the starts in tantivy's value space. A multi-valued document counts once per range its values fall in, as in
/// tantivy 0.27.
final class RangeAggregator<Decoder: ColumnDecoder>: SegmentAggregator {
    private let ranges: [PlannedRange]
    private let starts: [UInt64]
    private let column: Column?
    private let budget: AggregationBudget
    private var counts: [UInt32] = []
    private var children: SubAggregators
    private var scratch: [Int] = []
    private var charged = 0

    init(_ ranges: [PlannedRange], column: Column?, children: SubAggregators, budget: AggregationBudget) {
        self.ranges = ranges
        starts = ranges.map(\.start)
        self.column = column
        self.children = children
        self.budget = budget
    }

    func reserve(parents count: Int) {
        let needed = count * ranges.count
        guard needed > counts.count, budget.admits((needed - counts.count) * 4) else { return }
        counts += Array(repeating: 0, count: needed - counts.count)
    }

    func collect(_ block: DocBlock) {
        if block.isTopLevel { reserve(parents: 1) }
        guard !budget.isExceeded, let column else { return }
        if block.isTopLevel {
            run(block.docs, column, TopLevelParents())
        } else {
            run(block.docs, column, NestedParents(slots: block.parents))
        }
        children.flush(slotCount: counts.count)
        let bytes = memoryBytes
        budget.charge(bytes - charged)
        charged = bytes
    }

    private func run<P: ParentSlots>(_ docs: [DocID], _ column: Column, _ parents: P) {
        for i in docs.indices {
            let doc = docs[i]
            let base = Int(parents.parent(i)) * ranges.count
            let values = column.valueRange(doc)
            if values.count == 1 {
                add(doc, base + bucket(Decoder.rangeValue(column.value(at: values.lowerBound))))
            } else if !values.isEmpty {
                scratch.removeAll(keepingCapacity: true)
                for j in values { scratch.append(bucket(Decoder.rangeValue(column.value(at: j)))) }
                scratch.sort()
                var previous = -1
                for range in scratch where range != previous {
                    add(doc, base + range)
                    previous = range
                }
            }
        }
    }

    @inline(__always) private func add(_ doc: DocID, _ slot: Int) {
        counts[slot] &+= 1
        if !children.isEmpty { children.pending.append(doc, UInt32(slot)) }
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
                return RangeEntry(
                    docCount: slot < counts.count ? Int(counts[slot]) : 0, sub: children.harvest(UInt32(slot)))
            })
    }

    var memoryBytes: Int { counts.capacity * 4 + children.memoryBytes }
}

extension SegmentAggregatorBuilder {
    func makeRange(_ plan: PlannedAggregation, _ ranges: [PlannedRange], _ column: Column?, _ children: SubAggregators)
        -> any SegmentAggregator
    {
        func make<D: ColumnDecoder>(_: D.Type) -> any SegmentAggregator {
            RangeAggregator<D>(ranges, column: column, children: children, budget: budget)
        }
        return withDecoder(plan.fieldType) { make($0) }
    }
}
