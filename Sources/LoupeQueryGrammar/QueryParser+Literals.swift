extension QueryParser {
    /// `[field:] value` or `field:( run )`. A field name is taken whenever one is written: tantivy never
    /// retries `a:b` as a word.
    mutating func parseLiteral() throws(QuerySyntaxError) -> ParsedNode {
        let start = position
        guard let (field, afterColon) = scanFieldName() else {
            return try parseValue(field: nil, start: start)
        }
        position = afterColon
        skipSeparators()
        guard let next = current, next != C.closeParen else {
            throw error("`\(string(start..<afterColon))` must be followed by a value", at: position)
        }
        if next == C.openParen {
            // The group's leaves without a field of their own get this one as they are parsed, so that
            // duplicates are found as in tantivy (`title:(a title:a)` is one clause).
            let outerField = defaultField
            defaultField = field
            defer { defaultField = outerField }
            return try parseLeaf()
        }
        return try parseValue(field: field, start: start)
    }

    /// A field name and the offset after its `:`, or nil when no name followed by `:` starts here.
    /// `\` escapes the characters that would otherwise end the name; before others it is kept.
    func scanFieldName() -> (name: String, end: Int)? {
        guard let first = current else { return nil }
        let restStart: Int
        if first == C.backslash {
            guard let escaped = byte(at: position + 1), C.isFieldSpecial(escaped) else { return nil }
            restStart = position + 2
        } else if C.isFieldSpecial(first) || first == C.minus {
            return nil
        } else {
            restStart = position + 1
        }
        let stop = fieldNameStops[restStart]
        var colon = stop
        // `title :a` names `title`: tantivy allows whitespace before the colon.
        while let byte = byte(at: colon), C.isSeparator(byte) { colon += 1 }
        guard byte(at: colon) == C.colon else { return nil }

        var name: [UInt8] = []
        name.reserveCapacity(stop - position)
        var index = position
        while index < stop {
            // Same stepping as `fieldNameStops`, so an escape never straddles `stop`.
            if bytes[index] == C.backslash, index + 1 < stop, C.isFieldSpecial(bytes[index + 1]) {
                name.append(bytes[index + 1])
                index += 2
            } else {
                name.append(bytes[index])
                index += 1
            }
        }
        return (String(decoding: name, as: UTF8.self), colon + 1)
    }

    /// For each offset, where a field name going on from there stops: at the first unescaped special
    /// character (`:` included) or at the end. Built once, right to left, so that trying a field name at
    /// every clause stays linear even in `a\tb\tc...`, where tabs belong to field names.
    static func fieldNameStops(_ bytes: [UInt8]) -> [Int] {
        var stops = [Int](repeating: bytes.count, count: bytes.count + 2)
        var index = bytes.count - 1
        while index >= 0 {
            let byte = bytes[index]
            if byte == C.backslash {
                let escapes = index + 1 < bytes.count && C.isFieldSpecial(bytes[index + 1])
                stops[index] = stops[index + (escapes ? 2 : 1)]
            } else {
                stops[index] = C.isFieldSpecial(byte) ? index : stops[index + 1]
            }
            index -= 1
        }
        return stops
    }

    /// The value of a literal: a range, a set, `*`, a regex, or a term or phrase.
    mutating func parseValue(field: String?, start: Int) throws(QuerySyntaxError) -> ParsedNode {
        switch current {
        case C.openBracket?, C.openBrace?:
            return try parseBracketedRange(field: field, start: start)
        case C.less?, C.greater?:
            if let range = parseComparisonRange(field: field, start: start) {
                return range
            }
        case UInt8(ascii: "I")? where startsSet(at: position):
            return try parseSet(field: field, start: start)
        case C.star? where field != nil && endsStar(at: position + 1):
            position += 1
            return leaf(field: field, kind: .exists, span: start..<position)
        case C.slash?:
            if let regex = parseRegex(field: field, start: start) {
                return regex
            }
        default:
            break
        }
        return try parseTermOrPhrase(field: field, start: start)
    }

    /// A word, quoted phrase or negative number, then `*` (phrase prefix) or `~n` (slop). An unquoted
    /// word has swallowed any `*` or `~` already, so only quotes and numbers take them.
    private mutating func parseTermOrPhrase(field: String?, start: Int) throws(QuerySyntaxError) -> ParsedNode {
        let (text, quote) = try parseSimpleTerm()
        var slop: UInt32 = 0
        var prefix = false
        var modified = false
        if current == C.star {
            position += 1
            prefix = true
            modified = true
        } else if current == C.tilde, let digit = byte(at: position + 1), C.isDigit(digit) {
            let tildeOffset = position
            position += 1
            let digitsStart = position
            while let byte = current, C.isDigit(byte) { position += 1 }
            guard let value = UInt32(string(digitsStart..<position)) else {
                throw error(
                    "slop `~\(string(digitsStart..<position))` is too large (at most \(UInt32.max))",
                    at: tildeOffset
                )
            }
            slop = value
            modified = true
        }
        let kind: LeafQuery.Kind = quote != nil || modified ? .phrase(text, slop: slop, prefix: prefix) : .term(text)
        return leaf(field: field, kind: kind, span: start..<position, quote: quote)
    }

    /// A negative number, a quoted phrase or a word (tantivy's `simple_term`), and its quote if any.
    mutating func parseSimpleTerm() throws(QuerySyntaxError) -> (text: String, quote: UInt8?) {
        switch current {
        case let quote? where quote == C.doubleQuote || quote == C.singleQuote:
            return (try parseQuoted(), quote)
        case C.minus?:
            guard let number = scanNegativeNumber() else {
                throw error("a value cannot start with `-`; escape it as `\\-` or quote it", at: position)
            }
            position += number.utf8.count
            return (number, nil)
        default:
            return (try parseWord(), nil)
        }
    }

    /// `-digits` or `-digits.digits`, without consuming it.
    func scanNegativeNumber() -> String? {
        var index = position + 1
        while let byte = byte(at: index), C.isDigit(byte) { index += 1 }
        guard index > position + 1 else { return nil }
        if byte(at: index) == C.dot, let next = byte(at: index + 1), C.isDigit(next) {
            index += 1
            while let byte = byte(at: index), C.isDigit(byte) { index += 1 }
        }
        return string(position..<index)
    }

    /// `"..."` or `'...'`; a backslash makes the next character literal.
    private mutating func parseQuoted() throws(QuerySyntaxError) -> String {
        let open = position
        let quote = bytes[open]
        position += 1
        var content: [UInt8] = []
        while let byte = current {
            if byte == quote {
                position += 1
                return String(decoding: content, as: UTF8.self)
            }
            // Escaping byte by byte is safe: UTF-8 continuation bytes are never a quote or a backslash.
            if byte == C.backslash, let escaped = self.byte(at: position + 1) {
                content.append(escaped)
                position += 2
            } else {
                content.append(byte)
                position += 1
            }
        }
        let quoteText = quote == C.doubleQuote ? "\"" : "'"
        throw error("unterminated phrase: this `\(quoteText)` is never closed", at: open)
    }

    /// An unquoted word. `\` makes the next character part of the word; the backslash is dropped before
    /// whitespace and the characters that would end the word, and kept before any other.
    mutating func parseWord() throws(QuerySyntaxError) -> String {
        let start = position
        var text: [UInt8] = []
        while let byte = current {
            if byte == C.backslash {
                guard position + 1 < bytes.count else { break }
                let escapedLength = C.scalar(in: bytes, at: position + 1).length
                let escaped = bytes[position + 1]
                let dropsBackslash =
                    (escaped < 0x80 && C.dropsEscapeInWord(escaped)) || C.isWhitespace(in: bytes, at: position + 1)
                if !dropsBackslash { text.append(byte) }
                text.append(contentsOf: bytes[(position + 1)..<(position + 1 + escapedLength)])
                position += 1 + escapedLength
                continue
            }
            let length = C.scalar(in: bytes, at: position).length
            if C.endsWord(byte) || (position == start && byte == C.minus) || C.isWhitespace(in: bytes, at: position) {
                break
            }
            text.append(contentsOf: bytes[position..<(position + length)])
            position += length
        }
        guard position > start else {
            throw unexpectedCharacter(at: start)
        }
        let raw = bytes[start..<position]
        if let keyword = ["AND", "OR", "NOT", "IN"].first(where: { raw.elementsEqual($0.utf8) }) {
            throw keywordError(keyword, at: start)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
