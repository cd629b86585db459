/// Why a JSON document was rejected, and where.
package struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Zero-based byte offset of the problem in the parsed buffer: the offending byte, or the
    /// buffer's length when the input ended too early.
    package var offset: Int
    /// What the parser expected or found, e.g. "expected ',' or '}' after object member".
    package var message: String

    /// Creates an error at `offset`.
    package init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// The message followed by the offset, ready for a log line.
    package var description: String {
        "\(message) at byte \(offset)"
    }
}
