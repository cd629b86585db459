import LoupeAnalysis
import LoupeAutomata
import LoupeQueryGrammar

/// Lowers one leaf of a query string on one field.
struct LeafLowering {
    let entry: FieldEntry
    let analyzers: AnalyzerRegistry
    let context: IndexError.Context

    /// The leaf's query on this field; nil when the analyzer leaves no token.
    func lower(_ kind: LeafQuery.Kind) throws(IndexError) -> Query? {
        switch kind {
        case .range(let lower, let upper):
            try requireSearchable(fastWillDo: true)
            return .range(field: entry.name, lower: try bound(lower), upper: try bound(upper))
        case .exists:
            try requireSearchable(fastWillDo: true)
            return .exists(field: entry.name)
        default:
            try requireSearchable(fastWillDo: false)
        }
        switch kind {
        case .term(let word):
            if let (base, distance) = try Self.fuzzySuffix(word, context) { return try fuzzy(base, distance) }
            if Self.isWildcard(word) { return try wildcard(word) }
            return try words(word)
        case .phrase(let text, let slop, let prefix):
            if prefix { return try phrasePrefix(text) }
            guard slop > 0 else { return try words(text) }
            let tokens = try analyzed(text)
            if tokens.count < 2 { return try words(text) }
            try requirePositions(text)
            return .phrase(field: entry.name, terms: tokens, slop: Int(slop))
        case .set(let values):
            var terms: [Query] = []
            for value in values { terms.append(.term(field: entry.name, value: try parse(value))) }
            return .constantScore(.anyOf(terms), score: 1)
        case .regex(let pattern):
            try requireTextual("a regex")
            do {
                _ = try AutomatonCache.shared.nfa(.regex(pattern)) { () throws(RegexSyntaxError) in
                    try Regex.compile(pattern)
                }
            } catch {
                throw IndexError(
                    .invalidQuery,
                    "invalid regex /\(pattern)/ at byte \(error.offset) of the pattern: \(error.message)",
                    context: context)
            }
            return .regex(field: entry.name, pattern: pattern)
        case .range, .exists:
            return nil
        }
    }

    /// A word or phrase text: one token → term, several → phrase, none → nil.
    private func words(_ text: String) throws(IndexError) -> Query? {
        switch entry.type {
        case .string:
            return .term(field: entry.name, value: .text(text))
        case .text:
            let tokens = try analyzed(text)
            switch tokens.count {
            case 0: return nil
            case 1: return .term(field: entry.name, value: .text(tokens[0]))
            default:
                try requirePositions(text)
                return .phrase(field: entry.name, terms: tokens, slop: 0)
            }
        case .u64, .i64, .f64, .bool, .date:
            return .term(field: entry.name, value: try parse(text))
        }
    }

    private func phrasePrefix(_ text: String) throws(IndexError) -> Query? {
        switch entry.type {
        case .string:
            return .prefix(field: entry.name, value: text)
        case .text:
            let tokens = try analyzed(text)
            if tokens.isEmpty { return nil }
            if tokens.count > 1 { try requirePositions(text) }
            return .phrasePrefix(field: entry.name, terms: tokens, maxExpansions: 50)
        default:
            throw IndexError(
                .invalidQuery,
                "a phrase prefix needs a text or string field; '\(entry.name)' is \(entry.type.rawValue)",
                context: context)
        }
    }

    private func fuzzy(_ word: String, _ distance: Int) throws(IndexError) -> Query? {
        try requireTextual("a fuzzy term (`word~N`)")
        let terms = entry.type == .text ? try analyzed(word) : [word]
        let fuzzies = terms.map { Query.fuzzy(entry.name, $0, distance: distance) }
        switch fuzzies.count {
        case 0: return nil
        case 1: return fuzzies[0]
        default: return .allOf(fuzzies)
        }
    }

    private func wildcard(_ pattern: String) throws(IndexError) -> Query {
        try requireTextual("a wildcard term (`*`, `?`)")
        let lowercase = entry.type == .text ? try lowercases() : false
        let normalized = lowercase ? pattern.lowercased() : pattern
        return .wildcard(field: entry.name, pattern: normalized)
    }

    // MARK: Values

    private func bound(_ bound: Bound) throws(IndexError) -> RangeBound {
        switch bound {
        case .unbounded: return .unbounded
        case .included(let text): return .included(try parse(text))
        case .excluded(let text): return .excluded(try parse(text))
        }
    }

    /// A literal as a value of the field's type.
    private func parse(_ text: String) throws(IndexError) -> FieldValue {
        let value: FieldValue?
        switch entry.type {
        case .u64:
            // A negative bound of a u64 range is valid (it is below every value).
            value = UInt64(text).map(FieldValue.u64) ?? Int64(text).map(FieldValue.i64)
        case .i64: value = Int64(text).map(FieldValue.i64)
        case .f64: value = Double(text).flatMap { $0.isNaN ? nil : FieldValue.f64($0) }
        case .bool: value = text == "true" ? .bool(true) : text == "false" ? .bool(false) : nil
        case .date: value = RFC3339.parseMicros(text.utf8).map { _ in FieldValue.text(text) }
        case .text, .string: value = .text(text)
        }
        guard let value else {
            throw IndexError(
                .invalidQuery, "'\(text)' is not a valid \(entry.type.rawValue) value for field '\(entry.name)'",
                context: context)
        }
        return value
    }

    // MARK: Analysis

    private func analyzer() throws(IndexError) -> TextAnalyzer {
        guard let analyzer = analyzers.analyzer(named: entry.tokenizer) else {
            throw IndexError(
                .invalidQuery, "field '\(entry.name)' uses unknown tokenizer '\(entry.tokenizer)'", context: context)
        }
        return analyzer
    }

    private func analyzed(_ text: String) throws(IndexError) -> [String] {
        try analyzer().tokens(text).map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// Whether the field's analyzer lowercases, so a wildcard pattern (which cannot be analyzed) is lowercased
    /// to meet the indexed terms.
    private func lowercases() throws(IndexError) -> Bool {
        try analyzer().tokens("Q").first?.bytes == Array("q".utf8)
    }

    // MARK: Checks

    private func requireSearchable(fastWillDo: Bool) throws(IndexError) {
        guard entry.indexed || (fastWillDo && entry.fast) else {
            throw IndexError(
                .invalidQuery, "field '\(entry.name)' is not indexed, so it cannot be searched", context: context)
        }
    }

    private func requireTextual(_ what: String) throws(IndexError) {
        guard entry.type == .text || entry.type == .string else {
            throw IndexError(
                .invalidQuery, "\(what) needs a text or string field; '\(entry.name)' is \(entry.type.rawValue)",
                context: context)
        }
    }

    private func requirePositions(_ text: String) throws(IndexError) {
        guard entry.record == .position else {
            throw IndexError(
                .invalidQuery, "'\(text)' becomes a phrase on field '\(entry.name)', which does not record positions",
                context: context)
        }
    }

    // MARK: Word shapes

    /// `word~` (distance 1) or `word~N`: the word and the distance; nil for any other word.
    static func fuzzySuffix(_ word: String, _ context: IndexError.Context) throws(IndexError) -> (String, Int)? {
        let bytes = Array(word.utf8)
        guard let tilde = bytes.lastIndex(of: UInt8(ascii: "~")), tilde > 0, bytes[tilde - 1] != UInt8(ascii: "\\")
        else { return nil }
        let digits = bytes[(tilde + 1)...]
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let distance = digits.isEmpty ? 1 : Int(String(decoding: digits, as: UTF8.self)) ?? Int.max
        guard distance <= 2 else {
            throw IndexError(
                .invalidQuery, "fuzzy distance must be 0, 1 or 2 (got \(String(decoding: digits, as: UTF8.self)))",
                context: context)
        }
        return (String(decoding: bytes[..<tilde], as: UTF8.self), distance)
    }

    /// A word with an unescaped `*`, or an unescaped `?` before its last character (`what?` stays a word).
    static func isWildcard(_ word: String) -> Bool {
        let bytes = Array(word.utf8)
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\\"): i += 1
            case UInt8(ascii: "*"): return true
            case UInt8(ascii: "?") where i < bytes.count - 1: return true
            default: break
            }
            i += 1
        }
        return false
    }
}
