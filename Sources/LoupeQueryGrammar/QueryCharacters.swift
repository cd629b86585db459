/// Byte classes of the query syntax, as tantivy 0.27's grammar draws them.
///
/// Every syntax character is ASCII, so the parser walks UTF-8 bytes; only Unicode whitespace, which ends a
/// word like a space does but does not separate clauses, needs a decoded scalar.
enum QueryCharacters {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let backslash = UInt8(ascii: "\\")
    static let colon = UInt8(ascii: ":")
    static let openParen = UInt8(ascii: "(")
    static let closeParen = UInt8(ascii: ")")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let doubleQuote = UInt8(ascii: "\"")
    static let singleQuote = UInt8(ascii: "'")
    static let star = UInt8(ascii: "*")
    static let caret = UInt8(ascii: "^")
    static let tilde = UInt8(ascii: "~")
    static let plus = UInt8(ascii: "+")
    static let minus = UInt8(ascii: "-")
    static let dot = UInt8(ascii: ".")
    static let slash = UInt8(ascii: "/")
    static let less = UInt8(ascii: "<")
    static let greater = UInt8(ascii: ">")
    static let equals = UInt8(ascii: "=")
    static let backtick = UInt8(ascii: "`")

    /// Separates clauses, operators and range parts (nom's `multispace`). Other Unicode whitespace ends a
    /// word but separates nothing, so tantivy rejects `a\u{A0}b`.
    @inline(__always)
    static func isSeparator(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == newline || byte == carriageReturn
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// Needs a backslash to appear in a field name (tantivy's `SPECIAL_CHARS` plus `'`). Only the space
    /// is special among whitespace: a tab or newline is part of the name, as in tantivy.
    static func isFieldSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case plus, caret, backtick, colon, openBrace, closeBrace, doubleQuote, singleQuote, openBracket,
            closeBracket, openParen, closeParen, UInt8(ascii: "!"), backslash, star, space:
            return true
        default:
            return false
        }
    }

    /// Ends a word (besides whitespace); a backslash instead starts an escape.
    static func endsWord(_ byte: UInt8) -> Bool {
        switch byte {
        case caret, backtick, colon, openBrace, closeBrace, doubleQuote, singleQuote, openBracket,
            closeBracket, openParen, closeParen, backslash:
            return true
        default:
            return false
        }
    }

    /// A backslash before one of these is dropped when the word is read (`a\:b` is `a:b`); before any
    /// other character it stays (`a\*` is `a\*`). Whitespace is handled by the caller.
    static func dropsEscapeInWord(_ byte: UInt8) -> Bool {
        byte == minus || endsWord(byte)
    }

    /// Ends a range bound (besides whitespace). `:`, `^`, `'` and `\` are ordinary characters there, so
    /// dates such as `2015-08-02T18:54:42+02:30` need no quoting.
    static func endsRangeWord(_ byte: UInt8) -> Bool {
        switch byte {
        case openBrace, closeBrace, doubleQuote, openBracket, closeBracket, openParen, closeParen:
            return true
        default:
            return false
        }
    }

    /// The Unicode scalar starting at `index` of valid UTF-8 `bytes`, and its length in bytes.
    static func scalar(in bytes: [UInt8], at index: Int) -> (scalar: Unicode.Scalar, length: Int) {
        let lead = bytes[index]
        let length: Int
        var value: UInt32
        switch lead {
        case 0..<0x80: return (Unicode.Scalar(lead), 1)
        case 0xC0..<0xE0:
            length = 2
            value = UInt32(lead & 0x1F)
        case 0xE0..<0xF0:
            length = 3
            value = UInt32(lead & 0x0F)
        default:
            length = 4
            value = UInt32(lead & 0x07)
        }
        let end = min(index + length, bytes.count)
        for continuation in bytes[(index + 1)..<end] {
            value = value << 6 | UInt32(continuation & 0x3F)
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", end - index)
    }

    /// Whether the character at `index` is whitespace in Rust's sense (`char::is_whitespace`).
    static func isWhitespace(in bytes: [UInt8], at index: Int) -> Bool {
        let byte = bytes[index]
        if byte < 0x80 {
            return isSeparator(byte) || byte == 0x0B || byte == 0x0C
        }
        return scalar(in: bytes, at: index).scalar.properties.isWhitespace
    }
}
