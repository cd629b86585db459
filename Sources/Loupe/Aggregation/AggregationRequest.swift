/// An aggregation request, parsed but not yet bound to a schema: Elasticsearch's (and tantivy's) request tree as
/// Swift values. `AggregationRequest(json:)` builds it from the JSON form; `AggregationPlan` checks it against
/// a schema.
package struct AggregationRequest: Sendable, Equatable {
    /// The named aggregations, in request order (responses keep it).
    package var aggregations: [NamedAggregation]

    package init(_ aggregations: [NamedAggregation]) {
        self.aggregations = aggregations
    }
}

/// One aggregation of a request: its name, what it computes, and the aggregations run inside each of its
/// buckets.
package struct NamedAggregation: Sendable, Equatable {
    package var name: String
    package var kind: AggregationKind
    /// Run once per bucket; only bucket aggregations (terms, histograms, ranges) have them.
    package var subAggregations: [NamedAggregation]

    package init(_ name: String, _ kind: AggregationKind, subAggregations: [NamedAggregation] = []) {
        self.name = name
        self.kind = kind
        self.subAggregations = subAggregations
    }
}

/// What an aggregation computes.
package enum AggregationKind: Sendable, Equatable {
    case terms(TermsAggregation)
    case histogram(HistogramAggregation)
    /// A histogram over a date field with a fixed interval; parsed into milliseconds, as tantivy does.
    case dateHistogram(HistogramAggregation)
    case range(RangeAggregation)
    case metric(MetricAggregation)
    case percentiles(PercentilesAggregation)
    case cardinality(CardinalityAggregation)

    /// The request's name for the kind (`terms`, `date_histogram`, `avg`, …).
    package var name: String {
        switch self {
        case .terms: "terms"
        case .histogram: "histogram"
        case .dateHistogram: "date_histogram"
        case .range: "range"
        case .metric(let m): m.statistic.rawValue
        case .percentiles: "percentiles"
        case .cardinality: "cardinality"
        }
    }

    /// Whether the kind makes buckets (and so may have sub-aggregations).
    package var isBucket: Bool {
        switch self {
        case .terms, .histogram, .dateHistogram, .range: true
        case .metric, .percentiles, .cardinality: false
        }
    }

    /// The field the aggregation reads.
    package var field: String {
        switch self {
        case .terms(let t): t.field
        case .histogram(let h), .dateHistogram(let h): h.field
        case .range(let r): r.field
        case .metric(let m): m.field
        case .percentiles(let p): p.field
        case .cardinality(let c): c.field
        }
    }
}

/// A value standing in for documents without one (`missing`): a string or a number, as written.
package enum MissingKey: Sendable, Equatable {
    case string(String)
    case i64(Int64)
    case u64(UInt64)
    case f64(Double)

    /// The value as a number, for numeric columns (strings have none).
    var number: Double? {
        switch self {
        case .string: nil
        case .i64(let v): Double(v)
        case .u64(let v): Double(v)
        case .f64(let v): v
        }
    }

    /// The bucket key the value becomes when it cannot be stored in the column (a string on a numeric field).
    var key: BucketKey {
        switch self {
        case .string(let s): .string(Array(s.utf8))
        case .i64(let v): .i64(v)
        case .u64(let v): .u64(v)
        case .f64(let v): .f64(v)
        }
    }
}

/// Which terms a terms aggregation keeps.
package enum TermFilter: Sendable, Equatable {
    /// Terms the whole of which the pattern matches.
    case regex(String)
    /// Exactly these terms.
    case values([String])
}

/// How a terms aggregation orders its buckets.
package struct BucketOrder: Sendable, Equatable {
    package enum Target: Sendable, Equatable {
        case count
        case key
        /// A metric sub-aggregation by name, with a property for multi-value metrics (`stats_name.avg`).
        case metric(name: String, property: String)
    }

    package var target: Target
    package var descending: Bool

    package init(_ target: Target, descending: Bool) {
        self.target = target
        self.descending = descending
    }

    /// `_count` descending, the default.
    package static let countDescending = BucketOrder(.count, descending: true)
}

/// `terms`: a bucket per distinct value of a field.
package struct TermsAggregation: Sendable, Equatable {
    package var field: String
    /// Buckets returned (default 10).
    package var size = 10
    /// Buckets each segment keeps before segments merge (`segment_size`, alias `shard_size`; default 10 × size,
    /// never below size).
    package var segmentSize: Int?
    /// Whether `doc_count_error_upper_bound` is reported (default: when ordering by `_count` descending).
    package var showTermDocCountError: Bool?
    /// Buckets with fewer documents are dropped (default 1; 0 adds a string field's unmatched terms).
    package var minDocCount = 1
    package var order = BucketOrder.countDescending
    package var missing: MissingKey?
    package var include: TermFilter?
    package var exclude: TermFilter?

    package init(field: String) {
        self.field = field
    }

    /// The per-segment cut-off tantivy applies.
    var effectiveSegmentSize: Int { max(segmentSize ?? size.multipliedReportingOverflow(by: 10).partialValue, size) }

    var reportsErrorBound: Bool { showTermDocCountError ?? (order == .countDescending) }
}

/// `[min, max]`, both inclusive, for `extended_bounds` and `hard_bounds`.
package struct HistogramBounds: Sendable, Equatable {
    package var min: Double
    package var max: Double

    package init(min: Double, max: Double) {
        self.min = min
        self.max = max
    }
}

/// `histogram` (and, in milliseconds, `date_histogram`): buckets of a fixed width.
package struct HistogramAggregation: Sendable, Equatable {
    package var field: String
    /// The bucket width (milliseconds for dates), > 0.
    package var interval: Double
    /// Shifts the bucket grid: bucket keys are `offset + k × interval`.
    package var offset: Double?
    /// Buckets with fewer documents are dropped; 0 (the default) fills the gaps between the first and last
    /// bucket with empty ones.
    package var minDocCount = 0
    /// Extends the filled range (with `minDocCount` 0) to at least these bounds.
    package var extendedBounds: HistogramBounds?
    /// Values outside are ignored, and no bucket lies outside.
    package var hardBounds: HistogramBounds?
    /// Return buckets as an object keyed by the bucket key instead of an array.
    package var keyed = false

    package init(field: String, interval: Double) {
        self.field = field
        self.interval = interval
    }
}

/// One range of a `range` aggregation: `from` inclusive, `to` exclusive, either open.
package struct RangeSpec: Sendable, Equatable {
    package var key: String?
    package var from: Double?
    package var to: Double?

    package init(key: String? = nil, from: Double?, to: Double?) {
        self.key = key
        self.from = from
        self.to = to
    }
}

/// `range`: a bucket per given range, plus buckets covering the rest of the value line.
package struct RangeAggregation: Sendable, Equatable {
    package var field: String
    package var ranges: [RangeSpec]
    package var keyed = false

    package init(field: String, ranges: [RangeSpec]) {
        self.field = field
        self.ranges = ranges
    }
}

/// The single statistics of the `stats` family.
package enum Statistic: String, Sendable, Equatable, CaseIterable {
    case stats, min, max, avg, sum
    case valueCount = "value_count"
}

/// `stats`, `min`, `max`, `avg`, `sum`, `value_count` over a field's values.
package struct MetricAggregation: Sendable, Equatable {
    package var statistic: Statistic
    package var field: String
    /// The value counted for documents without one.
    package var missing: Double?

    package init(_ statistic: Statistic, field: String, missing: Double? = nil) {
        self.statistic = statistic
        self.field = field
        self.missing = missing
    }
}

/// `percentiles`: quantiles estimated by a DDSketch, as tantivy computes them.
package struct PercentilesAggregation: Sendable, Equatable {
    package var field: String
    package var percents: [Double] = [1, 5, 25, 50, 75, 95, 99]
    /// An object keyed by percentile (the default) instead of an array of `{key, value}`.
    package var keyed = true
    package var missing: Double?

    package init(field: String) {
        self.field = field
    }
}

/// `cardinality`: the number of distinct values, estimated.
package struct CardinalityAggregation: Sendable, Equatable {
    package var field: String
    package var missing: MissingKey?

    package init(field: String) {
        self.field = field
    }
}
