import LoupeAnalysis
import LoupeAutomata
import LoupeCodec

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Multi-term queries: prefix, regex and wildcard match every term their automaton (or prefix range) accepts,
/// as one constant-score document set; fuzzy, autocomplete and phrase-prefix keep the most useful expansions
/// and score them with BM25.
extension WeightBuilder {
    /// One expanded term, merged over the segments.
    struct Expansion {
        var term: [UInt8]
        /// The automaton's accept tag: the edit distance for fuzzy queries, 0 otherwise.
        var tag: UInt8
        var infos: [TermInfo?]
        var docFreq: UInt64

        /// More frequent first, then in term order.
        static func moreUseful(_ a: Expansion, _ b: Expansion) -> Bool {
            a.docFreq != b.docFreq ? a.docFreq > b.docFreq : a.term.lexicographicallyPrecedes(b.term)
        }
    }

    func prefixWeight(_ name: String, _ value: String) throws(IndexError) -> Weight {
        let (field, entry) = try resolveTextual(name, for: "a prefix query")
        let prefix = Array(value.utf8)
        var perSegment: [[TermInfo]] = []
        for segment in searcher.segments {
            var infos: [TermInfo] = []
            try segment.readingTerms { (terms) throws(FormatError) in
                unsafe try terms.field(field)?.forEachTerm(
                    from: prefix, includingLower: true, to: nil, includingUpper: false
                ) { key, info in
                    guard unsafe key.starts(with: prefix) else { return false }
                    infos.append(info)
                    return true
                }
            }
            perSegment.append(infos)
        }
        return .docSet(.terms(field: field, hasFreqs: entry.record != .basic, infos: perSegment), score: boost(field))
    }

    func regexWeight(_ name: String, _ pattern: String) throws(IndexError) -> Weight {
        let (field, entry) = try resolveTextual(name, for: "a regex query")
        let key = AutomatonCache.Key.regex(pattern)
        let nfa: ScalarNFA
        do {
            nfa = try AutomatonCache.shared.nfa(key) { () throws(RegexSyntaxError) in try Regex.compile(pattern) }
        } catch {
            throw IndexError(
                .invalidQuery, "invalid regex /\(pattern)/ at byte \(error.offset): \(error.message)",
                context: .init(field: name, byteOffset: error.offset))
        }
        return try automatonSet(field, entry, key, nfa, describing: "regex /\(pattern)/")
    }

    func wildcardWeight(_ name: String, _ pattern: String) throws(IndexError) -> Weight {
        let (field, entry) = try resolveTextual(name, for: "a wildcard query")
        let body = pattern.utf8.dropLast()
        if pattern.utf8.last == UInt8(ascii: "*"),
            !body.contains(where: { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "\\") })
        {
            return try prefixWeight(name, String(decoding: body, as: UTF8.self))
        }
        let key = AutomatonCache.Key.wildcard(pattern)
        let nfa = AutomatonCache.shared.nfa(key) { Wildcard.automaton(pattern) }
        return try automatonSet(field, entry, key, nfa, describing: "wildcard '\(pattern)'")
    }

    /// Every term the automaton accepts, as a constant-score document set.
    private func automatonSet(
        _ field: Int, _ entry: FieldEntry, _ key: AutomatonCache.Key, _ nfa: ScalarNFA, describing what: String
    ) throws(IndexError) -> Weight {
        let cache = AutomatonCache.shared
        let perSegment = try cache.withDFA(key, nfa: nfa, describing: what) { (dfa) throws(IndexError) in
            var perSegment: [[TermInfo]] = []
            var matches = TermMatches(keepingKeys: false)
            for segment in searcher.segments {
                matches.removeAll()
                try segment.readingTerms { (terms) throws(FormatError) in
                    try terms.field(field)?.matches(of: dfa, into: &matches)
                }
                perSegment.append(matches.infos)
            }
            return perSegment
        }
        return .docSet(.terms(field: field, hasFreqs: entry.record != .basic, infos: perSegment), score: boost(field))
    }

    func fuzzyWeight(
        _ name: String, _ value: String, distance: Int, transpositions: Bool, prefix: Bool, maxExpansions: Int
    ) throws(IndexError) -> Weight {
        try fuzzyWeight(
            fields: [name], value, distance: distance, transpositions: transpositions, prefix: prefix,
            maxExpansions: maxExpansions)
    }

    /// The same fuzzy word on several fields (`title:helo~1 body:helo~1`), scored as one: each field keeps its
    /// best `maxExpansions` terms, and the frequencies that weigh them are compared across all the fields, so a
    /// rare neighbour in one field does not outscore the common word the user meant in another.
    func fuzzyWeight(
        fields names: [String], _ value: String, distance: Int, transpositions: Bool, prefix: Bool, maxExpansions: Int
    ) throws(IndexError) -> Weight {
        guard (0...2).contains(distance) else {
            throw IndexError(
                .invalidQuery, "fuzzy distance must be 0, 1 or 2 (got \(distance))", context: .init(field: names.first))
        }
        guard maxExpansions >= 1 else {
            throw IndexError(
                .invalidQuery, "maxExpansions must be ≥ 1 (got \(maxExpansions))", context: .init(field: names.first))
        }
        var resolved: [(field: Int, entry: FieldEntry)] = []
        for name in names { resolved.append(try resolveTextual(name, for: "a fuzzy query")) }
        let key = AutomatonCache.Key.fuzzy(value, distance: distance, transpositions: transpositions, prefix: prefix)
        let nfa = AutomatonCache.shared.nfa(key) {
            Levenshtein.automaton(value, distance: distance, transpositions: transpositions, prefix: prefix)
        }
        let perField = try AutomatonCache.shared.withDFA(key, nfa: nfa, describing: "fuzzy term '\(value)'") {
            (dfa) throws(IndexError) in
            var perField: [(field: Int, entry: FieldEntry, expansions: [Expansion])] = []
            for (field, entry) in resolved {
                var expansions = try expand(field, dfa)
                expansions.sort { a, b in a.tag != b.tag ? a.tag < b.tag : Expansion.moreUseful(a, b) }
                expansions.removeSubrange(min(maxExpansions, expansions.count)...)
                perField.append((field, entry, expansions))
            }
            return perField
        }
        // All expansions share the idf of the most frequent one (Lucene's blended scoring), so a rarer spelling
        // does not win for being rare. Each is then weighed like a spelling correction: the exact spelling keeps
        // weight 1; a neighbour at distance d gets (1 − d / (n + 1)) times its frequency relative to the most
        // frequent expansion (on a log scale), since a typo is likelier to come from a common word than a rare one.
        let blended = perField.flatMap { $0.expansions.map(\.docFreq) }.max() ?? 0
        let length = Float(value.unicodeScalars.count)
        var terms: [Weight] = []
        for (field, entry, expansions) in perField {
            let tokens = totalTokens(field)
            for e in expansions {
                let factor = Self.fuzzyWeight(
                    distance: Int(e.tag), length: length, docFreq: e.docFreq, maxDocFreq: blended)
                let bm25 = BM25Weight(
                    docFreqs: [blended], totalDocs: totalDocs, totalTokens: tokens, boost: boost(field) * factor)
                terms.append(
                    .term(Weight.TermWeight(field: field, hasFreqs: entry.record != .basic, bm25: bm25, infos: e.infos))
                )
            }
        }
        switch terms.count {
        case 0: return .empty
        case 1: return terms[0]
        default: return .boolean(Weight.BooleanWeight(must: [], should: terms, mustNot: [], minimumShouldMatch: 1))
        }
    }

    func autocompleteWeight(_ name: String, _ text: String, typoTolerance: Int) throws(IndexError) -> Weight {
        let (_, entry) = try resolveTextual(name, for: "an autocomplete query")
        guard typoTolerance >= 0 else {
            throw IndexError(
                .invalidQuery, "typoTolerance must be ≥ 0 (got \(typoTolerance))", context: .init(field: name))
        }
        let words =
            entry.type == .text
            ? try analyzer(entry).tokens(text).map { String(decoding: $0.bytes, as: UTF8.self) } : [text]
        var clauses: [Weight] = []
        for (i, word) in words.enumerated() {
            let distance = Self.autocompleteDistance(word, typoTolerance: typoTolerance)
            clauses.append(
                try fuzzyWeight(
                    name, word, distance: distance, transpositions: true, prefix: i == words.count - 1,
                    maxExpansions: 50))
        }
        if clauses.isEmpty { return .empty }
        return clauses.count == 1
            ? clauses[0] : .boolean(Weight.BooleanWeight(must: clauses, should: [], mustNot: [], minimumShouldMatch: 0))
    }

    /// How much a fuzzy expansion at `distance` from a query word of `length` characters counts.
    static func fuzzyWeight(distance: Int, length: Float, docFreq: UInt64, maxDocFreq: UInt64) -> Float {
        guard distance > 0 else { return 1 }
        let frequency = logf(1 + Float(docFreq)) / logf(1 + Float(max(maxDocFreq, 1)))
        return (1 - Float(distance) / (length + 1)) * frequency
    }

    /// The edits autocomplete allows in a word: none below 3 characters, at most 1 below 6, at most 2.
    static func autocompleteDistance(_ word: String, typoTolerance: Int) -> Int {
        let length = word.unicodeScalars.count
        return min(typoTolerance, length < 3 ? 0 : length < 6 ? 1 : 2)
    }

    /// Scored as tantivy's phrase prefix: a lone prefix is a constant-score set of its expansions; otherwise the
    /// head words must form their phrase with an expansion right after, and the score is the head phrase's BM25 —
    /// or a constant when the head is one word. The expansions are the prefix's `maxExpansions` most frequent terms.
    func phrasePrefixWeight(_ name: String, _ words: [String], maxExpansions: Int) throws(IndexError) -> Weight {
        let (field, entry) = try resolveTextual(name, for: "a phrase prefix query")
        guard maxExpansions >= 1 else {
            throw IndexError(
                .invalidQuery, "maxExpansions must be ≥ 1 (got \(maxExpansions))", context: .init(field: name))
        }
        guard let last = words.last else { return .empty }
        if words.count > 1 { try requirePositions(entry, for: "a phrase prefix query") }
        var expansions = try prefixExpansions(field, Array(last.utf8))
        expansions.sort(by: Expansion.moreUseful)
        expansions.removeSubrange(min(maxExpansions, expansions.count)...)
        guard !expansions.isEmpty else { return .empty }
        let perSegment = searcher.segments.indices.map { s in expansions.compactMap { $0.infos[s] } }
        if words.count == 1 {
            return .docSet(
                .terms(field: field, hasFreqs: entry.record != .basic, infos: perSegment), score: boost(field))
        }
        var infos: [[TermInfo?]] = []
        for word in words.dropLast() { infos.append(try lookup(field, Array(word.utf8))) }
        let bm25 = BM25Weight(
            docFreqs: infos.map(docFreq), totalDocs: totalDocs, totalTokens: totalTokens(field), boost: boost(field))
        let head = Weight.PhraseWeight(
            field: field, terms: infos.enumerated().map { Weight.PhraseTerm(offset: UInt32($0), infos: $1) }, slop: 0,
            bm25: bm25)
        return .phrasePrefix(
            Weight.PhrasePrefixWeight(
                head: head, suffixOffset: UInt32(infos.count), suffixes: perSegment,
                constant: infos.count == 1 ? boost(field) : nil))
    }

    /// Terms starting with `prefix`, merged over the segments.
    func prefixExpansions(_ field: Int, _ prefix: [UInt8]) throws(IndexError) -> [Expansion] {
        var merged = Merger(segmentCount: searcher.segments.count)
        for (s, matches) in try prefixWalk(field, prefix).enumerated() {
            for i in 0..<matches.count { merged.add(matches.key(i), matches.infos[i], tag: 0, segment: s) }
        }
        return merged.expansions
    }

    /// Terms `dfa` accepts, merged over the segments.
    func expand(_ field: Int, _ dfa: ByteDFA) throws(IndexError) -> [Expansion] {
        var merged = Merger(segmentCount: searcher.segments.count)
        var matches = TermMatches(keepingKeys: true)
        for (s, segment) in searcher.segments.enumerated() {
            matches.removeAll()
            try segment.readingTerms { (terms) throws(FormatError) in
                try terms.field(field)?.matches(of: dfa, into: &matches)
            }
            for i in 0..<matches.count {
                merged.add(matches.key(i), matches.infos[i], tag: matches.tags[i], segment: s)
            }
        }
        return merged.expansions
    }

    /// A text or string field (the only ones whose terms are words).
    func resolveTextual(_ name: String, for what: String) throws(IndexError) -> (Int, FieldEntry) {
        let (field, entry) = try resolve(name)
        guard entry.type == .text || entry.type == .string else {
            throw IndexError(
                .invalidQuery,
                "field '\(name)' is a \(entry.type.rawValue) field; \(what) needs a text or string field",
                context: .init(field: name))
        }
        return (field, entry)
    }
}

/// Collects expanded terms from several segments, one entry per distinct term.
private struct Merger {
    let segmentCount: Int
    var index: [[UInt8]: Int] = [:]
    var expansions: [WeightBuilder.Expansion] = []

    mutating func add(_ key: some Collection<UInt8>, _ info: TermInfo, tag: UInt8, segment: Int) {
        let term = Array(key)
        if let i = index[term] {
            expansions[i].infos[segment] = info
            expansions[i].docFreq += UInt64(info.docFreq)
        } else {
            var infos = [TermInfo?](repeating: nil, count: segmentCount)
            infos[segment] = info
            index[term] = expansions.count
            expansions.append(.init(term: term, tag: tag, infos: infos, docFreq: UInt64(info.docFreq)))
        }
    }
}
