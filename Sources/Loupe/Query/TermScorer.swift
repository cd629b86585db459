/// Scores one term in one segment: postings cursor + BM25 + the field's norms.
package final class TermScorer: Scorer {
    package let postings: PostingsCursor
    private let norms: FieldNormsReader.Column?
    private let bm25: BM25Weight

    package init(postings: PostingsCursor, norms: FieldNormsReader.Column?, bm25: BM25Weight) {
        self.postings = postings
        self.norms = norms
        self.bm25 = bm25
    }

    @inline(__always) package var doc: DocID { postings.doc }
    @inline(__always) package func advance() -> DocID { postings.advance() }
    @inline(__always) package func seek(_ target: DocID) -> DocID { postings.seek(target) }

    @inline(__always) package func score() -> Float {
        bm25.score(normCode: norms?.code(postings.doc) ?? 0, termFrequency: postings.termFrequency)
    }
}
