import LoupeAnalysis

/// Completions of the text being typed (`Searcher.suggest`; Docs/INSTANT-SEARCH.md has the rules).
///
/// The last word is expanded as instant search expands it: its completions, and — when it completes to fewer
/// than the suggestions asked for — within its typo budget the terms whose start is that close. The `candidates`
/// most frequent (each typo dividing the frequency by 16, `rank`) are then counted for real: live documents only,
/// and with earlier words, only documents that also match them. Completions that still match with the earlier
/// words come first, then they rank by that count (or summed popularity) with the same typo penalty. History
/// entries starting with the text come before all of them.
struct Suggester {
    /// Completions counted exactly per request; the rest of the expansion only competes on document frequency.
    static let candidates = 32
    /// How completions rank: their frequency, each typo multiplying it by 1/16.
    static let rank = WeightBuilder.ExpansionRank.typosMultiplyBy(1.0 / 16)

    private let searcher: Searcher
    private let builder: WeightBuilder
    private let fieldName: String
    private let field: Int
    private let hasFreqs: Bool
    private let analyzer: TextAnalyzer?
    private let tolerance: TypoTolerance
    private let popularity: Popularity?

    /// - Parameter name: a text or string field; nil: the first field searched by default.
    init(
        searcher: Searcher, field name: String?, tolerance: TypoTolerance, popularity: String?
    ) throws(IndexError) {
        guard let name = name ?? searcher.schema.searchedByDefault.first else {
            throw IndexError(.invalidArgument, "suggest: the schema has no indexed text field to complete")
        }
        try tolerance.check()
        builder = try WeightBuilder(searcher: searcher)
        let (field, entry) = try builder.resolveTextual(name, for: "suggestions")
        guard entry.indexed else {
            throw IndexError(
                .invalidArgument, "suggest: field '\(name)' is not indexed", context: .init(field: name))
        }
        self.searcher = searcher
        fieldName = name
        self.field = field
        hasFreqs = entry.record != .basic
        analyzer = entry.type == .text ? try builder.analyzer(entry) : nil
        self.tolerance = tolerance
        self.popularity = try popularity.map { (name) throws(IndexError) in
            try Popularity(schema: searcher.schema, field: name)
        }
    }

    /// At most `limit` suggestions: history entries first, then completions from the index, no text twice
    /// (ignoring case).
    func suggestions(_ text: String, limit: Int, history: SearchHistory?) throws(IndexError) -> [Suggestion] {
        guard limit > 0 else { return [] }
        var out = try history.map { (history) throws(IndexError) in try fromHistory(text, limit: limit, history) } ?? []
        var seen = Set(out.map { $0.text.lowercased() })
        for suggestion in try fromIndex(text, limit: limit) where out.count < limit {
            if seen.insert(suggestion.text.lowercased()).inserted { out.append(suggestion) }
        }
        return out
    }

    // MARK: - History

    /// The history's entries that start with `text` (ignoring case and leading spaces), most used first, then most
    /// recent; every entry when `text` is empty.
    private func fromHistory(_ text: String, limit: Int, _ history: SearchHistory) throws(IndexError) -> [Suggestion] {
        let typed = String(text.drop { $0 == " " }).lowercased()
        var entries = history.recent(limit: history.capacity).enumerated().filter { _, entry in
            entry.query.lowercased().hasPrefix(typed)
        }
        entries.sort { a, b in
            a.element.count != b.element.count ? a.element.count > b.element.count : a.offset < b.offset
        }
        var out: [Suggestion] = []
        for (_, entry) in entries.prefix(limit) {
            let query = entry.query
            let end = query.index(query.startIndex, offsetBy: min(typed.count, query.count))
            out.append(
                Suggestion(
                    text: query, count: try documentsMatching(query), source: .history,
                    matchedRange: query.startIndex..<end, typos: 0))
        }
        return out
    }

    /// Documents whose field holds every word of `query` as typed.
    private func documentsMatching(_ query: String) throws(IndexError) -> Int {
        var counter = CountCollector()
        try searcher.collect(
            builder.instantWeight(query + " ", fields: [fieldName], tolerance: .disabled), into: &counter)
        return counter.count
    }

    // MARK: - Index

    /// A completion being ranked.
    private struct Candidate {
        var expansion: WeightBuilder.Expansion
        /// Live documents holding it (and the earlier words).
        var count: Int
        /// `count`, or the documents' summed popularity.
        var frequency: Double

        /// Where the completion ranks: among those matching, by its frequency; among the others (earlier words
        /// that match nothing with it), by its document frequency; less for each typo.
        var rank: Double {
            Suggester.rank.value(tag: expansion.tag, frequency: count > 0 ? frequency : Double(expansion.docFreq))
        }
    }

    private func fromIndex(_ text: String, limit: Int) throws(IndexError) -> [Suggestion] {
        let words = InstantWords(text, analyzer: analyzer, tolerance: tolerance).words
        guard let last = words.last else { return [] }
        // The word as typed first; typos only when it completes to fewer than `limit` terms.
        var asTyped = last
        asTyped.maxTypos = 0
        var found = try builder.topExpansions(field, asTyped, limit: Self.candidates, rank: Self.rank)
        if found.count < limit && last.maxTypos > 0 {
            found = try builder.topExpansions(field, last, limit: Self.candidates, rank: Self.rank)
        }
        let kept = String(decoding: text.utf8.prefix(last.range.lowerBound), as: UTF8.self)
        let head = words.count > 1 ? try headMatches(kept) : nil
        var candidates: [Candidate] = []
        for expansion in found {
            let (count, popular) = try tally(expansion, within: head)
            guard count > 0 || head != nil else { continue }
            candidates.append(
                Candidate(expansion: expansion, count: count, frequency: popularity == nil ? Double(count) : popular))
        }
        candidates.sort { a, b in
            if (a.count > 0) != (b.count > 0) { return a.count > 0 }
            return a.rank != b.rank ? a.rank > b.rank : a.expansion.term.lexicographicallyPrecedes(b.expansion.term)
        }
        let typed = Array(last.term.unicodeScalars)
        return candidates.prefix(limit).map { candidate in
            let completion = String(decoding: candidate.expansion.term, as: UTF8.self)
            let full = kept + completion
            let matched = Self.matchedPrefix(typed, of: completion)
            let end = full.utf8.index(full.utf8.startIndex, offsetBy: kept.utf8.count + matched)
            return Suggestion(
                text: full, count: candidate.count, source: .index, matchedRange: full.startIndex..<end,
                typos: Int(candidate.expansion.tag))
        }
    }

    /// The live documents of each segment matching the words before the last one.
    private struct HeadMatches {
        var documents: [[DocID]]
        var bits: [DocBitSet]
    }

    private func headMatches(_ headText: String) throws(IndexError) -> HeadMatches {
        var collector = DocSetCollector()
        try searcher.collect(
            builder.instantWeight(headText, fields: [fieldName], tolerance: tolerance), into: &collector)
        var bits: [DocBitSet] = []
        for (s, documents) in collector.documents.enumerated() {
            var set = DocBitSet(maxDoc: searcher.segments[s].maxDoc)
            for doc in documents { set.insert(doc) }
            bits.append(set)
        }
        return HeadMatches(documents: collector.documents, bits: bits)
    }

    /// The live documents holding `expansion` (and matching `head`), and their summed popularity. A term's
    /// frequency is its count when no segment has deletes and nothing else is asked; otherwise its postings are
    /// walked, or — when the earlier words match far fewer documents — probed at each of theirs.
    private func tally(
        _ expansion: WeightBuilder.Expansion, within head: HeadMatches?
    ) throws(IndexError) -> (count: Int, popularity: Double) {
        var count = 0
        var popular = 0.0
        for (s, segment) in searcher.segments.enumerated() {
            guard let info = expansion.infos[s] else { continue }
            if head == nil && segment.deleted == nil && popularity == nil {
                count += Int(info.docFreq)
                continue
            }
            let column = popularity.flatMap { segment.fast.column($0.field) }
            func take(_ doc: DocID) {
                count += 1
                if let column, let popularity, let value = column.first(doc) { popular += popularity.value(value) }
            }
            let postings = unsafe PostingsCursor(
                file: segment.postings.bytes, info: info, hasFreqs: hasFreqs, maxDoc: segment.maxDoc)
            if let head, head.documents[s].count * 8 < Int(info.docFreq) {
                for doc in head.documents[s] where postings.seek(doc) == doc { take(doc) }
            } else {
                while postings.doc != terminatedDoc {
                    for i in postings.cursor..<postings.blockCount {
                        let doc = postings.doc(at: i)
                        if let head {
                            if head.bits[s].contains(doc) { take(doc) }
                        } else if !(segment.deleted?.contains(doc) ?? false) {
                            take(doc)
                        }
                    }
                    postings.consume(postings.blockCount - postings.cursor)
                }
            }
            if let damage = postings.damage {
                throw IndexError(format: damage.error, file: damage.component.fileName(segment.id), segment: segment.id)
            }
        }
        return (count, popular)
    }

    /// How many characters of `completion` the typed word stands for: the prefix closest to it by edit distance
    /// (transpositions cost one), the longest of equally close ones.
    static func matchedPrefix(_ typed: [Unicode.Scalar], of completion: String) -> Int {
        let target = Array(completion.unicodeScalars)
        guard !typed.isEmpty else { return 0 }
        // rows[i][j]: optimal-string-alignment distance between typed[..<i] and target[..<j].
        var rows = [[Int]](repeating: [Int](repeating: 0, count: target.count + 1), count: typed.count + 1)
        for i in 0...typed.count { rows[i][0] = i }
        for j in 0...target.count { rows[0][j] = j }
        for i in stride(from: 1, through: typed.count, by: 1) {
            for j in stride(from: 1, through: target.count, by: 1) {
                let cost = typed[i - 1] == target[j - 1] ? 0 : 1
                var d = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && typed[i - 1] == target[j - 2] && typed[i - 2] == target[j - 1] {
                    d = min(d, rows[i - 2][j - 2] + 1)
                }
                rows[i][j] = d
            }
        }
        var best = 0
        for j in 0...target.count where rows[typed.count][j] <= rows[typed.count][best] { best = j }
        return target.prefix(best).reduce(0) { $0 + UTF8.width($1) }
    }
}

/// A fast numeric field whose values rank suggestions (summed over a completion's documents) and break ties
/// between equally scored instant-search hits.
struct Popularity {
    let field: Int
    let type: FieldType

    init(schema: Schema, field name: String) throws(IndexError) {
        guard let field = schema.fieldIndex[name] else {
            throw IndexError(
                .invalidArgument, "unknown popularity field '\(name)'\(schema.suggestion(for: name))",
                context: .init(field: name))
        }
        let entry = schema.fields[field]
        guard entry.fast, entry.type == .u64 || entry.type == .i64 || entry.type == .f64 else {
            throw IndexError(
                .invalidArgument,
                "popularity field '\(name)' must be a fast u64, i64 or f64 field (it is a\(entry.fast ? "" : " non-fast") \(entry.type.rawValue) field)",
                context: .init(field: name))
        }
        self.field = field
        type = entry.type
    }

    /// A mapped column value as a number.
    func value(_ mapped: UInt64) -> Double {
        switch type {
        case .i64: Double(NumericMapping.toI64(mapped))
        case .f64: NumericMapping.toF64(mapped)
        default: Double(mapped)
        }
    }
}
