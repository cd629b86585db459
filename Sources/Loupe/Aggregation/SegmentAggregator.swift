// Per-segment aggregation: one `SegmentAggregator` per planned aggregation, in a tree shaped like the request.
// The collector hands each top-level aggregator every block of live matches; a bucket aggregator works out each
// document's buckets, counts it, and queues (document, bucket) pairs for its sub-aggregators, which it hands
// on once per block. So every call between aggregators moves a block (`any SegmentAggregator` is called per
// block, never per document), and each aggregator's per-value loop is generic over its column decoder, its slot
// table and whether its block is top-level, so it specialises.
//
// Buckets are numbered per segment ("slots", see BucketSlots.swift): a sub-aggregator keeps its state in arrays
// indexed by its parent's slot. After the last block, `harvest` turns a parent slot's state into an
// `IntermediateResult`, which the collector merges across segments.

/// One aggregation's state over one segment.
protocol SegmentAggregator: AnyObject {
    /// Makes room for parent slots `0..<count`; called before every block that may use new ones.
    func reserve(parents count: Int)
    /// Takes a block of (document, parent slot) pairs.
    func collect(_ block: DocBlock)
    /// What the aggregation found under one parent slot.
    func harvest(_ parent: UInt32) -> IntermediateResult
    /// The value a terms aggregation orders by, for a metric aggregator; nil otherwise or when there is none.
    func metricValue(_ parent: UInt32, property: String) -> Double?
    /// Bytes the aggregator holds, sub-aggregators excluded.
    var memoryBytes: Int { get }
}

extension SegmentAggregator {
    func metricValue(_ parent: UInt32, property: String) -> Double? { nil }
}

/// Documents and the parent slot of each; a top-level block has no slots (every document is in slot 0).
struct DocBlock {
    var docs: [DocID] = []
    var parents: [UInt32] = []

    var count: Int { docs.count }
    var isTopLevel: Bool { parents.isEmpty }

    mutating func append(_ doc: DocID, _ parent: UInt32) {
        docs.append(doc)
        parents.append(parent)
    }

    mutating func removeAll() {
        docs.removeAll(keepingCapacity: true)
        parents.removeAll(keepingCapacity: true)
    }
}

/// Where a per-document loop finds each document's parent slot: specialised both ways, so a top-level loop
/// reads no slot array.
protocol ParentSlots {
    func parent(_ i: Int) -> UInt32
}

struct TopLevelParents: ParentSlots {
    @inline(__always) func parent(_ i: Int) -> UInt32 { 0 }
}

struct NestedParents: ParentSlots {
    let slots: [UInt32]
    @inline(__always) func parent(_ i: Int) -> UInt32 { slots[i] }
}

/// The sub-aggregators of a bucket aggregator, fed once per block.
struct SubAggregators {
    let aggregators: [any SegmentAggregator]
    var pending = DocBlock()

    init(_ aggregators: [any SegmentAggregator]) {
        self.aggregators = aggregators
    }

    var isEmpty: Bool { aggregators.isEmpty }

    /// Hands the queued pairs to every sub-aggregator, each told first how many slots there are.
    mutating func flush(slotCount: Int) {
        guard !pending.docs.isEmpty else { return }
        for aggregator in aggregators {
            aggregator.reserve(parents: slotCount)
            aggregator.collect(pending)
        }
        pending.removeAll()
    }

    func harvest(_ slot: UInt32) -> IntermediateAggregations {
        IntermediateAggregations(results: aggregators.map { $0.harvest(slot) })
    }

    var memoryBytes: Int { pending.docs.capacity * 8 }
}

/// Builds a segment's aggregators from a plan.
struct SegmentAggregatorBuilder {
    let segment: SegmentReader
    let budget: AggregationBudget

    func make(_ plan: [PlannedAggregation]) -> [any SegmentAggregator] { plan.map(make) }

    func make(_ plan: PlannedAggregation) -> any SegmentAggregator {
        let column = segment.fast.column(plan.field)
        let children = SubAggregators(make(plan.children))
        switch plan.detail {
        case .terms(let request, let include, let exclude):
            return makeTerms(plan, request, include, exclude, column, children)
        case .histogram(let grid):
            return makeHistogram(plan, grid, column, children)
        case .range(let ranges, _):
            return makeRange(plan, ranges, column, children)
        case .metric(let request):
            return makeMetric(plan, request, column)
        case .percentiles(let request):
            return makePercentiles(plan, request, column)
        case .cardinality(let request):
            return makeCardinality(plan, request, column)
        }
    }

    /// Calls `body` with the decoder type of a numeric field.
    func withDecoder<R>(_ type: FieldType, _ body: (any ColumnDecoder.Type) -> R) -> R {
        switch type {
        case .u64: body(U64Decoder.self)
        case .i64: body(I64Decoder.self)
        case .f64: body(F64Decoder.self)
        case .bool: body(BoolDecoder.self)
        case .date: body(DateDecoder.self)
        case .text, .string: body(UncountedDecoder.self)
        }
    }
}
