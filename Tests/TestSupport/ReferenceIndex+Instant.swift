import Loupe
import LoupeAnalysis

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ReferenceIndex.Evaluator {
    /// The typos between a typed word and a term as instant search counts them: the first `exactPrefix`
    /// characters must be the same (none of them is edited), the rest is optimal-string-alignment distance (of
    /// the term's closest prefix when `prefix`); `Int.max` when the start differs.
    static func typos(_ typed: [Unicode.Scalar], _ term: [Unicode.Scalar], prefix: Bool, exactPrefix: Int) -> Int {
        let fixed = min(exactPrefix, typed.count)
        guard term.count >= fixed, term.prefix(fixed).elementsEqual(typed.prefix(fixed)) else { return .max }
        return editDistance(
            Array(typed.dropFirst(fixed)), Array(term.dropFirst(fixed)), transpositions: true, prefix: prefix)
    }

    /// `Query.instant` by brute force, as Docs/INSTANT-SEARCH.md states it: every word must match in one of the
    /// fields within its typo budget (by optimal string alignment distance over scalars; the last word, unless
    /// the text ends with a separator, against every prefix of a term). A word scores 3 minus the typos of its
    /// closest match, plus the BM25 of the matches with that many typos (one blended idf per word, the most
    /// frequent expansion's), all BM25 scaled by one factor making the words' largest possible sums add up to 0.5.
    func instant(_ text: String, fields names: [String], tolerance: TypoTolerance) throws(Unsupported) -> Matches {
        let fieldNames = names.isEmpty ? index.schema.searchedByDefault : names
        var fields: [(entry: FieldEntry, words: [(term: String, prefix: Bool, budget: Int)])] = []
        for name in fieldNames {
            let entry = try textual(name)
            let tokens =
                entry.type == .text
                ? try ReferenceIndex.analyzer(entry).tokens(text)
                : text.isEmpty
                    ? [] : [Token(bytes: Array(text.utf8), position: 0, offsetFrom: 0, offsetTo: text.utf8.count)]
            let prefixLast = tokens.last?.offsetTo == text.utf8.count
            fields.append(
                (
                    entry,
                    tokens.enumerated().map { i, token in
                        (
                            token.text, prefixLast && i == tokens.count - 1,
                            tolerance.maxTypos(forLength: token.text.unicodeScalars.count)
                        )
                    }
                ))
        }
        guard let wordCount = fields.first?.words.count, wordCount > 0 else { return [:] }
        // Per word: the kept expansions of each field, (field, term, typos, docFreq).
        var perWord: [[(entry: FieldEntry, term: String, typos: Int, docFreq: Int)]] = []
        for w in 0..<wordCount {
            var kept: [(entry: FieldEntry, term: String, typos: Int, docFreq: Int)] = []
            for (entry, words) in fields where words.count == wordCount {
                let word = words[w]
                let wanted = Array(word.term.unicodeScalars)
                let found = dictionary(entry.name).compactMap { term, docFreq -> (String, Int, Int)? in
                    let d = ReferenceIndex.Evaluator.typos(
                        wanted, Array(term.unicodeScalars), prefix: word.prefix,
                        exactPrefix: tolerance.exactPrefixLength)
                    return d <= word.budget ? (term, d, docFreq) : nil
                }.sorted { a, b in
                    if a.1 != b.1 { return a.1 < b.1 }
                    return a.2 != b.2 ? a.2 > b.2 : TermBytes(a.0) < TermBytes(b.0)
                }.prefix(32)
                kept += found.map { (entry, $0.0, $0.1, $0.2) }
            }
            guard !kept.isEmpty else { return [:] }
            perWord.append(kept)
        }
        var bound = 0.0
        for kept in perWord {
            let blended = idf(kept.map(\.docFreq).max() ?? 0)
            var perTier: [Int: Double] = [:]
            for k in kept { perTier[k.typos, default: 0] += boost(k.entry.name) * blended * 2.2 }
            bound += perTier.values.max() ?? 0
        }
        let scale = bound > 0 ? 0.5 / bound : 0
        var out: Matches?
        for kept in perWord {
            let blended = idf(kept.map(\.docFreq).max() ?? 0)
            // Per document: the fewest typos it matches the word with, and the BM25 of its matches with as many.
            var best: [Int: (typos: Int, bm25: Double)] = [:]
            for k in kept {
                for (d, score) in termScores(k.entry, k.term, idf: blended) {
                    if let b = best[d], b.typos < k.typos { continue }
                    if let b = best[d], b.typos == k.typos {
                        best[d] = (k.typos, b.bm25 + score)
                    } else {
                        best[d] = (k.typos, score)
                    }
                }
            }
            let scores = best.mapValues { Double(3 - $0.typos) + scale * $0.bm25 }
            guard let sofar = out else {
                out = scores
                continue
            }
            out = sofar.reduce(into: [:]) { both, match in
                if let score = scores[match.key] { both[match.key] = match.value + score }
            }
        }
        return out ?? [:]
    }
}
