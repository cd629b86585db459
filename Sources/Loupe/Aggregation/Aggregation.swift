// Aggregation: Elasticsearch-shaped summaries of a search's matches, answered as tantivy 0.27 answers them
// (Docs/AGGREGATIONS.md: every kind, parameter, response shape and difference).
//
// AggregationRequest        the typed request tree; +JSON parses it, every error naming its path
// AggregationPlan           the request bound to a schema: field ordinals and types checked, patterns compiled,
//                           histogram grids and range bounds in the values' space (nanoseconds for dates)
// AggregationCollector      a Collector: per segment, a tree of SegmentAggregators fed every block of matches;
//                           their IntermediateResults merged across segments
// *Aggregator               one per kind (terms, histogram, range, metric, percentiles, cardinality), each a thin
//                           class over a struct core whose per-value loop specialises (SegmentAggregator.swift)
// BucketSlots               dense per-segment bucket numbers, so counts and sub-aggregation state are arrays
// IntermediateResult        what a segment found, merged by key; DDSketch and CardinalitySketch merge too
// AggregationResponse       the typed result; +Final orders, cuts, fills histogram gaps and checks the bucket
//                           limit; +JSON writes tantivy's shape
//
// Invariants. Nothing per document allocates, looks anything up by bytes or calls through an existential: term
// ordinals become bytes only at a segment's harvest, for the buckets it keeps. Every segment cuts a terms
// aggregation to its segment size before merging, exactly as tantivy's segment collector does, so counts,
// `sum_other_doc_count` and `doc_count_error_upper_bound` agree with tantivy's; ties, which tantivy leaves to hash
// and selection order, go to the smaller key. Limits (AggregationLimits) end a request with an `IndexError`:
// collecting stops at the first block past the memory budget, and a histogram's empty buckets are counted before
// any is made.
