/// Runs a weight over a searcher's segments into a collector: the one loop every search goes through.
///
/// Per segment it asks the weight for a count it knows without reading postings, builds the scorer tree, and
/// either counts (a collector that needs no matches) or pulls blocks of matches out of the root, drops the deleted
/// ones — the only place deletes are applied to matches — and hands the rest to the segment's collector. The loop
/// is generic over the collector, so its per-document work specializes; the scorer is called once per block.
///
/// When the collector's threshold rises above -infinity, the loop prunes: it asks the root for the region its
/// bounds cover (a postings block for a term; where every clause's bound holds for a boolean), skips a region
/// whose bound cannot beat the threshold without decoding it, and passes the threshold down so a union can run
/// MaxScore inside the region. This is block-max pruning for any tree: over a conjunction it is block-max AND.
package enum SegmentSearch {
    /// Every segment of `segments`, in order, into `collector`.
    /// - Parameter stop: asked before each segment; once it is met the search throws, leaving `collector` partial.
    /// - Throws: `IndexError` `.corruption` naming the file and byte offset when a segment's postings or
    ///   positions turn out damaged while matching; `.cancelled` when `stop` is met.
    package static func run<C: Collector>(
        _ weight: Weight, over segments: [SegmentReader], scratch: ScorerScratch, stop: StopCondition = .never,
        into collector: inout C
    ) throws(IndexError) {
        var block = ScoreBlock()
        for (i, segment) in segments.enumerated() {
            try stop.throwIfMet()
            var matches = collector.segmentCollector(ordinal: i, segment: segment)
            let known = try weight.shortcutCount(segment, ordinal: i)
            if let known { matches.setMatchCount(known) }
            if !matches.needsMatches && known != nil {
                collector.merge(matches)
                continue
            }
            if case .all = weight, segment.deleted == nil, !collector.needsScores, matches.collectEveryDocument() {
                collector.merge(matches)
                continue
            }
            let scorer = weight.scorer(
                segment, ordinal: i, scoring: collector.needsScores && matches.needsMatches, scratch: scratch)
            let live = LiveDocs(segment.deleted)
            if matches.needsMatches {
                drive(scorer, live, into: &matches, block: &block)
            } else {
                matches.setMatchCount(scorer.countRemaining(live: live))
            }
            if let damage = scorer.damage {
                throw IndexError(format: damage.error, file: damage.component.fileName(segment.id), segment: segment.id)
            }
            collector.merge(matches)
        }
    }

    /// Pulls every match out of `scorer` into `collector`, pruning by the collector's threshold.
    private static func drive<S: SegmentCollector>(
        _ scorer: any Scorer, _ live: LiveDocs, into collector: inout S, block: inout ScoreBlock
    ) {
        while true {
            let doc = scorer.doc
            guard doc != terminatedDoc else { return }
            let threshold = collector.threshold
            guard threshold < .infinity else { return }
            block.count = 0
            if threshold > -.infinity {
                let end = scorer.regionEnd(from: doc)
                if scorer.maxScore(from: doc, through: end) <= threshold {
                    scorer.seek(end &+ 1)
                    continue
                }
                scorer.fill(&block, until: end &+ 1, threshold: threshold)
            } else {
                scorer.fill(&block, until: terminatedDoc, threshold: threshold)
            }
            live.filter(&block, from: 0)
            if block.count > 0 { collector.collect(block) }
        }
    }
}

/// When a long read gives up: asked once per segment by `SegmentSearch.run`, never per document, so a cancelled
/// search stops within one segment's work. The synchronous API passes `.never`, which costs a nil test per segment.
package struct StopCondition: Sendable {
    private let isMet: (@Sendable () -> Bool)?

    /// Never stops.
    package static let never = StopCondition(isMet: nil)

    /// Stops once the current task is cancelled: the condition of every `…Async` call.
    package static let whenTaskCancelled = StopCondition(isMet: { Task.isCancelled })

    /// Throws `.cancelled` when the condition is met.
    @inline(__always)
    package func throwIfMet() throws(IndexError) {
        if let isMet, isMet() { throw Self.cancelled() }
    }

    @inline(never)
    private static func cancelled() -> IndexError {
        IndexError(.cancelled, "the task was cancelled; the search stopped before finishing and returned nothing")
    }
}
