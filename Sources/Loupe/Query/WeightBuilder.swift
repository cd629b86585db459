/// Resolves a `Query` against a searcher's schema and segments: field names to ordinals, values to term
/// bytes, and global BM25 statistics (document frequencies and token totals summed over segments).
package struct WeightBuilder {
    private let searcher: Searcher
    private let totalDocs: UInt64

    package init(searcher: Searcher) {
        self.searcher = searcher
        totalDocs = UInt64(searcher.segments.reduce(0) { $0 + $1.maxDoc })
    }

    package func build(_ query: Query) throws(IndexError) -> Weight {
        switch query {
        case .matchAll:
            return .all(score: 1)
        case .term(let name, let value):
            let (field, entry) = try resolve(name)
            let infos = lookup(field, try termBytes(value, entry))
            let bm25 = BM25Weight(docFreqs: [docFreq(infos)], totalDocs: totalDocs, totalTokens: totalTokens(field))
            return .term(Weight.TermWeight(field: field, hasFreqs: entry.record != .basic, bm25: bm25, infos: infos))
        case .phrase(let name, let words):
            let (field, entry) = try resolve(name)
            guard !words.isEmpty else { return .empty }
            let terms = words.map { Array($0.utf8) }
            if terms.count == 1 { return try build(.term(field: name, value: .text(words[0]))) }
            guard entry.type == .text, entry.record == .position else {
                throw IndexError(
                    .invalidQuery,
                    "field '\(name)' does not record positions, so it cannot answer a phrase query; index it with record \"position\"",
                    context: .init(field: name))
            }
            let infos = terms.map { lookup(field, $0) }
            let bm25 = BM25Weight(docFreqs: infos.map(docFreq), totalDocs: totalDocs, totalTokens: totalTokens(field))
            return .phrase(
                field: field, terms: infos.enumerated().map { Weight.PhraseTerm(offset: UInt32($0), infos: $1) }, bm25: bm25)
        case .boolean(let clauses):
            var must: [Weight] = []
            var should: [Weight] = []
            var mustNot: [Weight] = []
            for clause in clauses {
                let w = try build(clause.query)
                switch clause.occur {
                case .must: must.append(w)
                case .should: should.append(w)
                case .mustNot: mustNot.append(w)
                }
            }
            if must.isEmpty && should.isEmpty { return .empty }
            return .boolean(must: must, should: should, mustNot: mustNot)
        case .boost(let inner, let factor):
            return .boost(try build(inner), factor)
        }
    }

    private func resolve(_ name: String) throws(IndexError) -> (Int, FieldEntry) {
        guard let i = searcher.schema.fieldIndex[name] else {
            throw IndexError(.invalidQuery, "unknown field '\(name)'", context: .init(field: name))
        }
        let entry = searcher.schema.fields[i]
        guard entry.indexed else {
            throw IndexError(.invalidQuery, "field '\(name)' is not indexed, so it cannot be searched", context: .init(field: name))
        }
        return (i, entry)
    }

    private func termBytes(_ value: FieldValue, _ entry: FieldEntry) throws(IndexError) -> [UInt8] {
        let converted: PreparedDocument.Value
        do {
            converted = try PreparedDocument.convert(value, for: entry)
        } catch {
            throw IndexError(.invalidQuery, error.message, context: error.context)
        }
        switch converted {
        case .bytes(let b): return b
        case .mapped(let v): return NumericMapping.termBytes(v)
        }
    }

    /// The term's info in each segment, in search order.
    private func lookup(_ field: Int, _ term: [UInt8]) -> [TermInfo?] {
        searcher.segments.map { $0.terms.field(field)?.get(term) }
    }

    /// Documents holding the term over all segments (BM25's n).
    private func docFreq(_ infos: [TermInfo?]) -> UInt64 {
        infos.reduce(0) { $0 + UInt64($1?.docFreq ?? 0) }
    }

    private func totalTokens(_ field: Int) -> UInt64 {
        searcher.segments.reduce(0) { $0 + ($1.norms.column(field)?.totalTokens ?? 0) }
    }
}
