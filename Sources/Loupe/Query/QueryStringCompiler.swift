import LoupeAnalysis
import LoupeQueryGrammar

/// Lowers a parsed query string to a `Query` the way tantivy's `QueryParser` does: words without a field go
/// to every default field (one `should` clause per field), each word is run through its field's analyzer
/// (one token → term, several → phrase, none → nothing), string fields take the word as one raw term, and
/// numeric fields parse it. One deliberate difference: `a AND NOT b` excludes `b` from `a` (tantivy returns nothing).
package struct QueryStringCompiler {
    let schema: Schema
    let analyzers: AnalyzerRegistry
    let defaultFields: [String]

    package init(schema: Schema, analyzers: AnalyzerRegistry, defaultFields: [String]) {
        self.schema = schema
        self.analyzers = analyzers
        self.defaultFields = defaultFields
    }

    package func compile(_ text: String) throws(IndexError) -> Query {
        let ast: QueryAST
        do {
            ast = try parseQuery(text)
        } catch {
            throw IndexError(.invalidQuery, error.message, context: .init(byteOffset: error.offset))
        }
        let query = try lower(ast)
        if case .boolean(let clauses) = query, !clauses.isEmpty, clauses.allSatisfy({ $0.occur == .mustNot }) {
            throw IndexError(
                .invalidQuery,
                "a query of only excluded terms matches nothing; add a term to search for, or start with `*` "
                    + "to exclude from every document")
        }
        return query
    }

    private func lower(_ ast: QueryAST) throws(IndexError) -> Query {
        switch ast {
        case .all:
            return .matchAll
        case .boost(let inner, let factor):
            return .boost(try lower(inner), factor: Float(factor))
        case .boolean(let clauses):
            var lowered: [Query.Clause] = []
            for clause in clauses {
                let query = try lower(clause.query)
                switch clause.occur {
                case .must:
                    // `a AND NOT b` parses as +a +(-b). tantivy lets the all-negative group match nothing, so the
                    // whole query finds nothing; Loupe reads it as meant: its exclusions apply to the parent.
                    if case .boolean(let inner) = query, !inner.isEmpty, inner.allSatisfy({ $0.occur == .mustNot }) {
                        lowered += inner
                    } else {
                        lowered.append(Query.Clause(.must, query))
                    }
                case .should: lowered.append(Query.Clause(.should, query))
                case .mustNot: lowered.append(Query.Clause(.mustNot, query))
                }
            }
            return .boolean(lowered)
        case .leaf(let leaf):
            return try lower(leaf)
        }
    }

    private func lower(_ leaf: LeafQuery) throws(IndexError) -> Query {
        let context = IndexError.Context(byteOffset: leaf.span.lowerBound)
        let fields: [String]
        if let field = leaf.field {
            fields = [field]
        } else {
            guard !defaultFields.isEmpty else {
                throw IndexError(
                    .invalidQuery, "the index has no default fields, so every word needs a field (`field:word`)",
                    context: context)
            }
            fields = defaultFields
        }
        var perField: [Query] = []
        for name in fields {
            guard let entry = schema.field(named: name) else {
                throw IndexError(.invalidQuery, "unknown field '\(name)'\(suggestion(for: name))", context: context)
            }
            guard entry.indexed else {
                throw IndexError(.invalidQuery, "field '\(name)' is not indexed, so it cannot be searched", context: context)
            }
            switch leaf.kind {
            case .term(let word):
                if let q = try lowerWords(word, entry, context) { perField.append(q) }
            case .phrase(let words, let slop, let prefix):
                guard slop == 0, !prefix else {
                    throw IndexError(
                        .invalidQuery, "phrase slop (`~N`) and phrase prefix (`*`) come with the full query language (issue #4)",
                        context: context)
                }
                if let q = try lowerWords(words, entry, context) { perField.append(q) }
            case .range:
                throw unsupported("range queries", context)
            case .set:
                throw unsupported("term sets (`IN [...]`)", context)
            case .exists:
                throw unsupported("exists queries (`field:*`)", context)
            case .regex:
                throw unsupported("regex queries", context)
            }
        }
        if perField.count == 1 { return perField[0] }
        return .boolean(perField.map { Query.Clause(.should, $0) })
    }

    /// A word or phrase text on one field; nil when the analyzer leaves no token.
    private func lowerWords(_ text: String, _ entry: FieldEntry, _ context: IndexError.Context) throws(IndexError) -> Query? {
        switch entry.type {
        case .string:
            return .term(field: entry.name, value: .text(text))
        case .text:
            guard let analyzer = analyzers.analyzer(named: entry.tokenizer) else {
                throw IndexError(.invalidQuery, "field '\(entry.name)' uses unknown tokenizer '\(entry.tokenizer)'", context: context)
            }
            let tokens = analyzer.tokens(text).map { String(decoding: $0.bytes, as: UTF8.self) }
            switch tokens.count {
            case 0: return nil
            case 1: return .term(field: entry.name, value: .text(tokens[0]))
            default:
                guard entry.record == .position else {
                    throw IndexError(
                        .invalidQuery,
                        "'\(text)' becomes a phrase on field '\(entry.name)', which does not record positions",
                        context: context)
                }
                return .phrase(field: entry.name, terms: tokens)
            }
        case .u64, .i64, .f64, .bool, .date:
            guard let value = Self.parseValue(text, entry.type) else {
                throw IndexError(
                    .invalidQuery, "'\(text)' is not a valid \(entry.type.rawValue) value for field '\(entry.name)'",
                    context: context)
            }
            return .term(field: entry.name, value: value)
        }
    }

    private static func parseValue(_ text: String, _ type: FieldType) -> FieldValue? {
        switch type {
        case .u64: return UInt64(text).map(FieldValue.u64)
        case .i64: return Int64(text).map(FieldValue.i64)
        case .f64: return Double(text).flatMap { $0.isNaN ? nil : FieldValue.f64($0) }
        case .bool: return text == "true" ? .bool(true) : text == "false" ? .bool(false) : nil
        case .date: return RFC3339.parseMicros(text.utf8).map { _ in FieldValue.text(text) }
        case .text, .string: return .text(text)
        }
    }

    private func unsupported(_ what: String, _ context: IndexError.Context) -> IndexError {
        IndexError(.invalidQuery, "\(what) come with the full query language (issue #4)", context: context)
    }

    /// " — did you mean 'title'?" for the closest field name within two edits, or "".
    private func suggestion(for name: String) -> String {
        let candidates = schema.fields.map(\.name).map { ($0, editDistance(Array(name.utf8), Array($0.utf8))) }
        guard let best = candidates.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return "" }
        return " — did you mean '\(best.0)'?"
    }

    private func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
