/// What one aggregation request may use: tantivy's limits, with its defaults. Both end the request with a typed
/// error rather than a crash, a hang or an allocation the machine cannot make.
package struct AggregationLimits: Sendable, Equatable {
    /// The most buckets a response may hold, nested buckets included (tantivy's `DEFAULT_BUCKET_LIMIT`).
    package var bucketLimit: Int
    /// The most bytes the per-segment state (counts, sketches, bucket tables) may take, as estimated while
    /// collecting (tantivy's `DEFAULT_MEMORY_LIMIT`).
    package var memoryLimitBytes: Int

    package init(bucketLimit: Int = 65_000, memoryLimitBytes: Int = 500_000_000) {
        self.bucketLimit = bucketLimit
        self.memoryLimitBytes = memoryLimitBytes
    }

    @inline(never)
    func bucketLimitExceeded(_ count: Int, in name: String? = nil) -> IndexError {
        let what = name.map { "aggregation '\($0)'" } ?? "the aggregation response"
        return IndexError(
            .invalidArgument,
            "\(what) would hold \(count) buckets, more than the limit of \(bucketLimit); use a wider interval, "
                + "a smaller size, fewer nested buckets or a min_doc_count")
    }

    @inline(never)
    func memoryLimitExceeded(_ bytes: Int) -> IndexError {
        IndexError(
            .invalidArgument,
            "the aggregation needs more than its memory limit of \(memoryLimitBytes) bytes (\(bytes) estimated); "
                + "aggregate fewer distinct values or buckets, or over fewer documents")
    }
}

/// The memory one request's segment state has taken, shared by all its aggregators. Collecting stops at the
/// first block after the limit is passed; the search then throws.
final class AggregationBudget {
    let limits: AggregationLimits
    private(set) var usedBytes = 0
    /// The first estimate past the limit, once there is one.
    private(set) var exceededAt: Int?

    init(_ limits: AggregationLimits) {
        self.limits = limits
    }

    var isExceeded: Bool { exceededAt != nil }

    /// Records a change in some aggregator's footprint.
    func charge(_ bytes: Int) {
        usedBytes += bytes
        if usedBytes > limits.memoryLimitBytes, exceededAt == nil { exceededAt = usedBytes }
    }

    /// Whether `bytes` more would stay within the limit; records the excess otherwise. For allocations sized from
    /// the request (a dense table), asked before making them.
    func admits(_ bytes: Int) -> Bool {
        let (total, overflow) = usedBytes.addingReportingOverflow(bytes)
        guard overflow || total > limits.memoryLimitBytes else { return true }
        if exceededAt == nil { exceededAt = overflow ? .max : total }
        return false
    }
}
