import LoupeAutomata
import LoupeCodec

/// The few best expansions of an instant-search word or a suggestion, without building every expansion: each
/// segment's matches are gathered flat, in byte order (`TermMatches`), then merged across segments a term at a
/// time, summing document frequencies, and only the `limit` best so far are kept. No term is hashed or copied
/// into an array of its own unless it ranks. A prefix of one or two bytes (with no typo) is completed from each
/// segment's `CompletionTable` instead, so the 32 kept are the best of the segments' 32 most frequent each.
extension WeightBuilder {
    /// How expansions compete for the places: higher ranks first, ties to the smaller term.
    enum ExpansionRank {
        /// Fewest typos first, then the most documents (instant search's tiers).
        case fewestTyposFirst
        /// Documents, each typo multiplying them by the factor (suggestions).
        case typosMultiplyBy(Double)

        /// The rank of a term with `tag` typos held by `frequency` documents (or as much popularity).
        @inline(__always) func value(tag: UInt8, frequency: Double) -> Double {
            switch self {
            case .fewestTyposFirst:
                return frequency - Double(tag) * 0x1p40
            case .typosMultiplyBy(let factor):
                var rank = frequency
                for _ in 0..<tag { rank *= factor }
                return rank
            }
        }
    }

    /// The `limit` best terms of `field` that `word` matches, best first, each tagged with its typos: the word
    /// itself (or the terms it starts), and, within its budget, the terms that close.
    func topExpansions(
        _ field: Int, _ word: InstantWords.Word, limit: Int, rank: ExpansionRank
    ) throws(IndexError) -> [Expansion] {
        let term = Array(word.term.utf8)
        if word.maxTypos == 0 && !word.isPrefix {
            let infos = try lookup(field, term)
            let docFreq = docFreq(infos)
            return docFreq == 0 || limit == 0 ? [] : [Expansion(term: term, tag: 0, infos: infos, docFreq: docFreq)]
        }
        if word.maxTypos == 0 && term.count <= CompletionTable.longestPrefix {
            return try shortPrefixExpansions(field, term, limit: limit)
        }
        let cacheKey = KeystrokeCache.Key(
            field: field, term: term, maxTypos: word.maxTypos, isPrefix: word.isPrefix, exactPrefix: word.exactPrefix)
        let kept = searcher.keystrokes.lookup(cacheKey)
        var perSegment: [TermMatches]
        if let kept, kept.exact {
            perSegment = kept.matches
        } else if let kept, word.maxTypos == 0 {
            perSegment = Self.filter(kept.matches) { key in key.starts(with: term) ? 0 : nil }
        } else if word.maxTypos == 0 {
            perSegment = try prefixWalk(field, term)
        } else {
            let key = AutomatonCache.Key.instant(
                word.term, distance: word.maxTypos, prefix: word.isPrefix, exactPrefix: word.exactPrefix)
            let nfa = AutomatonCache.shared.nfa(key) {
                Levenshtein.automaton(
                    word.term, distance: word.maxTypos, transpositions: true, prefix: word.isPrefix,
                    exactPrefix: word.exactPrefix)
            }
            let searcher = self.searcher
            perSegment = try AutomatonCache.shared.withDFA(key, nfa: nfa, describing: "instant word '\(word.term)'") {
                (dfa) throws(IndexError) in
                if let kept { return Self.filter(kept.matches) { key in dfa.match(key) } }
                var all: [TermMatches] = []
                for segment in searcher.segments {
                    var matches = TermMatches(keepingKeys: true)
                    try segment.readingTerms { (terms) throws(FormatError) in
                        try terms.field(field)?.matches(of: dfa, into: &matches)
                    }
                    all.append(matches)
                }
                return all
            }
        }
        if !(kept?.exact ?? false) { searcher.keystrokes.store(cacheKey, perSegment) }
        return Self.best(of: perSegment, limit: limit, rank: rank)
    }

    /// Every term of `field` starting with `prefix`, per segment.
    func prefixWalk(_ field: Int, _ prefix: [UInt8]) throws(IndexError) -> [TermMatches] {
        var perSegment: [TermMatches] = []
        for segment in searcher.segments {
            var matches = TermMatches(keepingKeys: true)
            try segment.readingTerms { (terms) throws(FormatError) in
                unsafe try terms.field(field)?.forEachTerm(
                    from: prefix, includingLower: true, to: nil, includingUpper: false
                ) { key, info in
                    guard unsafe key.starts(with: prefix) else { return false }
                    unsafe matches.append(key, info, 0)
                    return true
                }
            }
            perSegment.append(matches)
        }
        return perSegment
    }

    /// The matches `tag` accepts (its result, the typos), per segment, in the same order.
    private static func filter(_ perSegment: [TermMatches], _ tag: (ArraySlice<UInt8>) -> UInt8?) -> [TermMatches] {
        perSegment.map { matches in
            var kept = TermMatches(keepingKeys: true)
            for i in 0..<matches.count {
                let key = matches.key(i)
                guard let t = tag(key) else { continue }
                unsafe key.withUnsafeBytes { unsafe kept.append($0, matches.infos[i], t) }
            }
            return kept
        }
    }

    /// The `limit` most frequent completions of a prefix of one or two bytes (none has a typo, so every rank
    /// orders them by documents): the searcher's merge of its segments' completion tables, kept after the first
    /// time (`ShortPrefixCompletions`).
    private func shortPrefixExpansions(
        _ field: Int, _ prefix: [UInt8], limit: Int
    ) throws(IndexError) -> [Expansion] {
        guard limit <= CompletionTable.perPrefix else { return try mergedCompletions(field, prefix, limit: limit) }
        let key = ShortPrefixCompletions.Key(field: field, prefix: prefix)
        if let kept = searcher.shortPrefixes.lookup(key) { return Array(kept.prefix(limit)) }
        let merged = try mergedCompletions(field, prefix, limit: CompletionTable.perPrefix)
        searcher.shortPrefixes.store(key, merged)
        return Array(merged.prefix(limit))
    }

    /// The completions of a prefix of one or two bytes, from the segments' completion tables: the best of their
    /// most frequent terms, each looked up in the segments whose table does not list it when it could still rank.
    private func mergedCompletions(_ field: Int, _ prefix: [UInt8], limit: Int) throws(IndexError) -> [Expansion] {
        var perSegment: [TermMatches] = []
        for segment in searcher.segments {
            perSegment.append(
                try segment.readingTerms { (terms) throws(FormatError) -> TermMatches in
                    guard let dictionary = terms.field(field) else { return TermMatches(keepingKeys: true) }
                    return try segment.completions.table(field, dictionary).completions(of: prefix)
                        ?? TermMatches(keepingKeys: true)
                })
        }
        var candidates = Self.best(
            of: perSegment, limit: perSegment.count * CompletionTable.perPrefix, rank: .fewestTyposFirst)
        // A term a segment's table leaves out is held there by at most as many documents as the table's least
        // frequent term, and by none when the table is not full (it then lists every term with the prefix). A
        // candidate whose documents cannot reach the `limit`-th most known so far is out of the result whatever
        // its lookups find (the threshold algorithm): only the others are looked up.
        var unlisted = [UInt64](repeating: 0, count: perSegment.count)
        for (s, table) in perSegment.enumerated() where table.count >= CompletionTable.perPrefix {
            unlisted[s] = UInt64(table.infos.lazy.map(\.docFreq).min() ?? 0)
        }
        if limit > 0, candidates.count > limit {
            let known = candidates.map(\.docFreq).sorted(by: >)[limit - 1]
            candidates.removeAll { candidate in
                var most = candidate.docFreq
                for s in unlisted.indices where candidate.infos[s] == nil { most += unlisted[s] }
                return most < known
            }
        }
        for i in candidates.indices {
            for (s, segment) in searcher.segments.enumerated() where candidates[i].infos[s] == nil && unlisted[s] > 0 {
                let term = candidates[i].term
                let info = try segment.readingTerms { (terms) throws(FormatError) in try terms.field(field)?.get(term) }
                if let info {
                    candidates[i].infos[s] = info
                    candidates[i].docFreq += UInt64(info.docFreq)
                }
            }
        }
        candidates.sort(by: Expansion.moreUseful)
        return Array(candidates.prefix(limit))
    }

    /// Ranked terms, by rank then byte order (their merge index).
    private enum ByRank: HeapOrder {
        static func worse(_ a: (rank: Double, term: Int), _ b: (rank: Double, term: Int)) -> Bool {
            a.rank != b.rank ? a.rank < b.rank : a.term > b.term
        }
    }

    /// A k-way merge of the segments' matches (each in byte order) into the `limit` best distinct terms. Terms are
    /// ranked as they come; the segments holding each are noted in flat arrays, and only the terms kept in the end
    /// are copied out with their infos.
    private static func best(of perSegment: [TermMatches], limit: Int, rank: ExpansionRank) -> [Expansion] {
        guard limit > 0 else { return [] }
        // Per merged term, in byte order: where its (segment, index) holders start in `holders`, its typos and
        // documents.
        var holders: [(segment: Int, index: Int)] = []
        var firstHolder: [Int] = []
        var tags: [UInt8] = []
        var docFreqs: [UInt64] = []
        // The best so far, the worst at the root: a term that only ties it comes later in byte order and loses.
        var kept = BoundedHeap<ByRank>(k: limit)
        var next = [Int](repeating: 0, count: perSegment.count)
        var tied: [Int] = []
        while true {
            tied.removeAll(keepingCapacity: true)
            for s in perSegment.indices where next[s] < perSegment[s].count {
                guard let leader = tied.first else {
                    tied.append(s)
                    continue
                }
                let order = perSegment[s].compareKey(next[s], with: perSegment[leader], next[leader])
                if order < 0 {
                    tied.removeAll(keepingCapacity: true)
                    tied.append(s)
                } else if order == 0 {
                    tied.append(s)
                }
            }
            guard !tied.isEmpty else { break }
            var docFreq: UInt64 = 0
            var tag = UInt8.max
            let term = firstHolder.count
            firstHolder.append(holders.count)
            for s in tied {
                docFreq += UInt64(perSegment[s].infos[next[s]].docFreq)
                tag = min(tag, perSegment[s].tags[next[s]])
                holders.append((s, next[s]))
                next[s] += 1
            }
            tags.append(tag)
            docFreqs.append(docFreq)
            let value = rank.value(tag: tag, frequency: Double(docFreq))
            kept.offer((value, term))
        }
        firstHolder.append(holders.count)
        return kept.sorted().map { (_, t) in
            var infos = [TermInfo?](repeating: nil, count: perSegment.count)
            for (s, i) in holders[firstHolder[t]..<firstHolder[t + 1]] { infos[s] = perSegment[s].infos[i] }
            let leader = holders[firstHolder[t]]
            return Expansion(
                term: Array(perSegment[leader.segment].key(leader.index)), tag: tags[t], infos: infos,
                docFreq: docFreqs[t])
        }
    }
}
