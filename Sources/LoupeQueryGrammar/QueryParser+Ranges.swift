extension QueryParser {
    /// `[lower TO upper]` with `[`/`]` inclusive, `{`/`}` exclusive and `*` open.
    mutating func parseBracketedRange(field: String?, start: Int) throws(QuerySyntaxError) -> ParsedNode {
        let open = position
        let lowerInclusive = bytes[open] == C.openBracket
        position += 1
        skipSeparators()
        guard let lower = scanRangeValue() else {
            throw unfinishedRange(open: open, expecting: "a lower bound")
        }
        let afterLower = position
        skipSeparators()
        guard position > afterLower, hasPrefix("TO", at: position),
            let afterTo = byte(at: position + 2), C.isSeparator(afterTo)
        else {
            throw unfinishedRange(open: open, expecting: "` TO ` after the lower bound")
        }
        position += 2
        skipSeparators()
        guard let upper = scanRangeValue() else {
            throw unfinishedRange(open: open, expecting: "an upper bound after `TO`")
        }
        skipSeparators()
        guard let close = current, close == C.closeBracket || close == C.closeBrace else {
            throw unfinishedRange(open: open, expecting: "`]` or `}` to close the range")
        }
        position += 1
        let kind = LeafQuery.Kind.range(
            lower: bound(lower, inclusive: lowerInclusive),
            upper: bound(upper, inclusive: close == C.closeBracket)
        )
        return leaf(field: field, kind: kind, span: start..<position)
    }

    /// `>a`, `>=a`, `<a`, `<=a`; nil (nothing consumed) when no bound follows, for then tantivy reads
    /// the `>` as a word.
    mutating func parseComparisonRange(field: String?, start: Int) -> ParsedNode? {
        let saved = position
        let isGreater = bytes[position] == C.greater
        position += 1
        let inclusive = current == C.equals
        if inclusive { position += 1 }
        skipSeparators()
        guard let value = scanRangeValue() else {
            position = saved
            return nil
        }
        let limit = bound(value, inclusive: inclusive)
        let kind = LeafQuery.Kind.range(lower: isGreater ? limit : .unbounded, upper: isGreater ? .unbounded : limit)
        return leaf(field: field, kind: kind, span: start..<position)
    }

    /// `*` is open on both bracket styles and after `>`/`<` alike: tantivy's grammar keeps `>=*` as a
    /// `"*"` bound, but its query parser treats that bound as open.
    private func bound(_ value: String, inclusive: Bool) -> Bound {
        if value == "*" { return .unbounded }
        return inclusive ? .included(value) : .excluded(value)
    }

    /// A range bound: a negative number or a run of characters up to whitespace or a bracket. No escapes
    /// and no quotes, as in tantivy.
    private mutating func scanRangeValue() -> String? {
        if current == C.minus, let number = scanNegativeNumber() {
            position += number.utf8.count
            return number
        }
        let start = position
        while let byte = current {
            let isExcluded = C.endsRangeWord(byte) || (position == start && byte == C.backtick)
            if isExcluded || C.isWhitespace(in: bytes, at: position) { break }
            position += C.scalar(in: bytes, at: position).length
        }
        return position > start ? string(start..<position) : nil
    }

    @inline(never)
    private func unfinishedRange(open: Int, expecting: String) -> QuerySyntaxError {
        let isClosedLater = bytes[position...].contains { $0 == C.closeBracket || $0 == C.closeBrace }
        guard isClosedLater else {
            let bracket = bytes[open] == C.openBracket ? "[" : "{"
            return error("unterminated range: this `\(bracket)` is never closed with `]` or `}`", at: open)
        }
        return error("range: expected \(expecting), as in `[a TO b]`", at: position)
    }

    /// `IN [a b c]`: words, quoted phrases or negative numbers separated by whitespace. As in tantivy,
    /// whitespace may follow `[` but not precede `]`.
    mutating func parseSet(field: String?, start: Int) throws(QuerySyntaxError) -> ParsedNode {
        let keywordOffset = position
        position += 2
        skipSeparators()
        guard current == C.openBracket else {
            throw error("`IN` must be followed by a list in brackets, as in `field: IN [a b]`", at: keywordOffset)
        }
        let open = position
        position += 1
        skipSeparators()
        var values: [String] = []
        while current != C.closeBracket {
            guard !atEnd else {
                throw error("unterminated list: this `[` is never closed with `]`", at: open)
            }
            values.append(try parseSimpleTerm().text)
            if current == C.closeBracket { break }
            let separatorStart = position
            skipSeparators()
            guard position > separatorStart, !atEnd else {
                if atEnd { throw error("unterminated list: this `[` is never closed with `]`", at: open) }
                throw error("list values must be separated by whitespace", at: position)
            }
            if current == C.closeBracket {
                throw error("remove the whitespace before `]`: tantivy rejects it in `IN [...]`", at: separatorStart)
            }
        }
        position += 1
        return leaf(field: field, kind: .set(values), span: start..<position)
    }

    /// `/pattern/` followed by the end of the clause; nil (nothing consumed) otherwise, for then tantivy
    /// reads a word. `\/` stands for `/`; other backslashes stay for the regex engine.
    mutating func parseRegex(field: String?, start: Int) -> ParsedNode? {
        var index = position + 1
        var pattern: [UInt8] = []
        while let byte = byte(at: index), byte != C.slash {
            if byte == C.backslash, self.byte(at: index + 1) == C.slash {
                pattern.append(C.slash)
                index += 2
            } else {
                pattern.append(byte)
                index += 1
            }
        }
        guard !pattern.isEmpty, byte(at: index) == C.slash, endsClause(at: index + 1) else {
            return nil
        }
        position = index + 1
        let kind = LeafQuery.Kind.regex(String(decoding: pattern, as: UTF8.self))
        return leaf(field: field, kind: kind, span: start..<position)
    }
}
