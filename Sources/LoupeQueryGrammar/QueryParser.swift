/// A recursive-descent parser over the UTF-8 bytes of a query; see `QueryGrammar.swift` for the grammar.
///
/// Where tantivy's combinator grammar backtracks (a `>` that starts no range is a word, a `/` that ends
/// no regex is a word), the parser looks ahead the same way, so both accept exactly the same queries.
struct QueryParser {
    /// `(` and `NOT` recurse; this bounds the stack for hostile input.
    static let maximumNesting = 100

    typealias C = QueryCharacters

    let text: String
    let bytes: [UInt8]
    /// See `fieldNameStops(_:)`.
    let fieldNameStops: [Int]
    var position = 0
    var nesting = 0
    /// The field of the innermost `field:( ... )` being parsed.
    var defaultField: String?

    init(_ text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
        self.fieldNameStops = Self.fieldNameStops(bytes)
    }

    var atEnd: Bool { position >= bytes.count }

    var current: UInt8? { byte(at: position) }

    func byte(at index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    func hasPrefix(_ keyword: String, at index: Int) -> Bool {
        let count = keyword.utf8.count
        return index + count <= bytes.count && bytes[index..<(index + count)].elementsEqual(keyword.utf8)
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    @inline(never)
    func error(_ message: String, at offset: Int) -> QuerySyntaxError {
        QuerySyntaxError(offset: offset, message: message, query: text)
    }

    /// A leaf; without a field of its own it takes the enclosing group's.
    func leaf(field: String?, kind: LeafQuery.Kind, span: Range<Int>, quote: UInt8? = nil) -> ParsedNode {
        .leaf(LeafQuery(field: field ?? defaultField, kind: kind, span: span), quote: quote)
    }

    /// `*`: all documents, or `field:*` inside `field:( ... )`.
    func star(span: Range<Int>) -> ParsedNode {
        defaultField == nil ? .all : leaf(field: nil, kind: .exists, span: span)
    }

    mutating func skipSeparators() {
        while let byte = current, C.isSeparator(byte) { position += 1 }
    }

    /// True when a `/regex/` may end before `index`: tantivy reads `/a/b` as a word.
    func endsClause(at index: Int) -> Bool {
        guard let byte = byte(at: index) else { return true }
        return C.isSeparator(byte) || byte == C.closeParen || byte == C.caret
    }

    /// True when a `*` before `index` stands alone (all documents, or `field:*`) rather than starting a
    /// word such as `*ing`: nothing that continues a word follows (`x *(b)` is `*` then `(b)`).
    func endsStar(at index: Int) -> Bool {
        guard let byte = byte(at: index) else { return true }
        return C.isSeparator(byte) || (C.endsWord(byte) && byte != C.backslash)
    }

    /// Parses the whole query; whitespace alone gives an empty group.
    mutating func parseQuery() throws(QuerySyntaxError) -> ParsedNode {
        skipSeparators()
        if atEnd { return .clauses([]) }
        return try parseRun(openedAt: nil)
    }

    /// Parses clauses up to the end of the query, or up to the `)` matching the `(` at `openedAt`.
    mutating func parseRun(openedAt: Int?) throws(QuerySyntaxError) -> ParsedNode {
        skipSeparators()
        var elements: [ParsedElement] = []
        while true {
            var operatorBefore: BinaryOperator?
            if !elements.isEmpty {
                operatorBefore = try parseOperator()
            }
            let occurOffset = position
            let occur = parseOccurSymbol()
            if occur != nil {
                try expectClause(afterSymbolAt: occurOffset)
            }
            let node = try parseBoostedLeaf(afterSymbolAt: occur == nil ? nil : occurOffset)
            elements.append(ParsedElement(operatorBefore: operatorBefore, occur: occur, node: node))

            let clauseEnd = position
            skipSeparators()
            guard let next = current else {
                if let openedAt {
                    throw error("`(` is never closed; add a matching `)`", at: openedAt)
                }
                break
            }
            if next == C.closeParen {
                guard openedAt != nil else {
                    throw error("unbalanced `)`: no `(` opens it", at: position)
                }
                break
            }
            // tantivy's grammar needs whitespace after the first clause only: `x "a"b` is three clauses.
            if position == clauseEnd && elements.count == 1 {
                throw unexpectedAfterClause(at: position)
            }
        }
        return ClauseAggregation.aggregate(elements)
    }

    /// Consumes `AND ` or `OR ` (tantivy needs exactly a space after the keyword) and what follows it.
    private mutating func parseOperator() throws(QuerySyntaxError) -> BinaryOperator? {
        let start = position
        let found: BinaryOperator
        if hasPrefix("AND ", at: position) {
            found = .and
            position += 4
        } else if hasPrefix("OR ", at: position) {
            found = .or
            position += 3
        } else {
            return nil
        }
        skipSeparators()
        let name = found == .and ? "AND" : "OR"
        if atEnd || current == C.closeParen {
            throw error("`\(name)` must be followed by a clause", at: start)
        }
        if hasPrefix("AND ", at: position) || hasPrefix("OR ", at: position), scanFieldName() == nil {
            throw error("`\(name)` cannot be followed by another operator", at: position)
        }
        return found
    }

    private mutating func parseOccurSymbol() -> Occur? {
        switch current {
        case C.plus?:
            position += 1
            return .must
        case C.minus?:
            position += 1
            return .mustNot
        default:
            return nil
        }
    }

    /// Fails unless a clause can follow the `+`/`-` at `symbolOffset`.
    private func expectClause(afterSymbolAt symbolOffset: Int) throws(QuerySyntaxError) {
        guard let byte = current, byte != C.closeParen else {
            throw symbolError(at: symbolOffset)
        }
    }

    @inline(never)
    private func symbolError(at symbolOffset: Int) -> QuerySyntaxError {
        let symbol = bytes[symbolOffset] == C.plus ? "+" : "-"
        return error(
            "`\(symbol)` must be directly followed by a clause (no space), as in `\(symbol)term`",
            at: symbolOffset
        )
    }

    /// `leaf` or `leaf^boost`. After a `+`/`-` at `symbolOffset`, whitespace may come before the leaf
    /// only if a range, `IN [...]` or `*` follows: in tantivy those parsers skip leading whitespace.
    mutating func parseBoostedLeaf(afterSymbolAt symbolOffset: Int? = nil) throws(QuerySyntaxError) -> ParsedNode {
        let node: ParsedNode
        // A tab or newline can begin a field name, so `-\ttitle:a` is still a field.
        if let symbolOffset, let byte = current, C.isSeparator(byte), scanFieldName() == nil {
            node = try parseSpacedLeaf(afterSymbolAt: symbolOffset)
        } else {
            node = try parseLeaf()
        }
        guard current == C.caret else { return node }
        let caretOffset = position
        position += 1
        let digitsStart = position
        while let byte = current, C.isDigit(byte) { position += 1 }
        guard position > digitsStart else {
            throw error("`^` must be followed by a boost such as `^2` or `^1.5`", at: caretOffset)
        }
        if current == C.dot, let next = byte(at: position + 1), C.isDigit(next) {
            position += 2
            while let byte = current, C.isDigit(byte) { position += 1 }
        }
        // Digits always parse; a value too large for a Double is infinite, as in Rust.
        let boost = Double(string(digitsStart..<position)) ?? .infinity
        guard abs(boost - 1) > Double.ulpOfOne else { return node }
        return .boost(node, boost)
    }

    /// The leaf of `- >2`, `- IN [a]` or `- *`.
    private mutating func parseSpacedLeaf(afterSymbolAt symbolOffset: Int) throws(QuerySyntaxError) -> ParsedNode {
        skipSeparators()
        let start = position
        switch current {
        case C.less?, C.greater?:
            if let range = parseComparisonRange(field: nil, start: start) {
                return range
            }
        case UInt8(ascii: "I")? where startsSet(at: position):
            return try parseSet(field: nil, start: start)
        case C.star? where endsStar(at: position + 1):
            position += 1
            return star(span: start..<position)
        default:
            break
        }
        throw symbolError(at: symbolOffset)
    }

    /// `IN` followed by whitespace.
    func startsSet(at index: Int) -> Bool {
        hasPrefix("IN", at: index) && byte(at: index + 2).map(C.isSeparator) == true
    }

    /// `NOT` and whitespace.
    private func startsNegation(at index: Int) -> Bool {
        hasPrefix("NOT", at: index) && byte(at: index + 3).map(C.isSeparator) == true
    }

    /// `NOT leaf`, a group holding the leaf as `mustNot`.
    private mutating func parseNegation() throws(QuerySyntaxError) -> ParsedNode {
        let start = position
        position += 3
        skipSeparators()
        guard let next = current, next != C.closeParen else {
            throw error("`NOT` must be followed by a clause", at: start)
        }
        if next == C.minus && scanNegativeNumber() == nil {
            throw error("`NOT` cannot be combined with `-`: write `NOT term` or `-term`", at: position)
        }
        nesting += 1
        defer { nesting -= 1 }
        let node = try parseLeaf()
        return .clauses([ParsedClause(occur: .mustNot, node: node)])
    }

    /// `( run )`, `*`, `NOT leaf`, or a literal with its optional field.
    mutating func parseLeaf() throws(QuerySyntaxError) -> ParsedNode {
        guard nesting < Self.maximumNesting else {
            throw error(
                "the query nests parentheses or `NOT` more than \(Self.maximumNesting) levels deep",
                at: position
            )
        }
        let start = position
        switch current {
        case C.openParen?:
            position += 1
            skipSeparators()
            if current == C.closeParen {
                throw error("empty parentheses: put a clause between `(` and `)`", at: start)
            }
            if atEnd {
                throw error("`(` is never closed; add a matching `)`", at: start)
            }
            nesting += 1
            defer { nesting -= 1 }
            let node = try parseRun(openedAt: start)
            position += 1
            return node
        case C.star? where endsStar(at: position + 1):
            position += 1
            return star(span: start..<position)
        case UInt8(ascii: "N")? where startsNegation(at: position):
            do {
                return try parseNegation()
            } catch {
                // tantivy then reads a literal: `NOT :a` and `NOT\ttitle:a` name the fields `NOT`, `NOT\ttitle`.
                position = start
                if let literal = try? parseLiteral() {
                    return literal
                }
                throw error
            }
        default:
            return try parseLiteral()
        }
    }
}
