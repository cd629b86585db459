import LoupeAnalysis
import LoupeAutomata

/// What a query matches in each field, kept with the hits so `SearchHit.snippet` can mark it in stored text:
/// exact terms, phrases, and the automata of fuzzy, prefix, wildcard and regex queries (so a hit found by
/// `helo~1` marks "hello"). Excluded clauses mark nothing. Worked out on the first snippet asked for, so a search
/// that shows none pays nothing.
package final class Highlighter: Sendable {
    enum Matcher: Sendable {
        case exact([UInt8])
        case prefix([UInt8])
        /// The terms an automaton accepts (a fuzzy, regex or wildcard word), under the key the search walked the
        /// dictionaries with: a snippet borrows that DFA from `AutomatonCache`, transitions already built.
        case automaton(AutomatonCache.Key, ScalarNFA)
        /// Terms in order, neighbours at most `slop` positions further apart; with `lastIsPrefix`, the last term
        /// matches any token it starts.
        case phrase([[UInt8]], slop: Int, lastIsPrefix: Bool)
    }

    private let searcher: Searcher
    private let query: Query
    /// The matchers per field, worked out from the query on the first snippet (most searches ask for none).
    private let matchers = Locked<[String: [Matcher]]?>(nil)

    package init(searcher: Searcher, query: Query) {
        self.searcher = searcher
        self.query = query
    }

    private func matchers(of field: String) -> [Matcher] {
        matchers.withLock { cached in
            if cached == nil {
                var collected: [String: [Matcher]] = [:]
                Self.collect(query, searcher, into: &collected)
                cached = collected
            }
            return cached?[field] ?? []
        }
    }

    /// The matcher of a word within `distance` edits (of a prefix of it, with `prefix`): plain bytes at distance 0,
    /// else the Levenshtein automaton cached under `key`.
    private static func fuzzy(
        _ value: String, distance: Int, transpositions: Bool, prefix: Bool, exactPrefix: Int = 0,
        key: AutomatonCache.Key
    ) -> Matcher {
        guard distance > 0 else { return prefix ? .prefix(Array(value.utf8)) : .exact(Array(value.utf8)) }
        let nfa = AutomatonCache.shared.nfa(key) {
            Levenshtein.automaton(
                value, distance: distance, transpositions: transpositions, prefix: prefix, exactPrefix: exactPrefix)
        }
        return .automaton(key, nfa)
    }

    private static func collect(_ query: Query, _ searcher: Searcher, into out: inout [String: [Matcher]]) {
        switch query {
        case .term(let field, .text(let text)):
            out[field, default: []].append(.exact(Array(text.utf8)))
        case .phrase(let field, let terms, let slop):
            out[field, default: []].append(.phrase(terms.map { Array($0.utf8) }, slop: slop, lastIsPrefix: false))
        case .phrasePrefix(let field, let terms, _):
            out[field, default: []].append(.phrase(terms.map { Array($0.utf8) }, slop: 0, lastIsPrefix: true))
        case .prefix(let field, let value):
            out[field, default: []].append(.prefix(Array(value.utf8)))
        case .fuzzy(let field, let value, let distance, let transpositions, let prefix, _):
            out[field, default: []].append(
                fuzzy(
                    value, distance: distance, transpositions: transpositions, prefix: prefix,
                    key: .fuzzy(value, distance: distance, transpositions: transpositions, prefix: prefix)))
        case .autocomplete(let field, let text, let tolerance):
            guard let entry = searcher.schema.field(named: field) else { return }
            let words =
                entry.type == .text
                ? (searcher.analyzers.analyzer(named: entry.tokenizer)?.tokens(text).map {
                    String(decoding: $0.bytes, as: UTF8.self)
                } ?? [])
                : [text]
            for (i, word) in words.enumerated() {
                let distance = WeightBuilder.autocompleteDistance(word, typoTolerance: tolerance)
                let prefix = i == words.count - 1
                out[field, default: []].append(
                    fuzzy(
                        word, distance: distance, transpositions: true, prefix: prefix,
                        key: .fuzzy(word, distance: distance, transpositions: true, prefix: prefix)))
            }
        case .instant(let text, let fields, let tolerance):
            for field in fields.isEmpty ? searcher.schema.searchedByDefault : fields {
                guard let entry = searcher.schema.field(named: field) else { continue }
                let analyzer = entry.type == .text ? searcher.analyzers.analyzer(named: entry.tokenizer) : nil
                for word in InstantWords(text, analyzer: analyzer, tolerance: tolerance).words {
                    out[field, default: []].append(
                        fuzzy(
                            word.term, distance: word.maxTypos, transpositions: true, prefix: word.isPrefix,
                            exactPrefix: word.exactPrefix,
                            key: .instant(
                                word.term, distance: word.maxTypos, prefix: word.isPrefix,
                                exactPrefix: word.exactPrefix)))
                }
            }
        case .regex(let field, let pattern):
            let key = AutomatonCache.Key.regex(pattern)
            if let nfa = try? AutomatonCache.shared.nfa(
                key,
                compile: { () throws(RegexSyntaxError) in
                    try Regex.compile(pattern)
                })
            {
                out[field, default: []].append(.automaton(key, nfa))
            }
        case .wildcard(let field, let pattern):
            let key = AutomatonCache.Key.wildcard(pattern)
            out[field, default: []].append(
                .automaton(key, AutomatonCache.shared.nfa(key) { Wildcard.automaton(pattern) }))
        case .boolean(let clauses, _):
            for clause in clauses where clause.occur != .mustNot { collect(clause.query, searcher, into: &out) }
        case .boost(let inner, _), .constantScore(let inner, _):
            collect(inner, searcher, into: &out)
        case .parsed(let text, let fields):
            if let parsed = try? searcher.parseQuery(text, defaultFields: fields, options: .init(lenient: true)) {
                collect(parsed, searcher, into: &out)
            }
        case .matchAll, .term, .range, .exists, .moreLikeThis:
            return
        }
    }

    /// The best snippet among the values of a field: that of the value marking the most distinct terms (the
    /// first of those tied).
    func snippet(field: String, texts: [String], maxChars: Int) -> Snippet {
        let fieldMatchers = matchers(of: field)
        guard let entry = searcher.schema.field(named: field), !fieldMatchers.isEmpty else {
            return Snippet.leading(texts[0], maxChars: maxChars)
        }
        let analyzer = entry.type == .text ? searcher.analyzers.analyzer(named: entry.tokenizer) : nil
        let best = TokenMatcher.borrowing(fieldMatchers) { matcher -> MarkedText? in
            var session = analyzer.map { AnalysisSession($0) }
            var best: MarkedText?
            for text in texts {
                let marked = matcher.mark(text, session: &session)
                if best.map({ marked.distinctTerms > $0.distinctTerms }) ?? true { best = marked }
            }
            return best
        }
        guard let best, !best.marks.isEmpty else { return Snippet.leading(texts[0], maxChars: maxChars) }
        return SnippetFragmenter(bytes: best.bytes, tokens: best.tokens, distinctTerms: best.distinctTerms)
            .fragment(best.marks, maxChars: maxChars)
    }
}

/// One value analyzed for a snippet: its bytes, where each token lies, and the marks the matchers made.
private struct MarkedText {
    var bytes: ContiguousArray<UInt8>
    var tokens: [Range<Int>]
    var marks: [SnippetFragmenter.Mark]
    /// Marks carry term numbers `0 ..< distinctTerms`.
    var distinctTerms: Int
}

/// Finds which tokens of a text the field's matchers mark, a token at a time as the analyzer hands them out, with
/// the DFAs borrowed from `AutomatonCache` for the whole snippet.
private struct TokenMatcher {
    private enum Single {
        case exact([UInt8])
        case prefix([UInt8])
        case dfa(ByteDFA)
    }

    private var singles: [Single] = []
    private var phrases: [(terms: [[UInt8]], slop: Int, lastIsPrefix: Bool)] = []
    /// Where each phrase's terms start among the per-token phrase flags.
    private var phraseSlots: [Int] = []
    private var slotCount = 0

    /// Runs `body` with the matcher of `matchers`, each automaton's DFA taken from the cache's pool for the call;
    /// nil when an automaton cannot be determinized within its state limit.
    static func borrowing<R>(_ matchers: [Highlighter.Matcher], _ body: (TokenMatcher) -> R?) -> R? {
        var automata: [(AutomatonCache.Key, ScalarNFA)] = []
        for case .automaton(let key, let nfa) in matchers { automata.append((key, nfa)) }
        return borrowing(automata[...], [], matchers, body)
    }

    private static func borrowing<R>(
        _ automata: ArraySlice<(AutomatonCache.Key, ScalarNFA)>, _ dfas: [ByteDFA], _ matchers: [Highlighter.Matcher],
        _ body: (TokenMatcher) -> R?
    ) -> R? {
        guard let (key, nfa) = automata.first else { return body(TokenMatcher(matchers, dfas)) }
        let result = try? AutomatonCache.shared.withDFA(key, nfa: nfa, describing: "a highlighted word") {
            (dfa) throws(IndexError) -> R? in
            borrowing(automata.dropFirst(), dfas + [dfa], matchers, body)
        }
        return result ?? nil
    }

    /// `dfas` are those of the `.automaton` matchers, in order.
    private init(_ matchers: [Highlighter.Matcher], _ dfas: [ByteDFA]) {
        var nextDFA = 0
        for m in matchers {
            switch m {
            case .exact(let term): singles.append(.exact(term))
            case .prefix(let term): singles.append(.prefix(term))
            case .automaton:
                singles.append(.dfa(dfas[nextDFA]))
                nextDFA += 1
            case .phrase(let terms, let slop, let lastIsPrefix):
                guard !terms.isEmpty else { continue }
                phrases.append((terms, slop, lastIsPrefix))
                phraseSlots.append(slotCount)
                slotCount += terms.count
            }
        }
    }

    /// The tokens of `text` (from `session`'s analyzer, or the whole value as one token) and their marks.
    func mark(_ text: String, session: inout AnalysisSession?) -> MarkedText {
        var marked = MarkedText(bytes: ContiguousArray(text.utf8), tokens: [], marks: [], distinctTerms: 0)
        var terms: [[UInt8]] = []
        var positions: [Int] = []
        var phraseFlags: [Bool] = []
        func number(_ term: Span<UInt8>) -> Int {
            if let i = terms.firstIndex(where: { Self.equal(term, $0) }) { return i }
            var copy: [UInt8] = []
            copy.reserveCapacity(term.count)
            for i in term.indices { copy.append(term[i]) }
            terms.append(copy)
            return terms.count - 1
        }
        func number(_ term: [UInt8]) -> Int {
            if let i = terms.firstIndex(of: term) { return i }
            terms.append(term)
            return terms.count - 1
        }
        func visit(_ term: Span<UInt8>, _ position: Int, _ from: Int, _ to: Int) {
            marked.tokens.append(from..<to)
            if singles.contains(where: { Self.accepts($0, term) }) {
                marked.marks.append(.init(from: from, to: to, term: number(term)))
            }
            guard slotCount > 0 else { return }
            positions.append(position)
            for phrase in phrases {
                for (k, phraseTerm) in phrase.terms.enumerated() {
                    phraseFlags.append(
                        k == phrase.terms.count - 1 && phrase.lastIsPrefix
                            ? Self.starts(term, with: phraseTerm) : Self.equal(term, phraseTerm))
                }
            }
        }
        let bytes = marked.bytes
        if session != nil {
            session!.run(bytes.span) { term, position, from, to in visit(term, position, from, to) }
        } else {
            visit(bytes.span, 0, 0, bytes.count)
        }
        for (p, phrase) in phrases.enumerated() {
            let occurrences = Self.occurrences(
                count: phrase.terms.count, slop: phrase.slop, positions: positions, tokens: marked.tokens
            ) { k, token in phraseFlags[token * slotCount + phraseSlots[p] + k] }
            for range in occurrences {
                marked.marks.append(.init(from: range.lowerBound, to: range.upperBound, term: number(phrase.terms[0])))
            }
        }
        marked.marks.sort { ($0.from, $1.to) < ($1.from, $0.to) }
        marked.distinctTerms = terms.count
        return marked
    }

    private static func accepts(_ single: Single, _ term: Span<UInt8>) -> Bool {
        switch single {
        case .exact(let exact): return equal(term, exact)
        case .prefix(let prefix): return starts(term, with: prefix)
        case .dfa(let dfa):
            var state = dfa.start
            for i in term.indices {
                state = dfa.step(state, term[i])
                if state == ByteDFA.dead { return false }
            }
            return dfa.acceptTag(state) != nil
        }
    }

    private static func equal(_ term: Span<UInt8>, _ bytes: [UInt8]) -> Bool {
        term.count == bytes.count && starts(term, with: bytes)
    }

    private static func starts(_ term: Span<UInt8>, with prefix: [UInt8]) -> Bool {
        guard term.count >= prefix.count else { return false }
        for i in prefix.indices where term[i] != prefix[i] { return false }
        return true
    }

    /// The byte range of each occurrence of a phrase of `count` terms, from its first token to its last, where
    /// `matches(k, token)` says whether the token is the phrase's term `k`.
    private static func occurrences(
        count: Int, slop: Int, positions: [Int], tokens: [Range<Int>], matches: (Int, Int) -> Bool
    ) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var i = 0
        while i < tokens.count {
            guard matches(0, i) else {
                i += 1
                continue
            }
            var last = i
            var k = 1
            var j = i + 1
            while k < count && j < tokens.count && positions[j] - positions[last] <= 1 + slop {
                if matches(k, j) {
                    last = j
                    k += 1
                }
                j += 1
            }
            if k == count {
                found.append(tokens[i].lowerBound..<tokens[last].upperBound)
                i = last + 1
            } else {
                i += 1
            }
        }
        return found
    }
}
