/// One analyzed token, as an owned value.
///
/// The hot path never builds these (it hands out term bytes from a reused buffer); they exist for
/// ``TextAnalyzer/tokens(_:)``, tests and debugging.
public struct Token: Sendable, Hashable {
    /// The term's UTF-8 bytes after all filters.
    public var bytes: [UInt8]

    /// The token's ordinal in its value, counting tokens that a filter dropped.
    public var position: Int

    /// The byte offset in the value's UTF-8 where the token's source text starts.
    public var offsetFrom: Int

    /// The byte offset one past the token's source text.
    public var offsetTo: Int

    /// Creates a token.
    public init(bytes: [UInt8], position: Int, offsetFrom: Int, offsetTo: Int) {
        self.bytes = bytes
        self.position = position
        self.offsetFrom = offsetFrom
        self.offsetTo = offsetTo
    }

    /// The term decoded as a string, with invalid UTF-8 repaired (for display only).
    public var text: String {
        String(decoding: bytes, as: UTF8.self)
    }
}

extension Token: CustomStringConvertible {
    /// `text@position[from..<to]`, handy in test failures.
    public var description: String {
        "\(text)@\(position)[\(offsetFrom)..<\(offsetTo)]"
    }
}
