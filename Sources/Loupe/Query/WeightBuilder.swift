import LoupeAnalysis
import LoupeCodec

/// Resolves a `Query` against a searcher's schema and segments: field names to ordinals, values to term
/// bytes, multi-term queries to their expansions, and global BM25 statistics (document frequencies and token
/// totals summed over segments). Field boosts multiply the scores of every leaf on their field.
package struct WeightBuilder {
    let searcher: Searcher
    let totalDocs: UInt64
    private let fieldBoosts: [Int: Float]
    /// What the query built so far has used of the per-query limits.
    private let budget = QueryBudget()

    package init(searcher: Searcher, boosts: [String: Float] = [:]) throws(IndexError) {
        self.searcher = searcher
        totalDocs = UInt64(searcher.segments.reduce(0) { $0 + $1.maxDoc })
        var fieldBoosts: [Int: Float] = [:]
        for (name, factor) in boosts {
            guard let i = searcher.schema.fieldIndex[name] else {
                throw IndexError(.invalidArgument, "boost for unknown field '\(name)'", context: .init(field: name))
            }
            guard factor.isFinite, factor >= 0 else {
                throw IndexError(
                    .invalidArgument, "boost for field '\(name)' must be a finite number ≥ 0 (got \(factor))",
                    context: .init(field: name))
            }
            fieldBoosts[i] = factor
        }
        self.fieldBoosts = fieldBoosts
    }

    package func build(_ query: Query) throws(IndexError) -> Weight {
        try budget.charge(query)
        switch query {
        case .matchAll:
            return .all(score: 1)
        case .term(let name, let value):
            let (field, entry) = try resolve(name)
            return try termWeight(field, entry, try termBytes(value, entry))
        case .phrase(let name, let words, let slop):
            guard slop >= 0 else {
                throw IndexError(.invalidQuery, "phrase slop must be ≥ 0 (got \(slop))", context: .init(field: name))
            }
            return try phraseWeight(name, words.map { Array($0.utf8) }, slop: UInt32(clamping: slop))
        case .phrasePrefix(let name, let words, let maxExpansions):
            return try phrasePrefixWeight(name, words, maxExpansions: maxExpansions)
        case .prefix(let name, let value):
            return try prefixWeight(name, value)
        case .fuzzy(let name, let value, let distance, let transpositions, let prefix, let maxExpansions):
            return try fuzzyWeight(
                name, value, distance: distance, transpositions: transpositions, prefix: prefix,
                maxExpansions: maxExpansions)
        case .autocomplete(let name, let text, let typoTolerance):
            return try autocompleteWeight(name, text, typoTolerance: typoTolerance)
        case .instant(let text, let fields, let tolerance):
            return try instantWeight(text, fields: fields, tolerance: tolerance)
        case .regex(let name, let pattern):
            return try regexWeight(name, pattern)
        case .wildcard(let name, let pattern):
            return try wildcardWeight(name, pattern)
        case .range(let name, let lower, let upper):
            return try rangeWeight(name, lower, upper)
        case .exists(let name):
            return try existsWeight(name)
        case .moreLikeThis(let name, let text, let options):
            return try moreLikeThisWeight(name, text, options)
        case .boolean(let clauses, let minimumShouldMatch):
            return try booleanWeight(clauses, minimumShouldMatch: minimumShouldMatch)
        case .boost(let inner, let factor):
            guard factor.isFinite else { throw IndexError(.invalidQuery, "boost must be finite (got \(factor))") }
            return try build(inner).scaled(by: factor)
        case .constantScore(let inner, let score):
            guard score.isFinite else {
                throw IndexError(.invalidQuery, "constant score must be finite (got \(score))")
            }
            return .constant(try build(inner), score)
        case .parsed(let text, let fields):
            return try build(searcher.parseQuery(text, defaultFields: fields))
        }
    }

    private func booleanWeight(_ clauses: [Query.Clause], minimumShouldMatch: Int) throws(IndexError) -> Weight {
        var boolean = Weight.BooleanWeight(
            must: [], should: [], mustNot: [], minimumShouldMatch: max(0, minimumShouldMatch))
        var grouped = Set<Int>()
        if minimumShouldMatch <= 1 {
            for group in Self.multiFieldFuzzyGroups(clauses) {
                guard
                    case .fuzzy(_, let value, let distance, let transpositions, let prefix, let maxExpansions) =
                        clauses[group[0]].query
                else { continue }
                for i in group { try budget.charge(clauses[i].query) }
                let fields = group.compactMap { i -> String? in
                    if case .fuzzy(let field, _, _, _, _, _) = clauses[i].query { return field }
                    return nil
                }
                boolean.should.append(
                    try fuzzyWeight(
                        fields: fields, value, distance: distance, transpositions: transpositions, prefix: prefix,
                        maxExpansions: maxExpansions))
                grouped.formUnion(group)
            }
        }
        for (i, clause) in clauses.enumerated() where !grouped.contains(i) {
            let w = try build(clause.query)
            switch clause.occur {
            case .must: boolean.must.append(w)
            case .should: boolean.should.append(w)
            case .mustNot: boolean.mustNot.append(w)
            }
        }
        if boolean.must.isEmpty && boolean.should.isEmpty { return .empty }
        if boolean.should.count < boolean.minimumShouldMatch { return .empty }
        return .boolean(boolean)
    }

    /// Indexes of `should` clauses that are the same fuzzy query on different fields, in groups of two or more.
    private static func multiFieldFuzzyGroups(_ clauses: [Query.Clause]) -> [[Int]] {
        var groups: [Query: [Int]] = [:]
        var order: [Query] = []
        for (i, clause) in clauses.enumerated() where clause.occur == .should {
            guard
                case .fuzzy(_, let value, let distance, let transpositions, let prefix, let maxExpansions) = clause
                    .query
            else {
                continue
            }
            let key = Query.fuzzy(
                field: "", value: value, distance: distance, transpositions: transpositions, prefix: prefix,
                maxExpansions: maxExpansions)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(i)
        }
        return order.compactMap { groups[$0] }.filter { $0.count > 1 }
    }

    // MARK: Terms and phrases

    /// A BM25-scored term on a resolved field.
    func termWeight(_ field: Int, _ entry: FieldEntry, _ term: [UInt8]) throws(IndexError) -> Weight {
        termWeight(field, entry, infos: try lookup(field, term))
    }

    /// A BM25-scored term whose infos per segment are already looked up.
    func termWeight(_ field: Int, _ entry: FieldEntry, infos: [TermInfo?]) -> Weight {
        let bm25 = BM25Weight(
            docFreqs: [docFreq(infos)], totalDocs: totalDocs, totalTokens: totalTokens(field), boost: boost(field))
        return .term(Weight.TermWeight(field: field, hasFreqs: entry.record != .basic, bm25: bm25, infos: infos))
    }

    func phraseWeight(_ name: String, _ terms: [[UInt8]], slop: UInt32) throws(IndexError) -> Weight {
        let (field, entry) = try resolve(name)
        guard !terms.isEmpty else { return .empty }
        if terms.count == 1 { return try termWeight(field, entry, terms[0]) }
        try requirePositions(entry, for: "a phrase query")
        var infos: [[TermInfo?]] = []
        for term in terms { infos.append(try lookup(field, term)) }
        let bm25 = BM25Weight(
            docFreqs: infos.map(docFreq), totalDocs: totalDocs, totalTokens: totalTokens(field), boost: boost(field))
        let phraseTerms = infos.enumerated().map { Weight.PhraseTerm(offset: UInt32($0), infos: $1) }
        return .phrase(Weight.PhraseWeight(field: field, terms: phraseTerms, slop: slop, bm25: bm25))
    }

    func requirePositions(_ entry: FieldEntry, for what: String) throws(IndexError) {
        guard entry.type == .text, entry.record == .position else {
            throw IndexError(
                .invalidQuery,
                "field '\(entry.name)' does not record positions, so it cannot answer \(what); index it with record \"position\"",
                context: .init(field: entry.name))
        }
    }

    // MARK: Resolution

    /// The field's ordinal and entry; it must be indexed, or, with `fastWillDo`, fast.
    func resolve(_ name: String, fastWillDo: Bool = false) throws(IndexError) -> (Int, FieldEntry) {
        guard let i = searcher.schema.fieldIndex[name] else {
            throw IndexError(
                .invalidQuery, "unknown field '\(name)'\(searcher.schema.suggestion(for: name))",
                context: .init(field: name))
        }
        let entry = searcher.schema.fields[i]
        guard entry.indexed || (fastWillDo && entry.fast) else {
            throw IndexError(
                .invalidQuery, "field '\(name)' is not indexed, so it cannot be searched", context: .init(field: name))
        }
        return (i, entry)
    }

    func termBytes(_ value: FieldValue, _ entry: FieldEntry) throws(IndexError) -> [UInt8] {
        switch try convert(value, entry) {
        case .bytes(let b): return b
        case .mapped(let v): return NumericMapping.termBytes(v)
        }
    }

    func convert(_ value: FieldValue, _ entry: FieldEntry) throws(IndexError) -> PreparedDocument.Value {
        do {
            return try PreparedDocument.convert(value, for: entry)
        } catch {
            throw IndexError(.invalidQuery, error.message, context: error.context)
        }
    }

    /// The term's info in each segment, in search order.
    /// - Throws: `IndexError` `.corruption` naming the segment's terms file when its block is damaged.
    func lookup(_ field: Int, _ term: [UInt8]) throws(IndexError) -> [TermInfo?] {
        var infos: [TermInfo?] = []
        infos.reserveCapacity(searcher.segments.count)
        for segment in searcher.segments {
            infos.append(try segment.readingTerms { (terms) throws(FormatError) in try terms.field(field)?.get(term) })
        }
        return infos
    }

    /// Documents holding the term over all segments (BM25's n).
    func docFreq(_ infos: [TermInfo?]) -> UInt64 {
        infos.reduce(0) { $0 + UInt64($1?.docFreq ?? 0) }
    }

    func totalTokens(_ field: Int) -> UInt64 {
        searcher.segments.reduce(0) { $0 + ($1.norms.column(field)?.totalTokens ?? 0) }
    }

    /// The search's boost of `field` (1 unless given).
    func boost(_ field: Int) -> Float { fieldBoosts[field] ?? 1 }

    /// The analyzer of a text field.
    func analyzer(_ entry: FieldEntry) throws(IndexError) -> TextAnalyzer {
        guard let analyzer = searcher.analyzers.analyzer(named: entry.tokenizer) else {
            throw IndexError(
                .invalidQuery, "field '\(entry.name)' uses unknown tokenizer '\(entry.tokenizer)'",
                context: .init(field: entry.name))
        }
        return analyzer
    }
}

extension Schema {
    /// " — did you mean 'title'?" for the closest field name within two edits, or "".
    package func suggestion(for name: String) -> String {
        let candidates = fields.map(\.name).map { ($0, editDistance(Array(name.utf8), Array($0.utf8))) }
        guard let best = candidates.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return "" }
        return " — did you mean '\(best.0)'?"
    }

    private func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                row[j] = Swift.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return previous[b.count]
    }
}
