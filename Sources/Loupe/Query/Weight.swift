/// A query resolved against one searcher: field names are ordinals, terms are looked up once in every segment
/// (their `TermInfo`s kept, one per segment in search order), multi-term queries are expanded, boosts are folded
/// into the leaves, and BM25 statistics are global (summed over the searcher's segments). Builds one scorer tree
/// per segment (`Weight+Scorer.swift`).
package indirect enum Weight: Sendable {
    case all(score: Float)
    case empty
    case term(TermWeight)
    case phrase(PhraseWeight)
    case phrasePrefix(PhrasePrefixWeight)
    case boolean(BooleanWeight)
    /// The inner weight's matches, each scoring the constant.
    case constant(Weight, Float)
    /// A set of documents read into a bitset per segment, each scoring the constant.
    case docSet(DocSetWeight, score: Float)
    /// One word of an instant query: documents matching any tier, scoring the bonus of the first tier they match
    /// (tiers in order) plus that tier's score (`TieredScorer`).
    case tiered([Tier])

    /// One tier of a `tiered` weight: a word's expansions with as many typos.
    package struct Tier: Sendable {
        package var bonus: Float
        package var weight: Weight
    }

    /// One term of one field, with where it lives in each segment.
    package struct TermWeight: Sendable {
        package var field: Int
        package var hasFreqs: Bool
        package var bm25: BM25Weight
        /// The term's info in segment i, nil where the segment lacks the term.
        package var infos: [TermInfo?]
    }

    /// One term of a phrase: its position in the phrase and its info per segment.
    package struct PhraseTerm: Sendable {
        package var offset: UInt32
        package var infos: [TermInfo?]
    }

    /// Terms at relative positions, each pair of neighbours at most `slop` positions further apart than in the phrase.
    package struct PhraseWeight: Sendable {
        package var field: Int
        package var terms: [PhraseTerm]
        package var slop: UInt32
        package var bm25: BM25Weight
    }

    /// Head words forming a phrase, followed by one of a prefix's expansions (tantivy's phrase prefix).
    package struct PhrasePrefixWeight: Sendable {
        /// The head words as an exact phrase, with the BM25 of their idfs.
        package var head: PhraseWeight
        /// The expansion's position in the phrase (the head's length).
        package var suffixOffset: UInt32
        /// Per segment, the infos of the expansions the segment holds.
        package var suffixes: [[TermInfo]]
        /// The score of every match when the head is a single word (tantivy's rule); nil: the head phrase's BM25.
        package var constant: Float?
    }

    /// Clauses by occurrence. Without `must`, at least `max(1, minimumShouldMatch)` of `should` must match;
    /// with `must`, at least `minimumShouldMatch`.
    package struct BooleanWeight: Sendable {
        package var must: [Weight]
        package var should: [Weight]
        package var mustNot: [Weight]
        package var minimumShouldMatch: Int
    }

    /// The same weight with every score multiplied by `factor`: scores add up, so the factor moves into the leaves
    /// (BM25 weights, constants) and no scorer multiplies per document.
    package func scaled(by factor: Float) -> Weight {
        switch self {
        case .all(let score): return .all(score: score * factor)
        case .empty: return .empty
        case .term(var term):
            term.bm25 = term.bm25.boosted(by: factor)
            return .term(term)
        case .phrase(var phrase):
            phrase.bm25 = phrase.bm25.boosted(by: factor)
            return .phrase(phrase)
        case .phrasePrefix(var prefix):
            prefix.head.bm25 = prefix.head.bm25.boosted(by: factor)
            prefix.constant = prefix.constant.map { $0 * factor }
            return .phrasePrefix(prefix)
        case .boolean(var boolean):
            boolean.must = boolean.must.map { $0.scaled(by: factor) }
            boolean.should = boolean.should.map { $0.scaled(by: factor) }
            return .boolean(boolean)
        case .constant(let inner, let score): return .constant(inner, score * factor)
        case .docSet(let set, let score): return .docSet(set, score: score * factor)
        case .tiered(let tiers):
            return .tiered(tiers.map { Tier(bonus: $0.bonus * factor, weight: $0.weight.scaled(by: factor)) })
        }
    }

    /// Live matches in one segment when they are known without reading postings (a term's document frequency
    /// when nothing is deleted, every live document, a range or term set on a single-valued field), nil otherwise.
    /// - Throws: `IndexError` `.corruption` for a damaged term dictionary.
    package func shortcutCount(_ segment: SegmentReader, ordinal: Int) throws(IndexError) -> Int? {
        switch self {
        case .all: return segment.liveCount
        case .empty: return 0
        case .term(let term) where segment.deleted == nil: return Int(term.infos[ordinal]?.docFreq ?? 0)
        case .constant(let inner, _): return try inner.shortcutCount(segment, ordinal: ordinal)
        case .docSet(let set, _): return try set.shortcutCount(segment, ordinal: ordinal)
        default: return nil
        }
    }
}
