/// Scores one term in one segment: postings cursor + BM25 + the field's norms.
///
/// The BM25 factors of the 256 norm codes are read through the query's shared table's raw pointer, so scoring a
/// document is two loads, an add and a divide, with no array bounds or reference-count traffic.
@safe
package final class TermScorer: Scorer {
    package let postings: PostingsCursor
    private let norms: FieldNormsReader.Column?
    private let weight: Float
    /// Keeps `normFactors` alive.
    private let factors: NormFactors
    private let normFactors: UnsafeMutablePointer<Float>

    package init(postings: PostingsCursor, norms: FieldNormsReader.Column?, bm25: BM25Weight) {
        self.postings = postings
        self.norms = norms
        weight = bm25.weight
        factors = bm25.cache
        unsafe normFactors = bm25.cache.base
    }

    @inline(__always) package var doc: DocID { unsafe postings.doc }
    @inline(__always) package func advance() -> DocID { postings.advance() }
    @inline(__always) package func seek(_ target: DocID) -> DocID { postings.seek(target) }

    @inline(__always) package func score() -> Float {
        let code = norms.map { unsafe $0.code(postings.doc) } ?? 0
        let tf = Float(postings.termFrequency)
        let factor = unsafe normFactors[Int(code)]
        return weight * (tf / (tf + factor))
    }
}
