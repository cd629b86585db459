/// A query that the grammar rejects, with the byte offset of the problem.
///
/// `description` quotes the query and puts a caret under the offending character:
///
/// ```
/// query syntax error at byte 3: `(` is never closed; add a matching `)`
///   a (b c
///     ^
/// ```
package struct QuerySyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset in the UTF-8 query text; equal to the text's length when the query ended too early.
    package var offset: Int
    /// What is wrong and, where it helps, how to fix it.
    package var message: String
    /// The query text that failed to parse.
    package var query: String

    /// Creates an error.
    package init(offset: Int, message: String, query: String) {
        self.offset = offset
        self.message = message
        self.query = query
    }

    /// The message, the query on its own line and a caret under the offending character.
    package var description: String {
        "query syntax error at byte \(offset): \(message)\n" + Self.pointer(at: offset, in: query)
    }

    /// The query, indented, with a caret under the character that holds byte `byte`: for any error that
    /// carries a byte offset into a query (the command line shows engine errors the same way).
    package static func pointer(at byte: Int, in query: String) -> String {
        var line = ""
        var column = 0
        var offset = 0
        for scalar in query.unicodeScalars {
            if offset < byte { column += 1 }
            offset += UTF8.width(scalar)
            // Control characters would break the alignment of the caret line.
            line.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? " " : scalar)
        }
        return "  " + line + "\n  " + String(repeating: " ", count: column) + "^"
    }
}
