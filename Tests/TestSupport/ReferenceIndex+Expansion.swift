import Loupe
import LoupeAnalysis

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Expanding queries, ranges, more-like-this, booleans

extension ReferenceIndex.Evaluator {
    typealias Unsupported = ReferenceIndex.Unsupported
    typealias Matches = ReferenceIndex.Matches

    func regex(_ name: String, _ pattern: String) throws(Unsupported) -> Matches {
        _ = try textual(name)
        let regex: Regex<AnyRegexOutput>
        do {
            // Rust's regex (the engine's syntax) matches code points, as Swift does in scalar semantics.
            regex = try Regex(pattern).matchingSemantics(.unicodeScalar)
        } catch {
            throw Unsupported(description: "Swift cannot compile the regex /\(pattern)/: \(error)")
        }
        let accepted = Set(dictionary(name).keys.filter { (try? regex.wholeMatch(in: $0)) != nil })
        return constant(name) { doc in doc.terms[name]?.keys.contains(where: accepted.contains) ?? false }
    }

    /// Whether `text` matches `pattern` wholly: `*` any run of scalars, `?` one scalar, `\x` a literal `x` (a
    /// trailing lone `\` a literal backslash).
    static func wildcardMatches(_ pattern: ArraySlice<Unicode.Scalar>, _ text: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let head = pattern.first else { return text.isEmpty }
        let rest = pattern.dropFirst()
        switch head {
        case "*":
            return (text.startIndex...text.endIndex).contains { wildcardMatches(rest, text[$0...]) }
        case "?":
            return !text.isEmpty && wildcardMatches(rest, text.dropFirst())
        case "\\":
            let literal = rest.first ?? head
            return text.first == literal && wildcardMatches(rest.dropFirst(), text.dropFirst())
        default:
            return text.first == head && wildcardMatches(rest, text.dropFirst())
        }
    }

    func fuzzy(
        _ name: String, _ value: String, _ distance: Int, transpositions: Bool, prefix: Bool, maxExpansions: Int
    ) throws(Unsupported) -> Matches {
        try fuzzy([name], value, distance, transpositions: transpositions, prefix: prefix, maxExpansions: maxExpansions)
    }

    /// The fuzzy word on every field of `names`, scored as one (as the engine does for the same fuzzy query on
    /// several fields of a disjunction): each field keeps its own best expansions, and the blended document
    /// frequency is the largest over all fields.
    func fuzzy(
        _ names: [String], _ value: String, _ distance: Int, transpositions: Bool, prefix: Bool, maxExpansions: Int
    ) throws(Unsupported) -> Matches {
        guard (0...2).contains(distance), maxExpansions >= 1 else {
            throw Unsupported(description: "fuzzy distance \(distance), maxExpansions \(maxExpansions)")
        }
        let wanted = Array(value.unicodeScalars)
        var perField: [(entry: FieldEntry, kept: [(term: String, distance: Int, docFreq: Int)])] = []
        for name in names {
            let entry = try textual(name)
            let kept = dictionary(name).compactMap { term, docFreq -> (term: String, distance: Int, docFreq: Int)? in
                let d = Self.editDistance(
                    wanted, Array(term.unicodeScalars), transpositions: transpositions, prefix: prefix)
                return d <= distance ? (term, d, docFreq) : nil
            }.sorted { a, b in
                if a.distance != b.distance { return a.distance < b.distance }
                return a.docFreq != b.docFreq ? a.docFreq > b.docFreq : TermBytes(a.term) < TermBytes(b.term)
            }.prefix(maxExpansions)
            perField.append((entry, Array(kept)))
        }
        // Every kept term takes the idf of the most frequent one (blended); the exact spelling weighs 1, a
        // neighbour (1 − d / (n + 1)) × ln(1 + df) / ln(1 + max df).
        guard let blended = perField.flatMap({ $0.kept.map(\.docFreq) }).max() else { return [:] }
        var out: Matches = [:]
        for (entry, kept) in perField {
            for k in kept {
                let frequency = log(1 + Double(k.docFreq)) / log(1 + Double(max(blended, 1)))
                let factor = k.distance == 0 ? 1 : (1 - Double(k.distance) / Double(wanted.count + 1)) * frequency
                Self.add(termScores(entry, k.term, idf: idf(blended), factor: factor), to: &out)
            }
        }
        return out
    }

    /// Levenshtein distance over scalars, or with `transpositions` the optimal string alignment distance (a swap
    /// of neighbours costs 1); with `prefix`, the least distance between `a` and any prefix of `b`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], transpositions: Bool, prefix: Bool) -> Int {
        // d[i][j]: the distance between a[..<i] and b[..<j].
        var d = (0...a.count).map { i in (0...b.count).map { j in i == 0 ? j : (j == 0 ? i : 0) } }
        for i in 1..<(a.count + 1) {
            for j in 1..<(b.count + 1) {
                let substitution = d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, substitution)
                if transpositions, i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return prefix ? (d[a.count].min() ?? 0) : d[a.count][b.count]
    }

    func autocomplete(_ name: String, _ text: String, typoTolerance: Int) throws(Unsupported) -> Matches {
        let entry = try textual(name)
        guard typoTolerance >= 0 else { throw Unsupported(description: "negative typo tolerance") }
        let words = entry.type == .text ? try ReferenceIndex.analyzer(entry).tokens(text).map(\.text) : [text]
        var out: Matches?
        for (i, word) in words.enumerated() {
            let length = word.unicodeScalars.count
            let distance = min(typoTolerance, length < 3 ? 0 : length < 6 ? 1 : 2)
            let next = try fuzzy(
                name, word, distance, transpositions: true, prefix: i == words.count - 1, maxExpansions: 50)
            // Every word is required: keep the documents matching all so far, adding up their scores.
            guard let sofar = out else {
                out = next
                continue
            }
            out = sofar.reduce(into: [:]) { both, match in
                if let score = next[match.key] { both[match.key] = match.value + score }
            }
        }
        return out ?? [:]
    }

    func range(_ name: String, _ lower: RangeBound, _ upper: RangeBound) throws(Unsupported) -> Matches {
        let entry = try field(name, fastWillDo: true)
        if entry.type == .text || entry.type == .string {
            let low = try textBound(lower, entry)
            let high = try textBound(upper, entry)
            return constant(name) { doc in
                doc.terms[name]?.keys.contains { Self.contains(TermBytes($0), low, high) } ?? false
            }
        }
        let low = try numericBound(lower, entry)
        let high = try numericBound(upper, entry)
        return constant(name) { doc in doc.values[name]?.contains { Self.contains($0, low, high) } ?? false }
    }

    static func contains<T: Comparable>(
        _ value: T, _ lower: (T, included: Bool)?, _ upper: (T, included: Bool)?
    ) -> Bool {
        if let lower, lower.included ? value < lower.0 : value <= lower.0 { return false }
        if let upper, upper.included ? value > upper.0 : value >= upper.0 { return false }
        return true
    }

    /// A text bound analyzed by the field's analyzer when that leaves one token, else its raw bytes; a string
    /// field's bound as raw bytes.
    func textBound(_ bound: RangeBound, _ entry: FieldEntry) throws(Unsupported) -> (TermBytes, included: Bool)? {
        let (value, included): (FieldValue, Bool)
        switch bound {
        case .unbounded: return nil
        case .included(let v): (value, included) = (v, true)
        case .excluded(let v): (value, included) = (v, false)
        }
        guard case .text(let text) = value else {
            throw Unsupported(description: "bound \(value) on \(entry.type) field")
        }
        if entry.type == .text {
            let tokens = try ReferenceIndex.analyzer(entry).tokens(text)
            if tokens.count == 1 { return (TermBytes(tokens[0].text), included) }
        }
        return (TermBytes(text), included)
    }

    func numericBound(
        _ bound: RangeBound, _ entry: FieldEntry
    ) throws(Unsupported) -> (ReferenceIndex.Ordered, included: Bool)? {
        let (value, included): (FieldValue, Bool)
        switch bound {
        case .unbounded: return nil
        case .included(let v): (value, included) = (v, true)
        case .excluded(let v): (value, included) = (v, false)
        }
        guard let ordered = ReferenceIndex.ordered(value, entry.type) else {
            throw Unsupported(description: "bound \(value) on \(entry.type) field")
        }
        return (ordered, included)
    }

    func moreLikeThis(_ name: String, _ text: String, _ options: MoreLikeThisOptions) throws(Unsupported) -> Matches {
        let entry = try textual(name)
        guard options.maxQueryTerms >= 1 else { throw Unsupported(description: "maxQueryTerms < 1") }
        var frequencies: [String: Int] = [:]
        if entry.type == .text {
            for token in try ReferenceIndex.analyzer(entry).tokens(text) { frequencies[token.text, default: 0] += 1 }
        } else {
            frequencies[text] = 1
        }
        let n = Float(index.documentCount)
        var candidates: [(term: String, score: Float)] = []
        for (term, tf) in frequencies where tf >= options.minTermFrequency {
            let length = term.unicodeScalars.count
            guard options.minWordLength <= 0 || length >= options.minWordLength,
                options.maxWordLength <= 0 || length <= options.maxWordLength
            else { continue }
            let df = docFreq(name, term)
            guard df >= max(options.minDocFrequency, 1), df <= options.maxDocFrequency.map({ max($0, 0) }) ?? .max
            else { continue }
            // Lucene's classic idf, in Float as the engine ranks, so near-ties break the same way.
            candidates.append((term, Float(tf) * (1 + logf(n / Float(df + 1)))))
        }
        candidates.sort { $0.score != $1.score ? $0.score > $1.score : TermBytes($0.term) < TermBytes($1.term) }
        var out: Matches = [:]
        for candidate in candidates.prefix(options.maxQueryTerms) {
            Self.add(termScores(entry, candidate.term), to: &out)
        }
        return out
    }

    func boolean(_ clauses: [Query.Clause], minimumShouldMatch: Int) throws(Unsupported) -> Matches {
        var must: [Matches] = []
        var should: [Matches] = []
        var mustNot: [Matches] = []
        var grouped = Set<Int>()
        if minimumShouldMatch <= 1 {
            // The same fuzzy query on several fields, among the `should` clauses, is scored as one.
            var groups: [[Int]] = []
            for (i, clause) in clauses.enumerated() where clause.occur == .should && !grouped.contains(i) {
                guard case .fuzzy(_, let v, let d, let t, let p, let m) = clause.query else { continue }
                let members = clauses.indices.filter { j in
                    guard clauses[j].occur == .should, case .fuzzy(_, v, d, t, p, m) = clauses[j].query else {
                        return false
                    }
                    return true
                }
                if members.count > 1 {
                    groups.append(members)
                    grouped.formUnion(members)
                }
            }
            for group in groups {
                guard case .fuzzy(_, let v, let d, let t, let p, let m) = clauses[group[0]].query else { continue }
                let names = group.compactMap { j -> String? in
                    if case .fuzzy(let name, _, _, _, _, _) = clauses[j].query { return name }
                    return nil
                }
                should.append(try fuzzy(names, v, d, transpositions: t, prefix: p, maxExpansions: m))
            }
        }
        for (i, clause) in clauses.enumerated() where !grouped.contains(i) {
            let m = try matches(clause.query)
            switch clause.occur {
            case .must: must.append(m)
            case .should: should.append(m)
            case .mustNot: mustNot.append(m)
            }
        }
        let minimum = max(0, minimumShouldMatch)
        guard !(must.isEmpty && should.isEmpty), should.count >= minimum else { return [:] }
        let required = must.isEmpty ? max(1, minimum) : minimum
        var out: Matches = [:]
        for d in index.docs.indices {
            let mustScores = must.compactMap { $0[d] }
            let shouldScores = should.compactMap { $0[d] }
            guard mustScores.count == must.count, shouldScores.count >= required,
                !mustNot.contains(where: { $0[d] != nil })
            else { continue }
            out[d] = mustScores.reduce(0, +) + shouldScores.reduce(0, +)
        }
        return out
    }
}
