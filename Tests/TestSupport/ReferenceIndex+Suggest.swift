import Loupe
import LoupeAnalysis

extension ReferenceIndex {
    /// One suggestion as the reference ranks it.
    public struct ReferenceSuggestion: Equatable, CustomStringConvertible {
        public var text: String
        public var count: Int
        public var typos: Int

        public init(text: String, count: Int, typos: Int) {
            self.text = text
            self.count = count
            self.typos = typos
        }

        public var description: String { "\(text) (\(count), \(typos) typos)" }
    }

    /// `Searcher.suggest` without history, by brute force over the field's whole dictionary, as
    /// Docs/INSTANT-SEARCH.md states it: every term within the last word's budget (of a prefix of the term, unless
    /// the text ends with a separator), or only those it matches as typed when they are at least `limit`; the 32 best by document frequency, divided by 16 per typo, ties by term;
    /// each counted over the documents matching the earlier words (`instant` of the text before the last word);
    /// those matching together first, then by that count divided by 16 per typo (else by their document
    /// frequency), ties by term.
    public func suggest(
        _ text: String, field name: String, limit: Int, tolerance: TypoTolerance = .default
    ) throws(Unsupported) -> [ReferenceSuggestion] {
        let evaluator = Evaluator(index: self, boosts: [:])
        let entry = try evaluator.textual(name)
        let tokens =
            entry.type == .text
            ? try Self.analyzer(entry).tokens(text)
            : text.isEmpty
                ? [] : [Token(bytes: Array(text.utf8), position: 0, offsetFrom: 0, offsetTo: text.utf8.count)]
        guard let last = tokens.last else { return [] }
        let isPrefix = last.offsetTo == text.utf8.count
        let typed = Array(last.text.unicodeScalars)
        let budget = tolerance.maxTypos(forLength: typed.count)
        func penalized(_ frequency: Int, _ typos: Int) -> Double {
            (0..<typos).reduce(Double(frequency)) { rank, _ in rank / 16 }
        }
        var found: [(term: String, typos: Int, docFreq: Int)] = []
        for (term, docFreq) in evaluator.dictionary(name) {
            let d = Evaluator.typos(
                typed, Array(term.unicodeScalars), prefix: isPrefix, exactPrefix: tolerance.exactPrefixLength)
            if d <= budget { found.append((term, d, docFreq)) }
        }
        // Typos only when the word as typed completes to fewer than `limit` terms.
        if found.filter({ $0.typos == 0 }).count >= limit { found.removeAll { $0.typos > 0 } }
        found.sort { a, b in
            let ra = penalized(a.docFreq, a.typos)
            let rb = penalized(b.docFreq, b.typos)
            return ra != rb ? ra > rb : TermBytes(a.term) < TermBytes(b.term)
        }
        let headText = String(decoding: text.utf8.prefix(last.offsetFrom), as: UTF8.self)
        let head: Set<Int>? =
            tokens.count > 1
            ? Set(try evaluator.instant(headText, fields: [name], tolerance: tolerance).keys) : nil
        var ranked: [(term: String, typos: Int, docFreq: Int, count: Int)] = []
        for candidate in found.prefix(32) {
            let holders = docs.indices.filter { docs[$0].terms[name]?[candidate.term] != nil }
            let count = head.map { head in holders.filter(head.contains).count } ?? holders.count
            if count > 0 || head != nil { ranked.append((candidate.term, candidate.typos, candidate.docFreq, count)) }
        }
        ranked.sort { a, b in
            if (a.count > 0) != (b.count > 0) { return a.count > 0 }
            let ra = a.count > 0 ? penalized(a.count, a.typos) : penalized(a.docFreq, a.typos)
            let rb = b.count > 0 ? penalized(b.count, b.typos) : penalized(b.docFreq, b.typos)
            return ra != rb ? ra > rb : TermBytes(a.term) < TermBytes(b.term)
        }
        return ranked.prefix(limit).map {
            ReferenceSuggestion(text: headText + $0.term, count: $0.count, typos: $0.typos)
        }
    }
}
