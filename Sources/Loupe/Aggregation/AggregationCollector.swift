/// Runs an aggregation plan over a search's matches: per segment, the plan's aggregators fed every block of
/// live matches; at each segment's end, their results harvested and merged into the running whole. Scores are
/// not needed, and nothing prunes: every match counts. Once the memory budget is exceeded the threshold rises
/// to +infinity, so the driver stops at the next block and the search throws.
struct AggregationCollector: Collector {
    let plan: AggregationPlan
    let budget: AggregationBudget
    /// The segments' results merged so far.
    private(set) var merged: IntermediateAggregations?

    init(_ plan: AggregationPlan) {
        self.plan = plan
        budget = AggregationBudget(plan.limits)
    }

    struct Segment: SegmentCollector {
        let aggregators: [any SegmentAggregator]
        let budget: AggregationBudget
        private var block = DocBlock()

        init(aggregators: [any SegmentAggregator], budget: AggregationBudget) {
            self.aggregators = aggregators
            self.budget = budget
        }

        var needsMatches: Bool { true }
        var threshold: Float { budget.isExceeded ? .infinity : -.infinity }
        mutating func setMatchCount(_ count: Int) {}

        mutating func collect(_ matches: borrowing ScoreBlock) {
            block.removeAll()
            unsafe block.docs.append(contentsOf: UnsafeBufferPointer(start: matches.docs, count: matches.count))
            for aggregator in aggregators { aggregator.collect(block) }
        }

        func harvest() -> IntermediateAggregations {
            IntermediateAggregations(results: aggregators.map { $0.harvest(0) })
        }
    }

    var needsScores: Bool { false }

    func segmentCollector(ordinal: Int, segment: SegmentReader) -> Segment {
        let builder = SegmentAggregatorBuilder(segment: segment, budget: budget)
        return Segment(aggregators: builder.make(plan.aggregations), budget: budget)
    }

    mutating func merge(_ segment: Segment) {
        guard !budget.isExceeded else { return }
        let results = segment.harvest()
        if merged == nil { merged = results } else { merged!.merge(results) }
    }
}

extension Searcher {
    /// Runs a bound request over the documents `weight` matches.
    /// - Throws: `IndexError` `.invalidArgument` when the memory or bucket limit is exceeded; `.corruption` if
    ///   postings turn out damaged while matching.
    package func aggregate(_ plan: AggregationPlan, matching weight: Weight) throws(IndexError) -> AggregationResponse {
        var collector = AggregationCollector(plan)
        try collect(weight, into: &collector)
        if let bytes = collector.budget.exceededAt { throw plan.limits.memoryLimitExceeded(bytes) }
        return try AggregationResponse(plan, collector.merged ?? .empty(plan.aggregations))
    }

    /// Runs a typed request over the documents matching `query`.
    /// - Throws: `IndexError` `.invalidArgument` for a request the schema cannot serve or a limit exceeded,
    ///   `.invalidQuery` for a bad query.
    package func aggregate(
        _ request: AggregationRequest, matching query: Query = .matchAll, limits: AggregationLimits = .init()
    ) throws(IndexError) -> AggregationResponse {
        let plan = try AggregationPlan(request, schema: schema, limits: limits)
        return try aggregate(plan, matching: compile(query))
    }
}
