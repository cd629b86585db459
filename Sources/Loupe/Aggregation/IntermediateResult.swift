// Intermediate results: what one segment's aggregators found, in a form that merges with other segments'
// (tantivy's `IntermediateAggregationResults`). Terms merge by key, histograms by bucket key, ranges bucket by
// bucket, metrics by their accumulators and sketches. Nothing is cut or ordered here beyond what each segment
// did: the final result (`AggregationResponse+Final.swift`) does that once, over the merged whole.

/// One aggregation's intermediate result.
enum IntermediateResult: Sendable {
    case terms(TermsPartial)
    /// Buckets with documents, ascending by key.
    case histogram([HistogramEntry])
    /// One entry per planned range, in plan order.
    case range([RangeEntry])
    case stats(StatsAccumulator)
    case percentiles(DDSketch)
    case cardinality(CardinalitySketch)

    /// The result of an aggregation that saw no document.
    static func empty(_ plan: PlannedAggregation) -> IntermediateResult {
        switch plan.detail {
        case .terms: .terms(TermsPartial())
        case .histogram: .histogram([])
        case .range(let ranges, _):
            .range(Array(repeating: RangeEntry(docCount: 0, sub: .empty(plan.children)), count: ranges.count))
        case .metric: .stats(StatsAccumulator())
        case .percentiles: .percentiles(DDSketch())
        case .cardinality: .cardinality(CardinalitySketch())
        }
    }

    /// Folds another segment's result for the same aggregation in.
    mutating func merge(_ other: IntermediateResult) {
        switch (self, other) {
        case (.terms(var a), .terms(let b)):
            a.merge(b)
            self = .terms(a)
        case (.histogram(let a), .histogram(let b)):
            self = .histogram(HistogramEntry.merge(a, b))
        case (.range(var a), .range(let b)):
            for i in a.indices where i < b.count {
                a[i].docCount += b[i].docCount
                a[i].sub.merge(b[i].sub)
            }
            self = .range(a)
        case (.stats(var a), .stats(let b)):
            a.merge(b)
            self = .stats(a)
        case (.percentiles(var a), .percentiles(let b)):
            a.merge(b)
            self = .percentiles(a)
        case (.cardinality(var a), .cardinality(let b)):
            a.merge(b)
            self = .cardinality(a)
        default:
            // Both sides come from the same plan node, so their cases always agree.
            break
        }
    }
}

/// The intermediate results of sibling aggregations, in plan order.
struct IntermediateAggregations: Sendable {
    var results: [IntermediateResult]

    static func empty(_ plans: [PlannedAggregation]) -> IntermediateAggregations {
        IntermediateAggregations(results: plans.map(IntermediateResult.empty))
    }

    mutating func merge(_ other: IntermediateAggregations) {
        for i in results.indices where i < other.results.count { results[i].merge(other.results[i]) }
    }
}

/// A terms aggregation's buckets so far, by key, and what segments cut off.
struct TermsPartial: Sendable {
    var entries: [BucketKey: TermsEntry] = [:]
    var sumOtherDocCount = 0
    var docCountErrorUpperBound = 0

    /// Adds a bucket, merging it into one with the same key.
    mutating func add(_ key: BucketKey, _ entry: TermsEntry) {
        if let i = entries.index(forKey: key) {
            entries.values[i].docCount += entry.docCount
            entries.values[i].sub.merge(entry.sub)
        } else {
            entries[key] = entry
        }
    }

    mutating func merge(_ other: TermsPartial) {
        entries.reserveCapacity(entries.count + other.entries.count)
        for (key, entry) in other.entries { add(key, entry) }
        sumOtherDocCount += other.sumOtherDocCount
        docCountErrorUpperBound += other.docCountErrorUpperBound
    }
}

struct TermsEntry: Sendable {
    var docCount: Int
    var sub: IntermediateAggregations
}

struct HistogramEntry: Sendable {
    /// `position × interval + offset`, in the values' unit.
    var key: Double
    var docCount: Int
    var sub: IntermediateAggregations

    /// Two ascending bucket lists merged, equal keys folded together (tantivy's `merge_join_by`).
    static func merge(_ a: [HistogramEntry], _ b: [HistogramEntry]) -> [HistogramEntry] {
        var out: [HistogramEntry] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i].key < b[j].key) {
                out.append(a[i])
                i += 1
            } else if i == a.count || b[j].key < a[i].key {
                out.append(b[j])
                j += 1
            } else {
                var merged = a[i]
                merged.docCount += b[j].docCount
                merged.sub.merge(b[j].sub)
                out.append(merged)
                i += 1
                j += 1
            }
        }
        return out
    }
}

struct RangeEntry: Sendable {
    var docCount: Int
    var sub: IntermediateAggregations
}
