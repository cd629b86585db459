// Query execution: Query → Weight (resolved against a searcher: fields, terms, global BM25 statistics)
// → one Scorer per segment, which walks matching documents in increasing order.
//
// A scorer is created positioned on its first document; `advance` and `seek` move forward and return the
// new document, `terminatedDoc` once exhausted. Leaf scorers are final classes over struct cursors, so a
// tree node advances its children with one direct or witness call per document; the top-k and count
// loops are generic over the root scorer's type and specialize for the common single-term root.

/// A document iterator that can score its current document.
package protocol Scorer: AnyObject {
    /// The current document, `terminatedDoc` when exhausted.
    var doc: DocID { get }
    /// Moves to the next document and returns it.
    func advance() -> DocID
    /// Moves to the first document ≥ `target` (which must be > the current document) and returns it.
    func seek(_ target: DocID) -> DocID
    /// The score of the current document.
    func score() -> Float
}

/// A scorer with no documents, for terms or fields absent from a segment.
package final class EmptyScorer: Scorer {
    package init() {}
    package var doc: DocID { terminatedDoc }
    package func advance() -> DocID { terminatedDoc }
    package func seek(_ target: DocID) -> DocID { terminatedDoc }
    package func score() -> Float { 0 }
}

/// Every document of the segment with a constant score.
package final class AllScorer: Scorer {
    private let maxDoc: DocID
    private let constant: Float
    package private(set) var doc: DocID

    package init(maxDoc: Int, score: Float) {
        self.maxDoc = DocID(maxDoc)
        self.constant = score
        doc = maxDoc == 0 ? terminatedDoc : 0
    }

    package func advance() -> DocID {
        doc = doc + 1 < maxDoc ? doc + 1 : terminatedDoc
        return doc
    }

    package func seek(_ target: DocID) -> DocID {
        doc = target < maxDoc ? max(target, doc) : terminatedDoc
        return doc
    }

    package func score() -> Float { constant }
}

/// Multiplies another scorer's scores.
package final class BoostScorer<Inner: Scorer>: Scorer {
    private let inner: Inner
    private let factor: Float

    package init(_ inner: Inner, factor: Float) {
        self.inner = inner
        self.factor = factor
    }

    package var doc: DocID { inner.doc }
    package func advance() -> DocID { inner.advance() }
    package func seek(_ target: DocID) -> DocID { inner.seek(target) }
    package func score() -> Float { inner.score() * factor }
}

/// Another scorer's documents, each with the same score.
package final class ConstantScorer<Inner: Scorer>: Scorer {
    private let inner: Inner
    private let constant: Float

    package init(_ inner: Inner, score: Float) {
        self.inner = inner
        self.constant = score
    }

    package var doc: DocID { inner.doc }
    package func advance() -> DocID { inner.advance() }
    package func seek(_ target: DocID) -> DocID { inner.seek(target) }
    package func score() -> Float { constant }
}

/// The documents of a bitset, each with the same score.
package final class BitSetScorer: Scorer {
    private let bits: DocBitSet
    private let constant: Float
    package private(set) var doc: DocID

    package init(_ bits: DocBitSet, score: Float) {
        self.bits = bits
        self.constant = score
        doc = bits.next(from: 0)
    }

    package func advance() -> DocID {
        guard doc != terminatedDoc else { return doc }
        doc = bits.next(from: doc + 1)
        return doc
    }

    package func seek(_ target: DocID) -> DocID {
        guard doc < target else { return doc }
        doc = bits.next(from: target)
        return doc
    }

    package func score() -> Float { constant }
}
