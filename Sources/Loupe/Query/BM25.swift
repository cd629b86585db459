#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// BM25 exactly as tantivy computes it (`src/query/bm25.rs`), in `Float` as tantivy does, so scores agree to
/// the last bits: idf = ln(1 + (N − n + 0.5) / (n + 0.5)) with N = Σ maxDoc over segments (deleted and
/// field-less documents included), weight = idf · (1 + k1) · boost, and per norm code a cached
/// k1 · (1 − b + b · dl / avgdl), dl being the decoded quantized norm and avgdl = total tokens / N.
package struct BM25Weight: Sendable {
    package static let k1: Float = 1.2
    package static let b: Float = 0.75

    package let weight: Float
    /// k1 · (1 − b + b · dl / avgdl) for each norm code; shared by every scorer of the query.
    package let cache: NormFactors

    /// - Parameters:
    ///   - docFreqs: the document frequency of each term (one for a term query, several for a phrase, whose idfs add up).
    ///   - totalDocs: N.
    ///   - totalTokens: the field's token count over every segment.
    package init(docFreqs: [UInt64], totalDocs: UInt64, totalTokens: UInt64, boost: Float = 1) {
        var idfSum: Float = 0
        for n in docFreqs { idfSum += Self.idf(docFreq: n, docCount: totalDocs) }
        weight = boost * idfSum * (1 + Self.k1)
        let average = Float(totalTokens) / Float(max(totalDocs, 1))
        cache = NormFactors(average: average)
    }

    package static func idf(docFreq: UInt64, docCount: UInt64) -> Float {
        let x = (Float(docCount - min(docFreq, docCount)) + 0.5) / (Float(docFreq) + 0.5)
        return logf(1 + x)
    }

    /// The weight of scorers that compute no score (they only match).
    package static let unscored = BM25Weight(docFreqs: [], totalDocs: 1, totalTokens: 0)

    private init(weight: Float, cache: NormFactors) {
        self.weight = weight
        self.cache = cache
    }

    /// The same weight with its scores multiplied by `factor`.
    package func boosted(by factor: Float) -> BM25Weight {
        BM25Weight(weight: weight * factor, cache: cache)
    }

    @inline(__always)
    package func score(normCode: UInt8, termFrequency: UInt32) -> Float {
        let tf = Float(termFrequency)
        return weight * (tf / (tf + cache[normCode]))
    }
}

/// BM25's length normalisation for the 256 norm codes, computed once per query term and read by every scorer of
/// it through a raw pointer: no bounds check and no reference counting per document.
@safe
package final class NormFactors: @unchecked Sendable {
    // @unchecked: `base` is written only in init and freed only in deinit.
    /// 256 factors, indexed by norm code; immutable after `init`.
    package let base: UnsafeMutablePointer<Float>

    init(average: Float) {
        unsafe base = .allocate(capacity: 256)
        for (code, length) in FieldNormCode.table.enumerated() {
            unsafe base[code] = BM25Weight.k1 * (1 - BM25Weight.b + BM25Weight.b * Float(length) / average)
        }
    }

    deinit { unsafe base.deallocate() }

    @inline(__always) package subscript(code: UInt8) -> Float { unsafe base[Int(code)] }
}
