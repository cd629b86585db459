/// Count, sum, min and max of values, as tantivy's `IntermediateStats` keeps them: the sum with Kahan's
/// compensation, min and max starting at ±`Double.greatestFiniteMagnitude`.
struct StatsAccumulator: Sendable {
    var count = 0
    var sum = 0.0
    /// Kahan's running compensation of `sum`.
    var delta = 0.0
    var min = Double.greatestFiniteMagnitude
    var max = -Double.greatestFiniteMagnitude

    @inline(__always) mutating func add(_ value: Double) {
        count &+= 1
        let y = value - delta
        let t = sum + y
        delta = (t - sum) - y
        sum = t
        min = .minimum(min, value)
        max = .maximum(max, value)
    }

    mutating func merge(_ other: StatsAccumulator) {
        count += other.count
        let y = other.sum - (delta + other.delta)
        let t = sum + y
        delta = (t - sum) - y
        sum = t
        min = .minimum(min, other.min)
        max = .maximum(max, other.max)
    }

    var average: Double? { count == 0 ? nil : sum / Double(count) }

    /// One statistic by name, as orders by a sub-aggregation read it (`count`, `sum`, `min`, `max`, `avg`).
    func value(_ property: String) -> Double? {
        switch property {
        case "count": Double(count)
        case "sum": sum
        case "min": count == 0 ? nil : min
        case "max": count == 0 ? nil : max
        case "avg": average
        default: nil
        }
    }
}

extension Statistic {
    /// The property of the stats an order by this metric reads.
    var property: String {
        switch self {
        case .stats: ""
        case .min: "min"
        case .max: "max"
        case .avg: "avg"
        case .sum: "sum"
        case .valueCount: "count"
        }
    }
}

/// `stats`, `min`, `max`, `avg`, `sum` and `value_count` over one segment: a `StatsAccumulator` per parent
/// slot. Every value of a multi-valued document counts, and a document without one counts `missing` if given.
final class MetricAggregator: SegmentAggregator {
    private let statistic: Statistic
    private let decoder: DecoderKind
    private var core: MetricCore

    init(_ request: MetricAggregation, column: Column?, type: FieldType) {
        statistic = request.statistic
        decoder = DecoderKind(type)
        core = MetricCore(column: column, missing: request.missing)
    }

    func reserve(parents count: Int) { core.reserve(count) }

    func collect(_ block: DocBlock) {
        switch decoder {
        case .u64: core.collect(block, U64Decoder.self)
        case .i64: core.collect(block, I64Decoder.self)
        case .f64: core.collect(block, F64Decoder.self)
        case .date: core.collect(block, DateDecoder.self)
        case .uncounted: core.collect(block, UncountedDecoder.self)
        }
    }

    func harvest(_ parent: UInt32) -> IntermediateResult { .stats(core.stats(parent)) }

    func metricValue(_ parent: UInt32, property: String) -> Double? {
        guard Int(parent) < core.accumulators.count else { return nil }
        return core.accumulators[Int(parent)].value(statistic == .stats ? property : statistic.property)
    }

    var memoryBytes: Int { core.accumulators.capacity * MemoryLayout<StatsAccumulator>.stride }
}

struct MetricCore {
    let column: Column?
    let missing: Double?
    var accumulators: [StatsAccumulator] = []
    private var values = BlockValues()

    init(column: Column?, missing: Double?) {
        self.column = column
        self.missing = missing
    }

    mutating func reserve(_ count: Int) {
        if accumulators.count < count {
            accumulators += Array(repeating: StatsAccumulator(), count: count - accumulators.count)
        }
    }

    mutating func collect<D: ColumnDecoder>(_ block: DocBlock, _ decoder: D.Type) {
        if block.isTopLevel {
            reserve(1)
            // Accumulated in a local (registers) rather than in the array.
            var total = accumulators[0]
            values.forEachNumber(of: block.docs, in: column, missing: missing, decoder) { total.add($0) }
            accumulators[0] = total
        } else {
            run(block.docs, NestedParents(slots: block.parents), decoder)
        }
    }

    private mutating func run<P: ParentSlots, D: ColumnDecoder>(_ docs: [DocID], _ parents: P, _: D.Type) {
        guard let column else {
            if let missing { for i in docs.indices { accumulators[Int(parents.parent(i))].add(missing) } }
            return
        }
        if column.isSingleValued {
            values.read(docs, from: column)
            for i in docs.indices {
                let value = values.values[i]
                if BlockValues.hasNoValue(value, docs[i], column) {
                    if let missing { accumulators[Int(parents.parent(i))].add(missing) }
                } else {
                    accumulators[Int(parents.parent(i))].add(D.double(value))
                }
            }
            return
        }
        for i in docs.indices {
            let values = column.valueRange(docs[i])
            let parent = Int(parents.parent(i))
            if values.isEmpty {
                if let missing { accumulators[parent].add(missing) }
                continue
            }
            for j in values { accumulators[parent].add(D.double(column.value(at: j))) }
        }
    }

    func stats(_ parent: UInt32) -> StatsAccumulator {
        Int(parent) < accumulators.count ? accumulators[Int(parent)] : StatsAccumulator()
    }
}

extension SegmentAggregatorBuilder {
    func makeMetric(
        _ plan: PlannedAggregation, _ request: MetricAggregation, _ column: Column?
    ) -> any SegmentAggregator {
        MetricAggregator(request, column: column, type: plan.fieldType)
    }
}
