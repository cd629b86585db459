/// Documents where the head words form their phrase and one of the prefix's expansions follows it (`"star wa"*`),
/// scored as tantivy's `PhrasePrefixScorer`: by the head phrase alone — BM25 with the head terms' idfs and the number
/// of head-phrase occurrences — or, with a single head word, a constant.
///
/// The head phrase leads; for each of its documents the expansions present in it are checked for a position right
/// after one of the phrase's occurrences.
@safe
package final class PhrasePrefixScorer: DocAtATimeScorer {
    private let head: PhraseScorer
    private let suffixes: [(postings: PostingsCursor, positions: PositionsCursor)]
    /// The expansion's position relative to a head occurrence's start.
    private let suffixOffset: Int64
    /// The score of every match when the head is a single word; nil: the head phrase's BM25.
    private let constant: Float?
    private var buffer: [UInt32] = []
    package private(set) var doc: DocID = 0
    package let scoring: Bool

    /// - Parameter head: built with `recordsStarts`.
    package init(
        head: PhraseScorer, suffixes: [(postings: PostingsCursor, positions: PositionsCursor)], suffixOffset: UInt32,
        constant: Float?, scoring: Bool
    ) {
        self.head = head
        self.suffixes = suffixes
        self.suffixOffset = Int64(suffixOffset)
        self.constant = constant
        self.scoring = scoring
        doc = settle()
    }

    package var cost: Int { head.cost }

    package var damage: SegmentDamage? {
        if let d = head.damage { return d }
        for s in suffixes {
            if let d = s.postings.damage ?? s.positions.damage { return d }
        }
        return nil
    }

    /// From the head's current document, the first one an expansion completes.
    private func settle() -> DocID {
        var d = head.doc
        while d != terminatedDoc && !completed(d) { d = head.next() }
        return d
    }

    /// Whether an expansion sits right after one of the head phrase's occurrences in `d`.
    private func completed(_ d: DocID) -> Bool {
        for s in suffixes {
            if s.postings.doc < d { _ = s.postings.seek(d) }
            guard s.postings.doc == d else { continue }
            let tf = Int(s.postings.termFrequency)
            guard s.positions.canHold(tf) else { continue }
            if buffer.count < tf { buffer = [UInt32](repeating: 0, count: tf) }
            let read = unsafe buffer.withUnsafeMutableBufferPointer { out in
                unsafe s.positions.read(ordinal: s.postings.positionsBefore, count: tf, into: out.baseAddress!)
            }
            guard read else { continue }
            var i = 0
            for start in head.starts {
                let want = start + suffixOffset
                while i < tf && Int64(buffer[i]) < want { i += 1 }
                if i == tf { break }
                if Int64(buffer[i]) == want { return true }
            }
        }
        return false
    }

    package func next() -> DocID {
        guard doc != terminatedDoc else { return doc }
        _ = head.next()
        doc = settle()
        return doc
    }

    package func advance(to target: DocID) -> DocID {
        guard doc < target else { return doc }
        _ = head.advance(to: target)
        doc = settle()
        return doc
    }

    package func currentScore() -> Float { constant ?? head.currentScore() }

    package func maxScore(from target: DocID, through last: DocID) -> Float {
        constant ?? head.maxScore(from: target, through: last)
    }
}
