import Loupe
import LoupeAnalysis

/// A brute-force search "engine" for differential tests: it keeps every document's tokens and answers queries
/// by scanning all of them, scoring with the BM25 formula written out plainly in `Double`.
public struct ReferenceIndex {
    /// One document: its id and, per text field, its tokens in position order.
    public struct Doc {
        public var id: String
        public var fields: [String: [String]]
    }

    public private(set) var docs: [Doc] = []
    private var docFreqs: [String: [String: Int]] = [:]
    private var totalTokens: [String: Int] = [:]
    private let analyzer = AnalyzerRegistry.builtIn.analyzer(named: "default")!

    public init() {}

    /// Adds a document the way the engine's `default` analyzer sees it (single-valued text fields only).
    public mutating func add(id: String, fields: [String: String]) {
        let doc = Doc(id: id, fields: fields.mapValues { analyzer.tokens($0).map { String(decoding: $0.bytes, as: UTF8.self) } })
        for (field, tokens) in doc.fields {
            totalTokens[field, default: 0] += tokens.count
            for term in Set(tokens) { docFreqs[field, default: [:]][term, default: 0] += 1 }
        }
        docs.append(doc)
    }

    /// Every matching document's id with its score.
    public func search(_ query: Query) -> [String: Double] {
        var out: [String: Double] = [:]
        for d in docs.indices {
            if let s = score(query, d) { out[docs[d].id] = s }
        }
        return out
    }

    private func score(_ query: Query, _ d: Int) -> Double? {
        switch query {
        case .matchAll:
            return 1
        case .term(let field, .text(let term)):
            let tf = docs[d].fields[field]?.filter { $0 == term }.count ?? 0
            return tf == 0 ? nil : bm25(field: field, docFreqs: [docFreq(field, term)], tf: tf, d)
        case .phrase(let field, let terms):
            let tokens = docs[d].fields[field] ?? []
            var count = 0
            if tokens.count >= terms.count {
                for start in 0...(tokens.count - terms.count) where Array(tokens[start..<(start + terms.count)]) == terms {
                    count += 1
                }
            }
            return count == 0 ? nil : bm25(field: field, docFreqs: terms.map { docFreq(field, $0) }, tf: count, d)
        case .boolean(let clauses):
            var total = 0.0
            var anyShould = false
            for clause in clauses {
                let s = score(clause.query, d)
                switch clause.occur {
                case .must:
                    guard let s else { return nil }
                    total += s
                case .should:
                    if let s {
                        anyShould = true
                        total += s
                    }
                case .mustNot:
                    if s != nil { return nil }
                }
            }
            let hasMust = clauses.contains { $0.occur == .must }
            if !hasMust && !anyShould { return nil }
            return total
        case .boost(let inner, let factor):
            return score(inner, d).map { $0 * Double(factor) }
        case .term:
            return nil
        }
    }

    private func docFreq(_ field: String, _ term: String) -> Int {
        docFreqs[field]?[term] ?? 0
    }

    private func bm25(field: String, docFreqs: [Int], tf: Int, _ d: Int) -> Double {
        let n = Double(docs.count)
        let idf = docFreqs.reduce(0.0) { $0 + log(1 + (n - Double($1) + 0.5) / (Double($1) + 0.5)) }
        let average = Double(totalTokens[field] ?? 0) / n
        let length = Double(quantizedLength(docs[d].fields[field]?.count ?? 0))
        let k1 = 1.2
        let b = 0.75
        return idf * (1 + k1) * Double(tf) / (Double(tf) + k1 * (1 - b + b * length / average))
    }

    /// Lucene's SmallFloat.intToByte4 round trip, written independently of the engine: exact below 24, then
    /// 3 mantissa bits over the remainder.
    private func quantizedLength(_ count: Int) -> Int {
        if count < 24 { return count }
        let rest = count - 24
        let bits = Int.bitWidth - rest.leadingZeroBitCount
        if bits < 4 { return count }
        let shift = bits - 4
        return 24 + ((rest >> shift) << shift)
    }
}

#if canImport(Glibc)
import Glibc
#endif
