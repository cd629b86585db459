/// The typed result of an aggregation request, as tantivy's `AggregationResults` holds it: one result per
/// requested aggregation, in request order. `json` writes it in tantivy 0.27's JSON shape.
package struct AggregationResponse: Sendable, Equatable {
    package var results: [NamedResult]

    package init(_ results: [NamedResult]) {
        self.results = results
    }

    /// The result named `name`, if the request had it.
    package subscript(name: String) -> AggregationResult? { results.first { $0.name == name }?.result }

    /// Buckets in the response, nested ones included: what the bucket limit counts.
    var bucketCount: Int { results.reduce(0) { $0 + $1.result.bucketCount } }
}

package struct NamedResult: Sendable, Equatable {
    package var name: String
    package var result: AggregationResult

    package init(_ name: String, _ result: AggregationResult) {
        self.name = name
        self.result = result
    }
}

/// One aggregation's result.
package indirect enum AggregationResult: Sendable, Equatable {
    case terms(TermsResult)
    case histogram(HistogramResult)
    case range(RangeResult)
    /// `avg`, `min`, `max`, `sum`, `value_count`, `cardinality`: one number, or none (`null`) without values.
    case value(Double?)
    case stats(StatsResult)
    case percentiles(PercentilesResult)

    var bucketCount: Int {
        switch self {
        case .terms(let t): t.buckets.reduce(0) { $0 + 1 + $1.subAggregations.bucketCount }
        case .histogram(let h): h.buckets.reduce(0) { $0 + 1 + $1.subAggregations.bucketCount }
        case .range(let r): r.buckets.reduce(0) { $0 + 1 + $1.subAggregations.bucketCount }
        case .value, .stats, .percentiles: 0
        }
    }

    /// The value an order by this (metric) result reads: `property` names a stats value.
    func metricValue(_ property: String) -> Double? {
        switch self {
        case .value(let v): v
        case .stats(let s): s.value(property)
        case .terms, .histogram, .range, .percentiles: nil
        }
    }
}

package struct TermsResult: Sendable, Equatable {
    package var buckets: [TermsBucket]
    /// Documents in buckets not returned: cut by the size here, or by a segment's cut.
    package var sumOtherDocCount: Int
    /// The sum over segments of the largest count a segment cut off; present when ordering by `_count`
    /// descending (or asked for).
    package var docCountErrorUpperBound: Int?
}

package struct TermsBucket: Sendable, Equatable {
    package var key: BucketKey
    package var docCount: Int
    package var subAggregations: AggregationResponse
}

package struct HistogramResult: Sendable, Equatable {
    package var buckets: [HistogramBucket]
    /// Written as an object keyed by bucket key rather than an array.
    package var keyed: Bool
}

package struct HistogramBucket: Sendable, Equatable {
    /// The bucket's lower bound (milliseconds since the epoch for dates).
    package var key: Double
    /// The key as an RFC 3339 date, for date histograms.
    package var keyAsString: String?
    package var docCount: Int
    package var subAggregations: AggregationResponse
}

package struct RangeResult: Sendable, Equatable {
    package var buckets: [RangeBucket]
    package var keyed: Bool
}

package struct RangeBucket: Sendable, Equatable {
    /// The request's key, or `from-to` with `*` for an open end.
    package var key: String
    package var docCount: Int
    package var from: Double?
    package var to: Double?
    /// For date fields, the bounds as RFC 3339 dates.
    package var fromAsString: String?
    package var toAsString: String?
    package var subAggregations: AggregationResponse
}

package struct StatsResult: Sendable, Equatable {
    package var count: Int
    package var sum: Double
    package var min: Double?
    package var max: Double?
    package var avg: Double?

    func value(_ property: String) -> Double? {
        switch property {
        case "count": Double(count)
        case "sum": sum
        case "min": min
        case "max": max
        case "avg": avg
        default: nil
        }
    }
}

package struct PercentilesResult: Sendable, Equatable {
    /// Each requested percentile and its estimate (none without values).
    package var values: [Percentile]
    /// Written as an object keyed by percentile (`"99.0"`) rather than an array of `{key, value}`.
    package var keyed: Bool

    package struct Percentile: Sendable, Equatable {
        package var percent: Double
        package var value: Double?
    }
}
