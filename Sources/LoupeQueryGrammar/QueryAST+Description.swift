extension QueryAST: CustomStringConvertible {
    /// A compact form for logs and tests, close to tantivy's `Debug` of `UserInputAst`: groups in
    /// parentheses with `?` (should), `+` (must) and `-` (must not) before each clause, `(q)^2` for boosts,
    /// and leaves as `field:value` with values quoted only where the query syntax would need it.
    ///
    /// `(?title:"rust lang"~2 +year:[2010 TO *} -tags:IN[a b])^1.5`
    package var description: String {
        switch self {
        case .boolean(let clauses):
            return "(" + clauses.map { $0.description }.joined(separator: " ") + ")"
        case .leaf(let leaf):
            return leaf.description
        case .boost(let query, let boost):
            let inner: String
            if case .boolean = query { inner = query.description } else { inner = "(\(query))" }
            return inner + "^" + Self.format(boost)
        case .all:
            return "*"
        }
    }

    /// `2` rather than `2.0`, as tantivy prints boosts.
    static func format(_ number: Double) -> String {
        if abs(number) < 1e15, Double(Int64(number)) == number {
            return String(Int64(number))
        }
        return String(number)
    }
}

extension Clause: CustomStringConvertible {
    /// The clause's occurrence symbol followed by its query.
    package var description: String {
        let symbol: String
        switch occur {
        case .should: symbol = "?"
        case .must: symbol = "+"
        case .mustNot: symbol = "-"
        }
        return symbol + query.description
    }
}

extension LeafQuery: CustomStringConvertible {
    /// `field:value`, or just `value` for the default fields.
    package var description: String {
        let prefix = field.map { Self.render($0, plainIf: Self.isPlainFieldName) + ":" } ?? ""
        switch kind {
        case .term(let text):
            return prefix + Self.render(text, plainIf: Self.isPlainWord)
        case .phrase(let text, let slop, let isPrefix):
            return prefix + Self.quoted(text) + (slop > 0 ? "~\(slop)" : "") + (isPrefix ? "*" : "")
        case .range(let lower, let upper):
            let low: String
            switch lower {
            case .included(let value): low = "[" + Self.render(value, plainIf: Self.isPlainBound)
            case .excluded(let value): low = "{" + Self.render(value, plainIf: Self.isPlainBound)
            case .unbounded: low = "{*"
            }
            let high: String
            switch upper {
            case .included(let value): high = Self.render(value, plainIf: Self.isPlainBound) + "]"
            case .excluded(let value): high = Self.render(value, plainIf: Self.isPlainBound) + "}"
            case .unbounded: high = "*}"
            }
            return prefix + low + " TO " + high
        case .set(let values):
            return prefix + "IN[" + values.map { Self.render($0, plainIf: Self.isPlainWord) }.joined(separator: " ")
                + "]"
        case .exists:
            return prefix + "*"
        case .regex(let pattern):
            return prefix + "/" + pattern + "/"
        }
    }

    private static func render(_ text: String, plainIf isPlain: (String) -> Bool) -> String {
        isPlain(text) ? text : quoted(text)
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { result.unicodeScalars.append("\\") }
            result.unicodeScalars.append(scalar)
        }
        return result + "\""
    }

    private static func isPlainFieldName(_ text: String) -> Bool {
        !text.isEmpty && !text.utf8.contains { QueryCharacters.isFieldSpecial($0) || QueryCharacters.isSeparator($0) }
    }

    /// Would read back as this one word.
    private static func isPlainWord(_ text: String) -> Bool {
        guard let first = text.utf8.first, first != QueryCharacters.minus,
            !["AND", "OR", "NOT", "IN"].contains(text)
        else { return false }
        return !text.unicodeScalars.contains {
            $0.properties.isWhitespace || ($0.isASCII && QueryCharacters.endsWord(UInt8($0.value)))
        }
    }

    private static func isPlainBound(_ text: String) -> Bool {
        !text.isEmpty
            && !text.unicodeScalars.contains {
                $0.properties.isWhitespace || ($0.isASCII && QueryCharacters.endsRangeWord(UInt8($0.value)))
            }
    }
}
