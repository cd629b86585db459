import LoupeAnalysis
import LoupeQueryGrammar

/// Lowers a parsed query string to a `Query` the way tantivy's `QueryParser` does: words without a field go
/// to every default field (one `should` clause per field), each word is run through its field's analyzer
/// (one token → term, several → phrase, none → nothing), string fields take the word as one raw term, and
/// numeric fields parse it; ranges, sets, exists, regexes, sloppy and prefix phrases map to their queries.
///
/// Beyond tantivy (each listed in Docs/QUERY-SYNTAX.md): `word~N` is a fuzzy term (tantivy: the phrase "word N"),
/// a word with `*` (or a `?` before its end) is a prefix or wildcard term (tantivy drops the `*`), and
/// `a AND NOT b` excludes `b` from `a` (tantivy returns nothing).
package struct QueryStringCompiler {
    let schema: Schema
    let analyzers: AnalyzerRegistry
    let defaultFields: [String]
    let options: QueryParserOptions

    package init(
        schema: Schema, analyzers: AnalyzerRegistry, defaultFields: [String], options: QueryParserOptions = .init()
    ) {
        self.schema = schema
        self.analyzers = analyzers
        self.defaultFields = defaultFields
        self.options = options
    }

    package func compile(_ text: String) throws(IndexError) -> Query {
        let ast: QueryAST
        do {
            ast = try parseQuery(text, defaultConjunction: options.conjunctionByDefault)
        } catch {
            guard options.lenient else {
                throw IndexError(.invalidQuery, error.message, context: .init(byteOffset: error.offset))
            }
            let words = try? parseQuery(Self.plainWords(text), defaultConjunction: options.conjunctionByDefault)
            ast = words ?? .boolean([])
        }
        let query = try lower(ast) ?? .boolean([Query.Clause](), minimumShouldMatch: 0)
        if case .boolean(let clauses, _) = query, !clauses.isEmpty, clauses.allSatisfy({ $0.occur == .mustNot }) {
            guard options.lenient else {
                throw IndexError(
                    .invalidQuery,
                    "a query of only excluded terms matches nothing; add a term to search for, or start with `*` "
                        + "to exclude from every document")
            }
            return .boolean([Query.Clause(.must, .matchAll)] + clauses)
        }
        return query
    }

    /// The text with every character the grammar treats specially replaced by a space: what a lenient parse
    /// falls back to when the text is not valid syntax.
    private static func plainWords(_ text: String) -> String {
        let special = Set("+-&|!(){}[]^\"'~*?:\\/<>=`".unicodeScalars)
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(special.contains(scalar) ? " " : scalar) }
        return String(out).split(separator: " ").filter { !["AND", "OR", "NOT", "IN", "TO"].contains($0) }.joined(
            separator: " ")
    }

    /// The query of a node, nil when a lenient parse dropped it.
    private func lower(_ ast: QueryAST) throws(IndexError) -> Query? {
        switch ast {
        case .all:
            return .matchAll
        case .boost(let inner, let factor):
            return try lower(inner).map { .boost($0, factor: Float(factor)) }
        case .boolean(let clauses):
            var lowered: [Query.Clause] = []
            for clause in clauses {
                guard let query = try lower(clause.query) else { continue }
                switch clause.occur {
                case .must:
                    // `a AND NOT b` parses as +a +(-b). tantivy lets the all-negative group match nothing, so the
                    // whole query finds nothing; Loupe reads it as meant: its exclusions apply to the parent.
                    if case .boolean(let inner, _) = query, !inner.isEmpty, inner.allSatisfy({ $0.occur == .mustNot }) {
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
            do {
                return try lower(leaf)
            } catch {
                if options.lenient { return nil }
                throw error
            }
        }
    }

    private func lower(_ leaf: LeafQuery) throws(IndexError) -> Query? {
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
                throw IndexError(
                    .invalidQuery, "unknown field '\(name)'\(schema.suggestion(for: name))",
                    context: context.with(field: name))
            }
            let lowering = LeafLowering(entry: entry, analyzers: analyzers, context: context.with(field: name))
            if let q = try lowering.lower(leaf.kind) { perField.append(q) }
        }
        if perField.isEmpty { return nil }
        if perField.count == 1 { return perField[0] }
        return .boolean(perField.map { Query.Clause(.should, $0) })
    }
}

extension IndexError.Context {
    func with(field: String) -> Self {
        var copy = self
        copy.field = field
        return copy
    }
}
