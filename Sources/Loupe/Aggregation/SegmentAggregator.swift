// Per-segment aggregation: one `SegmentAggregator` per planned aggregation, in a tree shaped like the request.
// The collector hands each top-level aggregator every block of live matches; a bucket aggregator works out each
// document's buckets, counts it, and queues (document, bucket) pairs for its sub-aggregators, which it hands
// on once per block. So every call between aggregators moves a block (`any SegmentAggregator` is called per
// block, never per document).
//
// Each aggregator is a small non-generic class around a struct "core" that holds its state. Per block the class
// switches once on its field's decoder (and slot table) and calls the core's generic loop with concrete types,
// so the loop specialises — a generic class's methods, called through `any SegmentAggregator`, would run
// unspecialised — and because the core is mutated in place as `self`, no exclusivity check runs per value.
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
}

/// Which `ColumnDecoder` reads a field: the switch each aggregator makes once per block.
enum DecoderKind {
    case u64, i64, f64, date
    /// Values that are not numbers (strings, and bools, which tantivy's numeric aggregations do not read).
    case uncounted

    init(_ type: FieldType) {
        switch type {
        case .u64: self = .u64
        case .i64: self = .i64
        case .f64: self = .f64
        case .date: self = .date
        case .bool, .text, .string: self = .uncounted
        }
    }
}

/// The first value of each document of a block, read from a single-valued column in one pass (the column's
/// block read path chooses its layout once per block, not per document); `none` where a document has no value.
struct BlockValues {
    /// Stands for "no value". A real value can equal it (the largest u64), so a reader that meets it asks the
    /// column whether the document has a value (`hasNoValue`).
    static let none = UInt64.max

    /// The values of the last block read, then stale entries (the buffer only grows).
    private(set) var values: [UInt64] = []

    /// Reads the values of `docs` from `column`, which must be single-valued, into `values[0..<docs.count]`.
    mutating func read(_ docs: [DocID], from column: Column) {
        if values.count < docs.count { values += repeatElement(0, count: docs.count - values.count) }
        guard !docs.isEmpty else { return }
        unsafe docs.withUnsafeBufferPointer { d in
            unsafe values.withUnsafeMutableBufferPointer { out in
                unsafe column.firstValues(
                    of: d.baseAddress!, count: d.count, into: out.baseAddress!, missing: Self.none)
            }
        }
    }

    @inline(__always) static func hasNoValue(_ value: UInt64, _ doc: DocID, _ column: Column) -> Bool {
        value == none && column.valueRange(doc).isEmpty
    }

    /// Every value of `docs` in `column` as a number (`D`'s reading), and `missing` for each document without one
    /// when given: the top-level loop of the metric aggregators, a single-valued column read a block at a time.
    @inline(__always) mutating func forEachNumber<D: ColumnDecoder>(
        of docs: [DocID], in column: Column?, missing: Double?, _: D.Type, _ body: (Double) -> Void
    ) {
        guard let column else {
            if let missing { for _ in docs.indices { body(missing) } }
            return
        }
        if column.isSingleValued {
            read(docs, from: column)
            for i in docs.indices {
                let value = values[i]
                if Self.hasNoValue(value, docs[i], column) {
                    if let missing { body(missing) }
                } else {
                    body(D.double(value))
                }
            }
            return
        }
        for doc in docs {
            let range = column.valueRange(doc)
            if range.isEmpty, let missing { body(missing) }
            for j in range { body(D.double(column.value(at: j))) }
        }
    }
}
