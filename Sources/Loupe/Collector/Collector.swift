// Collectors: what a search does with its matches. A `Collector` makes one `SegmentCollector` per segment, the
// driver (`SegmentSearch`) feeds it that segment's live matches a block at a time, and the collector merges the
// segment's results back in search order (tantivy's `Collector`/`SegmentCollector`/`merge_fruits`). Top-k, counts,
// sorting by a field and "every matching document" are collectors; facets and aggregations are meant to be too.
//
// Collectors see only live documents in increasing order, with scores when they asked for them; they know
// nothing of scorers, and scorers nothing of them. The one thing a collector says back is its threshold: the score
// a match must beat to matter, which lets the driver skip what cannot compete.

/// Gathers one segment's matches.
package protocol SegmentCollector {
    /// False when the collector only needs the segment's match count, which the driver may then find without
    /// producing any match.
    var needsMatches: Bool { get }

    /// Takes a block of live matches, in increasing document order; scores are set when the collector's
    /// `Collector.needsScores` is.
    mutating func collect(_ block: borrowing ScoreBlock)

    /// Takes the segment's exact number of live matches, when the driver knows it without producing them (a term's
    /// document frequency, a popcount): the collector counts no further.
    mutating func setMatchCount(_ count: Int)

    /// Every document of the segment matches and none is deleted: collects them all at once, straight from the
    /// segment's columns, and returns true, or returns false to be fed blocks as usual.
    mutating func collectEveryDocument() -> Bool

    /// A match scoring at or below this cannot change the result: -infinity while every match counts (an exact count
    /// is wanted, or the top-k is not full yet), +infinity once the collector needs nothing more.
    var threshold: Float { get }
}

extension SegmentCollector {
    package mutating func collectEveryDocument() -> Bool { false }
}

/// A search's collector: a `SegmentCollector` per segment, whose results merge in search order.
package protocol Collector {
    associatedtype Segment: SegmentCollector

    /// Whether matches need their scores.
    var needsScores: Bool { get }

    /// The collector of segment `ordinal`, seeded with what the earlier segments found.
    func segmentCollector(ordinal: Int, segment: SegmentReader) -> Segment

    /// Folds a finished segment's results in.
    mutating func merge(_ segment: Segment)
}

/// Counts matches.
package struct CountCollector: Collector {
    package private(set) var count = 0

    package init() {}

    package struct Segment: SegmentCollector {
        var count = 0
        package var needsMatches: Bool { false }
        package var threshold: Float { .infinity }
        package mutating func collect(_ block: borrowing ScoreBlock) { count += block.count }
        package mutating func setMatchCount(_ count: Int) { self.count = count }
    }

    package var needsScores: Bool { false }
    package func segmentCollector(ordinal: Int, segment: SegmentReader) -> Segment { Segment() }
    package mutating func merge(_ segment: Segment) { count += segment.count }
}

/// Every live match, per segment in search order: what deletes by query and `Index.get` walk. With `limit`, stops
/// after that many matches in all.
package struct DocSetCollector: Collector {
    package private(set) var documents: [[DocID]] = []
    private let limit: Int

    package init(limit: Int = .max) {
        self.limit = limit
    }

    package struct Segment: SegmentCollector {
        var documents: [DocID] = []
        let limit: Int
        package var needsMatches: Bool { true }
        package var threshold: Float { documents.count >= limit ? .infinity : -.infinity }
        package mutating func setMatchCount(_ count: Int) {}
        package mutating func collect(_ block: borrowing ScoreBlock) {
            for i in 0..<min(block.count, limit - documents.count) { documents.append(unsafe block.docs[i]) }
        }
    }

    package var needsScores: Bool { false }

    package func segmentCollector(ordinal: Int, segment: SegmentReader) -> Segment {
        Segment(limit: limit - documents.reduce(0) { $0 + $1.count })
    }

    package mutating func merge(_ segment: Segment) { documents.append(segment.documents) }
}
