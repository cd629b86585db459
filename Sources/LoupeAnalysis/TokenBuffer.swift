/// The tokens of one text value, stored flat so that a reused buffer allocates nothing per token.
///
/// Term bytes live back to back in one byte array and each token is a fixed-size entry pointing into it.
/// Tokenizers append; filters edit or drop in place (see `TokenBuffer+Editing.swift`). Cleared and
/// refilled for every value, it keeps its capacity.
public struct TokenBuffer: Sendable {
    /// One token: where its term sits in `storage`, and its position and source offsets.
    struct Entry: Sendable {
        var termStart: Int
        var termEnd: Int
        var position: Int
        var offsetFrom: Int
        var offsetTo: Int
    }

    /// Every term's bytes, back to back in token order.
    ///
    /// A `ContiguousArray`, as are the other byte buffers whose spans the pipeline hands out: its `span`
    /// back-deploys to every supported OS, where `Array.span` needs macOS 26 / iOS 26 (see Package.swift).
    var storage: ContiguousArray<UInt8> = []

    /// One entry per token, in token order.
    var entries: [Entry] = []

    /// Second byte array that rewriting filters fill and then swap with `storage`.
    var spare: ContiguousArray<UInt8> = []

    /// Scratch memory for the built-in filters, kept here so that it is reused from value to value.
    var workspace = FilterWorkspace()

    /// Creates an empty buffer.
    public init() {}

    /// The number of tokens.
    public var count: Int { entries.count }

    /// Whether the buffer holds no token.
    public var isEmpty: Bool { entries.isEmpty }

    /// Appends a token; tokenizers call this once per token, in position order.
    ///
    /// - Parameters:
    ///   - term: the term bytes, copied into the buffer.
    ///   - position: the token's ordinal in the value.
    ///   - offsetFrom: the byte offset where the token's source text starts.
    ///   - offsetTo: the byte offset one past its end.
    /// - Complexity: O(`term.count`), amortized.
    public mutating func append(_ term: Span<UInt8>, position: Int, offsetFrom: Int, offsetTo: Int) {
        let start = storage.count
        for index in term.indices {
            storage.append(term[index])
        }
        entries.append(
            Entry(
                termStart: start,
                termEnd: storage.count,
                position: position,
                offsetFrom: offsetFrom,
                offsetTo: offsetTo
            )
        )
    }

    /// Calls `body` with the term bytes of the token at `index`, without copying them.
    ///
    /// - Precondition: `index` is in `0..<count`.
    public func withTerm<Result>(at index: Int, _ body: (Span<UInt8>) -> Result) -> Result {
        let entry = entries[index]
        return body(storage.span.extracting(entry.termStart..<entry.termEnd))
    }

    /// The position of the token at `index`.
    ///
    /// - Precondition: `index` is in `0..<count`.
    public func position(at index: Int) -> Int {
        entries[index].position
    }

    /// The token at `index` as an owned ``Token`` (allocates; for tests and debugging).
    ///
    /// - Precondition: `index` is in `0..<count`.
    public func token(at index: Int) -> Token {
        let entry = entries[index]
        return Token(
            bytes: Array(storage[entry.termStart..<entry.termEnd]),
            position: entry.position,
            offsetFrom: entry.offsetFrom,
            offsetTo: entry.offsetTo
        )
    }

    /// Forgets all tokens but keeps the memory, ready for the next value.
    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
    }
}
