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
            let term = try termBytes(value, entry)
            let bm25 = BM25Weight(docFreqs: [docFreq(field, term)], totalDocs: totalDocs, totalTokens: totalTokens(field))
            return .term(field: field, term: term, bm25: bm25, hasFreqs: entry.record != .basic)
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
            let bm25 = BM25Weight(docFreqs: terms.map { docFreq(field, $0) }, totalDocs: totalDocs, totalTokens: totalTokens(field))
            return .phrase(field: field, terms: terms.enumerated().map { ($1, UInt32($0)) }, bm25: bm25)
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

    /// Phrase weight from analyzed tokens with their positions (as the query parser produces them).
    package func phrase(field: Int, terms: [(bytes: [UInt8], offset: UInt32)]) -> Weight {
        let bm25 = BM25Weight(
            docFreqs: terms.map { docFreq(field, $0.bytes) }, totalDocs: totalDocs, totalTokens: totalTokens(field))
        return .phrase(field: field, terms: terms, bm25: bm25)
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

    private func docFreq(_ field: Int, _ term: [UInt8]) -> UInt64 {
        searcher.segments.reduce(0) { $0 + UInt64($1.terms.field(field)?.get(term)?.docFreq ?? 0) }
    }

    private func totalTokens(_ field: Int) -> UInt64 {
        searcher.segments.reduce(0) { $0 + ($1.norms.column(field)?.totalTokens ?? 0) }
    }
}
