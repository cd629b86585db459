/// Reads one JSON text value by value, for a caller that converts what it reads as it goes (a JSONL document
/// becoming an indexed document) instead of building a ``JSONValue`` tree first: no array per object, member or
/// key, and a string without escapes is handed back as a range of the input, not copied.
///
/// The caller walks the structure: it asks for the kind of the next value, then reads it (a scalar), or enters it
/// and steps through its members or elements. The lexing is ``JSONParser``'s (the same strictness, the same
/// string, number and literal rules), so whatever this reader accepts, ``JSONParser`` accepts. Its messages for
/// misplaced punctuation are its own: a caller that must report exactly what ``JSONParser`` would can parse the
/// input again with it on the error path.
@safe
package struct JSONPullReader {
    /// What the next value is, by its first byte.
    package enum Kind: Sendable, Equatable {
        case null, bool, number, string, array, object
    }

    private var reader: JSONReader

    /// Reads `bytes`, which must stay valid while the reader is in use.
    package init(_ bytes: UnsafeRawBufferPointer) {
        reader = unsafe JSONReader(bytes: bytes, maxDepth: JSONParser.defaultMaxDepth)
    }

    /// The offset of the next byte to read.
    package var offset: Int { reader.position }

    /// The kind of the next value, after any whitespace; the value itself is not consumed.
    /// - Throws: ``JSONError`` when no value starts there.
    package mutating func peekKind() throws(JSONError) -> Kind {
        reader.skipWhitespace()
        switch reader.peek() {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), .some(UInt8(ascii: "0")...UInt8(ascii: "9")): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default:
            throw reader.failure("expected a JSON value, found \(reader.describeByte(at: reader.position))")
        }
    }

    /// Consumes the `{` or `[` that ``peekKind()`` found.
    package mutating func enterContainer() {
        reader.position += 1
    }

    /// Moves to the next member of the object entered last: past the `,` before it (unless `first`) and its key
    /// and `:`. Returns where the key's bytes are, or `nil` when the object's `}` comes instead (consumed).
    /// - Throws: ``JSONError`` for anything else.
    package mutating func nextMember(first: Bool) throws(JSONError) -> JSONStringBytes? {
        reader.skipWhitespace()
        switch reader.peek() {
        case UInt8(ascii: "}"):
            reader.position += 1
            return nil
        case UInt8(ascii: ",") where !first:
            reader.position += 1
            reader.skipWhitespace()
        default:
            guard first else {
                throw reader.failure(
                    "expected ',' or '}' after object member, found \(reader.describeByte(at: reader.position))")
            }
        }
        guard reader.peek() == UInt8(ascii: "\"") else {
            throw reader.failure(
                "expected '\"' to begin an object key, found \(reader.describeByte(at: reader.position))")
        }
        let key = try reader.scanString()
        reader.skipWhitespace()
        guard reader.peek() == UInt8(ascii: ":") else {
            throw reader.failure("expected ':' after object key, found \(reader.describeByte(at: reader.position))")
        }
        reader.position += 1
        return key
    }

    /// Moves to the next element of the array entered last, past the `,` before it unless `first`. Returns
    /// `false` when the array's `]` comes instead (consumed).
    /// - Throws: ``JSONError`` for anything else.
    package mutating func nextElement(first: Bool) throws(JSONError) -> Bool {
        reader.skipWhitespace()
        switch reader.peek() {
        case UInt8(ascii: "]"):
            reader.position += 1
            return false
        case UInt8(ascii: ",") where !first:
            reader.position += 1
            return true
        default:
            guard first else {
                throw reader.failure(
                    "expected ',' or ']' after array element, found \(reader.describeByte(at: reader.position))")
            }
            return true
        }
    }

    /// Reads a string (``peekKind()`` said `.string`): the range of the input it spans when it has no escape,
    /// else its unescaped bytes.
    package mutating func readString() throws(JSONError) -> JSONStringBytes {
        try reader.scanString()
    }

    /// Reads a number (``peekKind()`` said `.number`).
    package mutating func readNumber() throws(JSONError) -> JSONNumber {
        try reader.parseNumber()
    }

    /// Reads `true` or `false` (``peekKind()`` said `.bool`).
    package mutating func readBool() throws(JSONError) -> Bool {
        if reader.peek() == UInt8(ascii: "t") {
            try reader.expectLiteral("true")
            return true
        }
        try reader.expectLiteral("false")
        return false
    }

    /// Reads `null` (``peekKind()`` said `.null`).
    package mutating func readNull() throws(JSONError) {
        try reader.expectLiteral("null")
    }

    /// Checks that only whitespace follows.
    /// - Throws: ``JSONError`` at the first other byte.
    package mutating func finish() throws(JSONError) {
        reader.skipWhitespace()
        guard reader.position == reader.end else {
            throw reader.failure(
                "expected end of input after the JSON value, found \(reader.describeByte(at: reader.position))")
        }
    }
}
