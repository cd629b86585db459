extension QueryParser {
    /// The character at `offset` cannot start a clause or a value.
    @inline(never)
    func unexpectedCharacter(at offset: Int) -> QuerySyntaxError {
        guard let byte = byte(at: offset) else {
            return error("unexpected end of the query", at: offset)
        }
        switch byte {
        case C.backslash:
            return error("`\\` at the end of the query escapes nothing; write `\\\\` for a backslash", at: offset)
        case C.colon:
            return error("a field name is missing before `:`; write `\\:` to search for a colon", at: offset)
        case C.closeBracket, C.closeBrace:
            return error("`\(describe(byte))` closes no range or list; escape it with `\\`", at: offset)
        case C.caret:
            return error("a boost must follow a clause, as in `term^2`", at: offset)
        case C.backtick:
            return error("`` ` `` is reserved; escape it as ``\\` ``", at: offset)
        default:
            return error("unexpected \(describeCharacter(at: offset))", at: offset)
        }
    }

    /// The character at `offset` directly follows a clause, where only whitespace, `)` or the end may.
    @inline(never)
    func unexpectedAfterClause(at offset: Int) -> QuerySyntaxError {
        switch bytes[offset] {
        case C.caret:
            return error("a clause takes a single boost, written as a number such as `^2`", at: offset)
        case C.tilde where offset > 0 && bytes[offset - 1] == C.star,
            C.star where offset > 0 && C.isDigit(bytes[offset - 1]):
            return error("a phrase takes a slop such as `~2` or a prefix `*`, not both", at: offset)
        case C.tilde:
            return error("`~` must be followed by a slop such as `~2`, and only after a quoted phrase", at: offset)
        case C.doubleQuote, C.singleQuote:
            return error(
                "a quote cannot touch the text before it: add a space, or escape it as `\\\(describe(bytes[offset]))`",
                at: offset
            )
        case C.colon:
            return error("unexpected `:` after a value; write `\\:` to search for a colon", at: offset)
        case C.openParen, C.openBracket, C.openBrace:
            return error(
                "`\(describe(bytes[offset]))` must start a new clause: add a space before it, or escape it with `\\`",
                at: offset
            )
        case C.backslash where offset + 1 == bytes.count:
            return error("`\\` at the end of the query escapes nothing; write `\\\\` for a backslash", at: offset)
        default:
            return error("unexpected \(describeCharacter(at: offset)); separate clauses with whitespace", at: offset)
        }
    }

    /// `AND`, `OR`, `NOT` or `IN` found where a word was expected.
    @inline(never)
    func keywordError(_ keyword: String, at offset: Int) -> QuerySyntaxError {
        let end = offset + keyword.utf8.count
        let quoteHint = " (write `\"\(keyword)\"` to search for the word)"
        switch keyword {
        case "AND", "OR":
            if end == bytes.count || bytes[end] == C.closeParen {
                return error("`\(keyword)` must be followed by a clause" + quoteHint, at: offset)
            }
            if startsRun(at: offset) {
                return error("`\(keyword)` must follow a clause" + quoteHint, at: offset)
            }
            return error("`\(keyword)` must be followed by exactly one space, then a clause" + quoteHint, at: offset)
        case "NOT":
            return error("`NOT` must be followed by whitespace and a clause" + quoteHint, at: offset)
        default:
            return error(
                "`IN` must be followed by whitespace and a list in brackets, as in `field: IN [a b]`" + quoteHint,
                at: offset
            )
        }
    }

    /// True when only whitespace or `(` precede `offset` back to the start of its run.
    private func startsRun(at offset: Int) -> Bool {
        var index = offset - 1
        while index >= 0, C.isSeparator(bytes[index]) { index -= 1 }
        return index < 0 || bytes[index] == C.openParen
    }

    private func describe(_ byte: UInt8) -> String {
        String(decoding: [byte], as: UTF8.self)
    }

    private func describeCharacter(at offset: Int) -> String {
        let scalar = C.scalar(in: bytes, at: offset).scalar
        if scalar.properties.isWhitespace || scalar.value < 0x20 {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let code = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            return "U+\(code) (only spaces, tabs and newlines separate clauses)"
        }
        return "`\(scalar)`"
    }
}
