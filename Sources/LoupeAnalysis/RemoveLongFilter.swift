/// tantivy's `RemoveLongFilter`: drops tokens of `limit` UTF-8 bytes or more.
///
/// The limit counts bytes, not characters, and keeps only tokens strictly shorter than it: with the
/// built-in limit of 40, a 39-byte token stays and a 40-byte one goes. A dropped token still consumes its
/// position.
public struct RemoveLongFilter: TokenFilter {
    /// Tokens of this many bytes or more are dropped.
    public var limit: Int

    /// Creates a filter dropping tokens of `limit` bytes or more.
    public init(limit: Int) {
        self.limit = limit
    }

    /// Drops the long tokens.
    public func filter(_ tokens: inout TokenBuffer) {
        let limit = limit
        tokens.removeAll { term in term.count >= limit }
    }
}
