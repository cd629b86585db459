/// The number of matches and, per facet field, the matching documents holding each value: the one exhaustive,
/// unscored pass behind instant search's count and facet sidebar.
struct FacetCountsCollector: Collector {
    private(set) var count = 0
    private(set) var facets: [TermCountsCollector]

    init(fields: [Int]) {
        facets = fields.map { TermCountsCollector(field: $0) }
    }

    struct Segment: SegmentCollector {
        var count = 0
        var facets: [TermCountsCollector.Segment]

        var needsMatches: Bool { facets.contains { $0.needsMatches } }
        var threshold: Float { -.infinity }

        mutating func setMatchCount(_ count: Int) { self.count = count }

        mutating func collect(_ block: borrowing ScoreBlock) {
            count += block.count
            for i in facets.indices { facets[i].collect(block) }
        }
    }

    var needsScores: Bool { false }

    func segmentCollector(ordinal: Int, segment: SegmentReader) -> Segment {
        Segment(facets: facets.map { $0.segmentCollector(ordinal: ordinal, segment: segment) })
    }

    mutating func merge(_ segment: Segment) {
        count += segment.count
        for i in facets.indices { facets[i].merge(segment.facets[i]) }
    }
}
