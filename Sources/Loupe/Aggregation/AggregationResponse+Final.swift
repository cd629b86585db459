// Turning merged intermediate results into the response, as tantivy's `into_final_result` does: terms filtered
// by min_doc_count, ordered and cut to size; histogram gaps filled (min_doc_count 0) between the data's and the
// bounds' extremes; date keys in milliseconds with their RFC 3339 strings; metrics finalised. Then the whole
// response is held to the bucket limit.

extension AggregationResponse {
    /// The final response for `plan` from the merged results of every segment.
    /// - Throws: `IndexError` `.invalidArgument` when the response would hold more buckets than the plan's
    ///   limit (a histogram is checked before its empty buckets are made).
    init(_ plan: AggregationPlan, _ merged: IntermediateAggregations) throws(IndexError) {
        self = try Finalizer(limits: plan.limits).response(plan.aggregations, merged)
        let count = bucketCount
        guard count <= plan.limits.bucketLimit else { throw plan.limits.bucketLimitExceeded(count) }
    }
}

private struct Finalizer {
    let limits: AggregationLimits

    func response(
        _ plans: [PlannedAggregation], _ merged: IntermediateAggregations
    ) throws(IndexError)
        -> AggregationResponse
    {
        var results: [NamedResult] = []
        for (i, plan) in plans.enumerated() {
            let intermediate = i < merged.results.count ? merged.results[i] : .empty(plan)
            results.append(NamedResult(plan.name, try result(plan, intermediate)))
        }
        return AggregationResponse(results)
    }

    func result(
        _ plan: PlannedAggregation, _ intermediate: IntermediateResult
    ) throws(IndexError) -> AggregationResult {
        switch (plan.detail, intermediate) {
        case (.terms(let request, _, _), .terms(let partial)):
            return .terms(try terms(plan, request, partial))
        case (.histogram(let grid), .histogram(let buckets)):
            return .histogram(try histogram(plan, grid, buckets))
        case (.range(let ranges, let keyed), .range(let entries)):
            var buckets: [RangeBucket] = []
            for (range, entry) in zip(ranges, entries) {
                buckets.append(
                    RangeBucket(
                        key: range.key, docCount: entry.docCount, from: range.from, to: range.to,
                        fromAsString: range.fromText, toAsString: range.toText,
                        subAggregations: try response(plan.children, entry.sub)))
            }
            return .range(RangeResult(buckets: buckets, keyed: keyed))
        case (.metric(let request), .stats(let stats)):
            return metric(request.statistic, stats)
        case (.percentiles(let request), .percentiles(let sketch)):
            return .percentiles(
                PercentilesResult(
                    values: request.percents.map { .init(percent: $0, value: sketch.quantile($0 / 100)) },
                    keyed: request.keyed))
        case (.cardinality, .cardinality(let sketch)):
            return .value(sketch.estimate)
        default:
            // A plan node and its intermediate result always have the same kind; this answers as if empty.
            return try result(plan, .empty(plan))
        }
    }

    func metric(_ statistic: Statistic, _ stats: StatsAccumulator) -> AggregationResult {
        let empty = stats.count == 0
        switch statistic {
        case .stats:
            return .stats(
                StatsResult(
                    count: stats.count, sum: stats.sum, min: empty ? nil : stats.min, max: empty ? nil : stats.max,
                    avg: stats.average))
        case .min: return .value(empty ? nil : stats.min)
        case .max: return .value(empty ? nil : stats.max)
        case .avg: return .value(stats.average)
        case .sum: return .value(empty ? 0 : stats.sum)
        case .valueCount: return .value(Double(stats.count))
        }
    }

    func terms(
        _ plan: PlannedAggregation, _ request: TermsAggregation, _ partial: TermsPartial
    ) throws(IndexError)
        -> TermsResult
    {
        var buckets: [TermsBucket] = []
        for (key, entry) in partial.entries where entry.docCount >= request.minDocCount {
            let sub = try response(plan.children, entry.sub)
            buckets.append(TermsBucket(key: key, docCount: entry.docCount, subAggregations: sub))
        }
        let descending = request.order.descending
        switch request.order.target {
        case .key:
            buckets.sort { descending ? $1.key < $0.key : $0.key < $1.key }
        case .count:
            buckets.sort { a, b in a.docCount != b.docCount ? (a.docCount > b.docCount) == descending : a.key < b.key }
        case .metric(let name, let property):
            let lowest = -Double.greatestFiniteMagnitude
            var keyed = buckets.map { bucket in
                (value: bucket.subAggregations[name]?.metricValue(property) ?? lowest, bucket: bucket)
            }
            keyed.sort { a, b in
                a.value != b.value ? (a.value > b.value) == descending : a.bucket.key < b.bucket.key
            }
            buckets = keyed.map(\.bucket)
        }
        var sumOther = partial.sumOtherDocCount
        if buckets.count > request.size {
            sumOther += buckets[request.size...].reduce(0) { $0 + $1.docCount }
            buckets.removeSubrange(request.size...)
        }
        return TermsResult(
            buckets: buckets, sumOtherDocCount: sumOther,
            docCountErrorUpperBound: request.reportsErrorBound ? partial.docCountErrorUpperBound : nil)
    }

    func histogram(
        _ plan: PlannedAggregation, _ grid: HistogramGrid, _ entries: [HistogramEntry]
    ) throws(IndexError)
        -> HistogramResult
    {
        var filled: [HistogramEntry]
        if grid.minDocCount == 0 {
            filled = try fillGaps(plan, grid, entries)
        } else {
            filled = entries.filter { $0.docCount >= grid.minDocCount }
        }
        var buckets: [HistogramBucket] = []
        buckets.reserveCapacity(filled.count)
        for entry in filled {
            let sub = try response(plan.children, entry.sub)
            if grid.isDate {
                buckets.append(
                    HistogramBucket(
                        key: entry.key / 1_000_000,
                        keyAsString: AggregationText.rfc3339(nanoseconds: RustCast.i64(entry.key)),
                        docCount: entry.docCount, subAggregations: sub))
            } else {
                buckets.append(
                    HistogramBucket(key: entry.key, keyAsString: nil, docCount: entry.docCount, subAggregations: sub))
            }
        }
        return HistogramResult(buckets: buckets, keyed: grid.keyed)
    }

    /// Every bucket from the lowest to the highest key — the data's, widened to `extended_bounds`, clipped to
    /// `hard_bounds` — with empty ones where no document fell, merged with the buckets found as tantivy merges
    /// them (by key equality, so the grid is recomputed the way tantivy recomputes it).
    func fillGaps(
        _ plan: PlannedAggregation, _ grid: HistogramGrid, _ entries: [HistogramEntry]
    ) throws(IndexError)
        -> [HistogramEntry]
    {
        var low = entries.map(\.key).min() ?? .greatestFiniteMagnitude
        var high = entries.map(\.key).max() ?? -.greatestFiniteMagnitude
        if let extended = grid.extendedBounds {
            low = .minimum(low, extended.min)
            high = .maximum(high, extended.max)
        }
        if let hard = grid.hardBounds {
            low = .maximum(low, hard.min)
            high = .minimum(high, hard.max)
        }
        let first = grid.position(low)
        let last = grid.position(high)
        guard first <= last else { return entries }
        let (span, overflow) = last.subtractingReportingOverflow(first)
        guard !overflow, span < Int64(limits.bucketLimit) else {
            throw limits.bucketLimitExceeded(overflow ? .max : Int(span) + 1, in: plan.name)
        }
        let empty = IntermediateAggregations.empty(plan.children)
        let grid = (first...last).map { HistogramEntry(key: grid.key($0), docCount: 0, sub: empty) }
        var out: [HistogramEntry] = []
        out.reserveCapacity(grid.count + entries.count)
        var i = 0
        var j = 0
        while i < entries.count || j < grid.count {
            if j == grid.count || (i < entries.count && entries[i].key < grid[j].key) {
                out.append(entries[i])
                i += 1
            } else if i == entries.count || grid[j].key < entries[i].key {
                out.append(grid[j])
                j += 1
            } else {
                out.append(entries[i])
                i += 1
                j += 1
            }
        }
        return out
    }
}
