#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// More-like-this: the text's most telling terms (Lucene's MoreLikeThis selection) searched as a disjunction.
extension WeightBuilder {
    func moreLikeThisWeight(_ name: String, _ text: String, _ options: MoreLikeThisOptions) throws(IndexError) -> Weight
    {
        let (field, entry) = try resolve(name)
        guard entry.type == .text || entry.type == .string else {
            throw IndexError(
                .invalidQuery,
                "field '\(name)' is a \(entry.type.rawValue) field; more-like-this needs a text or string field",
                context: .init(field: name))
        }
        guard options.maxQueryTerms >= 1 else {
            throw IndexError(
                .invalidQuery, "maxQueryTerms must be ≥ 1 (got \(options.maxQueryTerms))", context: .init(field: name))
        }
        var frequencies: [[UInt8]: Int] = [:]
        if entry.type == .text {
            for token in try analyzer(entry).tokens(text) { frequencies[token.bytes, default: 0] += 1 }
        } else {
            frequencies[Array(text.utf8)] = 1
        }
        var candidates: [(term: [UInt8], infos: [TermInfo?], score: Float)] = []
        for (term, tf) in frequencies where tf >= options.minTermFrequency && keepsLength(term, options) {
            let infos = try lookup(field, term)
            let df = docFreq(infos)
            guard df >= UInt64(max(options.minDocFrequency, 1)),
                options.maxDocFrequency.map({ df <= UInt64(max($0, 0)) }) ?? true
            else {
                continue
            }
            // Lucene's classic idf: 1 + ln(N / (df + 1)).
            let idf = 1 + logf(Float(totalDocs) / Float(df + 1))
            candidates.append((term, infos, Float(tf) * idf))
        }
        candidates.sort { $0.score != $1.score ? $0.score > $1.score : $0.term.lexicographicallyPrecedes($1.term) }
        let terms = candidates.prefix(options.maxQueryTerms).map { termWeight(field, entry, infos: $0.infos) }
        switch terms.count {
        case 0: return .empty
        case 1: return terms[0]
        default:
            return .boolean(Weight.BooleanWeight(must: [], should: Array(terms), mustNot: [], minimumShouldMatch: 1))
        }
    }

    private func keepsLength(_ term: [UInt8], _ options: MoreLikeThisOptions) -> Bool {
        let length = String(decoding: term, as: UTF8.self).unicodeScalars.count
        return (options.minWordLength <= 0 || length >= options.minWordLength)
            && (options.maxWordLength <= 0 || length <= options.maxWordLength)
    }
}
