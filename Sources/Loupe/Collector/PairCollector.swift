/// Two collectors fed by one pass over the matches: instant search ranks its hits and counts its matches and
/// facets while reading the postings once, instead of once per collector. The pair prunes only what both can
/// spare (the lower threshold), and needs scores when either does.
struct PairCollector<First: Collector, Second: Collector>: Collector {
    private(set) var first: First
    private(set) var second: Second

    init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    struct Segment: SegmentCollector {
        var first: First.Segment
        var second: Second.Segment

        var needsMatches: Bool { first.needsMatches || second.needsMatches }
        var threshold: Float { min(first.threshold, second.threshold) }

        mutating func collect(_ block: borrowing ScoreBlock) {
            first.collect(block)
            second.collect(block)
        }

        mutating func setMatchCount(_ count: Int) {
            first.setMatchCount(count)
            second.setMatchCount(count)
        }
    }

    var needsScores: Bool { first.needsScores || second.needsScores }

    func segmentCollector(ordinal: Int, segment: SegmentReader) -> Segment {
        Segment(
            first: first.segmentCollector(ordinal: ordinal, segment: segment),
            second: second.segmentCollector(ordinal: ordinal, segment: segment))
    }

    mutating func merge(_ segment: Segment) {
        first.merge(segment.first)
        second.merge(segment.second)
    }
}
