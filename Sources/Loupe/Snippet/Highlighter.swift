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
        case fuzzy(String, distance: Int, transpositions: Bool, prefix: Bool, exactPrefix: Int = 0)
        case regex(String)
        case wildcard(String)
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
                .fuzzy(value, distance: distance, transpositions: transpositions, prefix: prefix))
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
                out[field, default: []].append(
                    .fuzzy(word, distance: distance, transpositions: true, prefix: i == words.count - 1))
            }
        case .instant(let text, let fields, let tolerance):
            for field in fields.isEmpty ? searcher.schema.searchedByDefault : fields {
                guard let entry = searcher.schema.field(named: field) else { continue }
                let analyzer = entry.type == .text ? searcher.analyzers.analyzer(named: entry.tokenizer) : nil
                for word in InstantWords(text, analyzer: analyzer, tolerance: tolerance).words {
                    out[field, default: []].append(
                        word.maxTypos == 0 && !word.isPrefix
                            ? .exact(Array(word.term.utf8))
                            : .fuzzy(
                                word.term, distance: word.maxTypos, transpositions: true, prefix: word.isPrefix,
                                exactPrefix: word.exactPrefix))
                }
            }
        case .regex(let field, let pattern):
            out[field, default: []].append(.regex(pattern))
        case .wildcard(let field, let pattern):
            out[field, default: []].append(.wildcard(pattern))
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

    /// The best snippet among the values of a field.
    func snippet(field: String, texts: [String], maxChars: Int) -> Snippet {
        let fieldMatchers = matchers(of: field)
        guard let entry = searcher.schema.field(named: field), !fieldMatchers.isEmpty else {
            return Snippet.leading(texts[0], maxChars: maxChars)
        }
        let analyzer = entry.type == .text ? searcher.analyzers.analyzer(named: entry.tokenizer) : nil
        var matcher = TokenMatcher(fieldMatchers)
        var best: (text: String, tokens: [Token], marks: [SnippetFragmenter.Mark])?
        for text in texts {
            let tokens =
                analyzer?.tokens(text)
                ?? [Token(bytes: Array(text.utf8), position: 0, offsetFrom: 0, offsetTo: text.utf8.count)]
            let marks = matcher.marks(tokens)
            if best == nil || Set(marks.map(\.term)).count > Set(best?.marks.map(\.term) ?? []).count {
                best = (text, tokens, marks)
            }
        }
        guard let best, !best.marks.isEmpty else { return Snippet.leading(texts[0], maxChars: maxChars) }
        return SnippetFragmenter(text: best.text, tokens: best.tokens).fragment(best.marks, maxChars: maxChars)
    }
}

/// Finds which tokens of a text the field's matchers mark, building each automaton once per snippet.
private struct TokenMatcher {
    private var singles: [(Highlighter.Matcher, ByteDFA?)] = []
    private var phrases: [(terms: [[UInt8]], slop: Int, lastIsPrefix: Bool)] = []

    init(_ matchers: [Highlighter.Matcher]) {
        for m in matchers {
            switch m {
            case .phrase(let terms, let slop, let lastIsPrefix): phrases.append((terms, slop, lastIsPrefix))
            case .fuzzy(let value, let distance, let transpositions, let prefix, let exactPrefix):
                singles.append(
                    (
                        m,
                        ByteDFA(
                            Levenshtein.automaton(
                                value, distance: distance, transpositions: transpositions, prefix: prefix,
                                exactPrefix: exactPrefix))
                    ))
            case .regex(let pattern): singles.append((m, (try? Regex.compile(pattern)).map { ByteDFA($0) }))
            case .wildcard(let pattern): singles.append((m, ByteDFA(Wildcard.automaton(pattern))))
            case .exact, .prefix: singles.append((m, nil))
            }
        }
    }

    mutating func marks(_ tokens: [Token]) -> [SnippetFragmenter.Mark] {
        var marks: [SnippetFragmenter.Mark] = []
        for token in tokens where singles.contains(where: { Self.accepts($0, token.bytes) }) {
            marks.append(.init(from: token.offsetFrom, to: token.offsetTo, term: token.bytes))
        }
        for phrase in phrases { marks += Self.occurrences(phrase, in: tokens) }
        return marks.sorted { ($0.from, $1.to) < ($1.from, $0.to) }
    }

    private static func accepts(_ matcher: (Highlighter.Matcher, ByteDFA?), _ bytes: [UInt8]) -> Bool {
        switch matcher.0 {
        case .exact(let term): return term == bytes
        case .prefix(let prefix): return bytes.starts(with: prefix)
        default: return matcher.1?.match(bytes) != nil
        }
    }

    /// Each occurrence of the phrase as one mark from its first token to its last.
    private static func occurrences(
        _ phrase: (terms: [[UInt8]], slop: Int, lastIsPrefix: Bool), in tokens: [Token]
    ) -> [SnippetFragmenter.Mark] {
        guard let first = phrase.terms.first else { return [] }
        func matches(_ k: Int, _ token: Token) -> Bool {
            k == phrase.terms.count - 1 && phrase.lastIsPrefix
                ? token.bytes.starts(with: phrase.terms[k]) : token.bytes == phrase.terms[k]
        }
        var marks: [SnippetFragmenter.Mark] = []
        var i = 0
        while i < tokens.count {
            guard matches(0, tokens[i]) else {
                i += 1
                continue
            }
            var last = i
            var k = 1
            var j = i + 1
            while k < phrase.terms.count && j < tokens.count
                && tokens[j].position - tokens[last].position <= 1 + phrase.slop
            {
                if matches(k, tokens[j]) {
                    last = j
                    k += 1
                }
                j += 1
            }
            if k == phrase.terms.count {
                marks.append(.init(from: tokens[i].offsetFrom, to: tokens[last].offsetTo, term: first))
                i = last + 1
            } else {
                i += 1
            }
        }
        return marks
    }
}
