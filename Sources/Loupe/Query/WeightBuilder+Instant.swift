/// Instant search (`Query.instant`): each word becomes a `Weight.tiered` whose tiers hold the word's expansions by
/// number of typos, over every searched field; the words are ANDed. Scores are laid out so that typos rank first:
/// a word matched with t typos scores `3 − t` plus its BM25 scaled by one factor for the whole query, small enough
/// that the BM25 shares of all words add up to less than 1 (see Docs/QUERY-SYNTAX.md).
extension WeightBuilder {
    /// Expansions kept per word and field: the fewest typos first, then the most frequent.
    static let instantExpansions = 32

    /// How much of a score the tier of a word with `typos` typos adds.
    @inline(__always) static func instantBonus(typos: Int) -> Float { Float(3 - typos) }

    func instantWeight(_ text: String, fields names: [String], tolerance: TypoTolerance) throws(IndexError) -> Weight {
        try tolerance.check()
        let fieldNames = names.isEmpty ? searcher.schema.searchedByDefault : names
        var fields: [(field: Int, entry: FieldEntry, words: InstantWords)] = []
        for name in fieldNames {
            let (field, entry) = try resolveTextual(name, for: "an instant query")
            let analyzer = entry.type == .text ? try analyzer(entry) : nil
            fields.append((field, entry, InstantWords(text, analyzer: analyzer, tolerance: tolerance)))
        }
        // The word count comes from the first field; a field whose analyzer splits the text otherwise (a string
        // field, one term for the whole text) takes part only where it agrees.
        guard let wordCount = fields.first?.words.words.count, wordCount > 0 else { return .empty }
        var words: [[(tier: Int, term: Weight.TermWeight)]] = []
        for w in 0..<wordCount {
            var expansions: [(field: Int, entry: FieldEntry, expansion: Expansion)] = []
            for (field, entry, analyzed) in fields where analyzed.words.count == wordCount {
                let word = analyzed.words[w]
                let found = try topExpansions(field, word, limit: Self.instantExpansions, rank: .fewestTyposFirst)
                expansions += found.map { (field, entry, $0) }
            }
            // One idf for all the word's expansions, the most frequent one's (Lucene's blended scoring), so a rare
            // completion or neighbour does not win for being rare.
            let blended = expansions.map(\.expansion.docFreq).max() ?? 0
            var perField: [Int: BM25Weight] = [:]
            var terms: [(tier: Int, term: Weight.TermWeight)] = []
            for (field, entry, e) in expansions {
                let bm25 =
                    perField[field]
                    ?? BM25Weight(
                        docFreqs: [blended], totalDocs: totalDocs, totalTokens: totalTokens(field), boost: boost(field))
                perField[field] = bm25
                terms.append(
                    (
                        Int(e.tag),
                        Weight.TermWeight(field: field, hasFreqs: entry.record != .basic, bm25: bm25, infos: e.infos)
                    ))
            }
            guard !terms.isEmpty else { return .empty }
            words.append(terms)
        }
        // The BM25 of a word is at most the sum of its tier's term weights; scale them all so the words' sums stay
        // below 1 together.
        var bound: Float = 0
        for terms in words {
            var perTier: [Int: Float] = [:]
            for (tier, term) in terms { perTier[tier, default: 0] += term.bm25.weight }
            bound += perTier.values.max() ?? 0
        }
        let scale = bound > 0 ? 0.5 / bound : 0
        var clauses: [Weight] = []
        for terms in words {
            var byTier: [Int: [Weight]] = [:]
            for (tier, term) in terms {
                var scaled = term
                scaled.bm25 = term.bm25.boosted(by: scale)
                byTier[tier, default: []].append(.term(scaled))
            }
            let tiers = byTier.keys.sorted().map { tier in
                Weight.Tier(
                    bonus: Self.instantBonus(typos: tier),
                    weight: .boolean(
                        Weight.BooleanWeight(must: [], should: byTier[tier] ?? [], mustNot: [], minimumShouldMatch: 1)))
            }
            clauses.append(.tiered(tiers))
        }
        return clauses.count == 1
            ? clauses[0] : .boolean(Weight.BooleanWeight(must: clauses, should: [], mustNot: [], minimumShouldMatch: 0))
    }
}
