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
final class MetricAggregator<Decoder: ColumnDecoder>: SegmentAggregator {
    private let statistic: Statistic
    private let column: Column?
    private let missing: Double?
    private var stats: [StatsAccumulator] = []

    init(_ request: MetricAggregation, column: Column?) {
        statistic = request.statistic
        self.column = column
        missing = request.missing
    }

    func reserve(parents count: Int) {
        if stats.count < count { stats += Array(repeating: StatsAccumulator(), count: count - stats.count) }
    }

    func collect(_ block: DocBlock) {
        if block.isTopLevel {
            reserve(parents: 1)
            run(block.docs, TopLevelParents())
        } else {
            run(block.docs, NestedParents(slots: block.parents))
        }
    }

    private func run<P: ParentSlots>(_ docs: [DocID], _ parents: P) {
        guard let column else {
            if let missing { for i in docs.indices { stats[Int(parents.parent(i))].add(missing) } }
            return
        }
        for i in docs.indices {
            let values = column.valueRange(docs[i])
            let parent = Int(parents.parent(i))
            if values.isEmpty {
                if let missing { stats[parent].add(missing) }
                continue
            }
            for j in values { stats[parent].add(Decoder.double(column.value(at: j))) }
        }
    }

    func harvest(_ parent: UInt32) -> IntermediateResult {
        .stats(Int(parent) < stats.count ? stats[Int(parent)] : StatsAccumulator())
    }

    func metricValue(_ parent: UInt32, property: String) -> Double? {
        guard Int(parent) < stats.count else { return nil }
        return stats[Int(parent)].value(statistic == .stats ? property : statistic.property)
    }

    var memoryBytes: Int { stats.capacity * MemoryLayout<StatsAccumulator>.stride }
}

extension SegmentAggregatorBuilder {
    func makeMetric(_ plan: PlannedAggregation, _ request: MetricAggregation, _ column: Column?) -> any SegmentAggregator {
        func make<D: ColumnDecoder>(_: D.Type) -> any SegmentAggregator {
            MetricAggregator<D>(request, column: column)
        }
        return withDecoder(plan.fieldType) { make($0) }
    }
}
