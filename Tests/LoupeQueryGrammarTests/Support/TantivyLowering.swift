import LoupeQueryGrammar

/// What tantivy 0.27's `QueryParser` builds from a `QueryAST`, written as make_goldens.py's skeleton, for
/// the differential test's schema: text fields `title` and `body` (default tokenizer; the default
/// fields), u64 `year`, raw-tokenized `tags`.
///
/// It follows tantivy's `query_parser.rs` step by step: a leaf on the default fields is a `should` group
/// over the fields that yield terms; a query of only excluding clauses is an error; `simplify` pulls a
/// group into its parent when all its clauses occur like the group does; `trim_ast` drops empty groups.
/// The tokenizer is a small copy of tantivy's default one (split on non-alphanumeric characters, drop
/// tokens of 40 bytes or more, lowercase), enough for the fixture's queries.
enum TantivyLowering {
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    private enum FieldType { case text, raw, u64 }

    private static let schema: [String: FieldType] = ["title": .text, "body": .text, "year": .u64, "tags": .raw]
    private static let defaultFields = ["title", "body"]

    private indirect enum Logical {
        case clause([(Occur, Logical)])
        case leaf(String)
        case boost(Logical, Float)
    }

    /// The skeleton of the query tantivy builds, or the failure tantivy reports.
    static func skeleton(of ast: QueryAST) throws(Failure) -> String {
        let logical = try lower(ast)
        if case .clause(let clauses) = logical, clauses.isEmpty {
            return "EMPTY"
        }
        if isAllNegative(logical) {
            throw Failure(message: "only excluding terms given")
        }
        return render(simplify(logical))
    }

    private static func lower(_ ast: QueryAST) throws(Failure) -> Logical {
        switch ast {
        case .boolean(let clauses):
            var lowered: [(Occur, Logical)] = []
            for clause in clauses {
                lowered.append((clause.occur, try lower(clause.query)))
            }
            return .clause(lowered)
        case .boost(let query, let boost):
            let inner = try lower(query)
            let score = Float(boost)
            return abs(score - 1) < Float.ulpOfOne ? inner : .boost(inner, score)
        case .all:
            return .leaf("ALL")
        case .leaf(let leaf):
            return try lower(leaf)
        }
    }

    private static func lower(_ leaf: LeafQuery) throws(Failure) -> Logical {
        switch leaf.kind {
        case .term(let text):
            return try literal(text, field: leaf.field, slop: 0, prefix: false)
        case .phrase(let text, let slop, let prefix):
            return try literal(text, field: leaf.field, slop: slop, prefix: prefix)
        case .range(let lower, let upper):
            let field = try targetField(leaf, "range")
            if lower == .unbounded && upper == .unbounded {
                return .clause([])
            }
            let low: String
            switch lower {
            case .included(let value): low = "[" + quote(try boundTerm(value, field: field))
            case .excluded(let value): low = "{" + quote(try boundTerm(value, field: field))
            case .unbounded: low = "*"
            }
            let high: String
            switch upper {
            case .included(let value): high = quote(try boundTerm(value, field: field)) + "]"
            case .excluded(let value): high = quote(try boundTerm(value, field: field)) + "}"
            case .unbounded: high = "*"
            }
            return .leaf("R(\(field),\(low),\(high))")
        case .set(let values):
            let field = try targetField(leaf, "set")
            var terms: [String] = []
            for value in values {
                terms.append(try boundTerm(value, field: field))
            }
            if schema[field] == .u64 {
                terms.sort { UInt64($0) ?? 0 < UInt64($1) ?? 0 }
            } else {
                terms.sort { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }
            }
            var unique: [String] = []
            for term in terms where unique.last != term { unique.append(term) }
            return .leaf(unique.isEmpty ? "S()" : "S(\(field),\(unique.map(quote).joined(separator: ",")))")
        case .exists:
            // tantivy checks neither that the field exists nor that it is a fast field.
            return .leaf("E(\(leaf.field ?? ""))")
        case .regex(let pattern):
            let field = try targetField(leaf, "regex")
            guard schema[field] != .u64 else {
                throw Failure(message: "regex query only supported on text fields")
            }
            guard !hasAnchor(pattern) else {
                throw Failure(message: "invalid regex \(pattern)")
            }
            return .leaf("RE(\(field),\(quote(pattern)))")
        }
    }

    /// A term or phrase, on its field or on each default field.
    private static func literal(_ text: String, field: String?, slop: UInt32, prefix: Bool) throws(Failure) -> Logical {
        var leaves: [Logical] = []
        for field in field.map({ [$0] }) ?? defaultFields {
            let tokens: [String]
            switch try fieldType(field) {
            case .u64:
                guard let number = UInt64(text) else { throw Failure(message: "expected an integer: \(text)") }
                leaves.append(.leaf("T(\(field),\(quote(String(number))))"))
                continue
            case .raw:
                tokens = [text]
            case .text:
                tokens = simpleTokens(text)
            }
            if prefix && tokens.count < 2 {
                throw Failure(message: "phrase prefix needs two terms")
            }
            if tokens.isEmpty { continue }
            let quoted = tokens.map(quote).joined(separator: ",")
            if prefix {
                leaves.append(.leaf("PP(\(field),\(quoted))"))
            } else if tokens.count == 1 {
                leaves.append(.leaf("T(\(field),\(quoted))"))
            } else {
                leaves.append(.leaf("P(\(field),\(quoted),\(slop))"))
            }
        }
        return leaves.count == 1 ? leaves[0] : .clause(leaves.map { (.should, $0) })
    }

    private static func targetField(_ leaf: LeafQuery, _ what: String) throws(Failure) -> String {
        guard let field = leaf.field else {
            throw Failure(message: "\(what) query needs a field")
        }
        _ = try fieldType(field)
        return field
    }

    private static func fieldType(_ field: String) throws(Failure) -> FieldType {
        guard let type = schema[field] else { throw Failure(message: "field does not exist: \(field)") }
        return type
    }

    /// tantivy's automaton regexes reject anchors ("empty match operators are not allowed"): an
    /// unescaped `^` or `$` outside a bracket class.
    private static func hasAnchor(_ pattern: String) -> Bool {
        var escaped = false
        var inClass = false
        for scalar in pattern.unicodeScalars {
            if escaped {
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if inClass {
                inClass = scalar != "]"
            } else if scalar == "[" {
                inClass = true
            } else if scalar == "^" || scalar == "$" {
                return true
            }
        }
        return false
    }

    /// A range bound or set value: exactly one term.
    private static func boundTerm(_ value: String, field: String) throws(Failure) -> String {
        switch try fieldType(field) {
        case .u64:
            guard let number = UInt64(value) else { throw Failure(message: "expected an integer: \(value)") }
            return String(number)
        case .raw:
            return value
        case .text:
            let tokens = simpleTokens(value)
            guard tokens.count == 1 else { throw Failure(message: "bound must be one token: \(value)") }
            return tokens[0]
        }
    }

    /// tantivy's default analyzer: `SimpleTokenizer`, `RemoveLongFilter::limit(40)`, `LowerCaser`.
    static func simpleTokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var token = String.UnicodeScalarView()
        func flush() {
            let word = String(token)
            if !word.isEmpty, word.utf8.count < 40 {
                var lowered = ""
                for scalar in word.unicodeScalars { lowered += scalar.properties.lowercaseMapping }
                tokens.append(lowered)
            }
            token = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                token.append(scalar)
            } else {
                flush()
            }
        }
        flush()
        return tokens
    }

    /// tantivy's `all_negative`: every clause is excluding, at any depth.
    private static func isAllNegative(_ logical: Logical) -> Bool {
        switch logical {
        case .leaf: return false
        case .boost(let inner, _): return isAllNegative(inner)
        case .clause(let clauses): return clauses.allSatisfy { $0.0 == .mustNot || isAllNegative($0.1) }
        }
    }

    /// tantivy's `LogicalAst::simplify`.
    private static func simplify(_ logical: Logical) -> Logical {
        guard case .clause(let clauses) = logical else { return logical }
        var result: [(Occur, Logical)] = []
        for (occur, child) in clauses {
            let simplified = simplify(child)
            if case .clause(let inner) = simplified, occur != .mustNot, inner.allSatisfy({ $0.0 == occur }) {
                result.append(contentsOf: inner)
            } else {
                result.append((occur, simplified))
            }
        }
        return .clause(result)
    }

    /// tantivy's `trim_ast` and `convert_to_query`.
    private static func render(_ logical: Logical) -> String {
        guard let trimmed = trim(logical) else { return "EMPTY" }
        switch trimmed {
        case .leaf(let text):
            return text
        case .boost(let inner, let boost):
            return render(inner) + "^" + format(boost)
        case .clause(let clauses):
            let symbols: [Occur: String] = [.should: "?", .must: "+", .mustNot: "-"]
            return "B(" + clauses.map { (symbols[$0.0] ?? "") + render($0.1) }.joined(separator: " ") + ")"
        }
    }

    private static func trim(_ logical: Logical) -> Logical? {
        guard case .clause(let clauses) = logical else { return logical }
        let kept = clauses.compactMap { clause in trim(clause.1).map { (clause.0, $0) } }
        return kept.isEmpty ? nil : .clause(kept)
    }

    private static func format(_ boost: Float) -> String {
        if abs(boost) < 1e9, Float(Int64(boost)) == boost { return String(Int64(boost)) }
        return String(boost)
    }

    private static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "\"" { result.unicodeScalars.append("\\") }
            result.unicodeScalars.append(scalar)
        }
        return result + "\""
    }
}
