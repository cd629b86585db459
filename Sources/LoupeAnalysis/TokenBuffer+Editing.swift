/// Receives the replacement bytes of one term inside ``TokenBuffer/transformTerms(_:)``.
///
/// It starts empty for every token; whatever is appended becomes the token's new term.
public struct TermBuilder: ~Copyable {
    /// The rewritten terms so far; this token's bytes start at `start`.
    var bytes: ContiguousArray<UInt8>

    /// Where the current token's bytes start in `bytes`.
    var start: Int

    /// The number of bytes appended for the current token.
    public var count: Int { bytes.count - start }

    /// Appends one byte to the new term.
    public mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends bytes to the new term.
    public mutating func append(contentsOf term: Span<UInt8>) {
        for index in term.indices {
            bytes.append(term[index])
        }
    }

    /// Appends a string's UTF-8 to the new term.
    public mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}

extension TokenBuffer {
    /// Drops the tokens whose term matches, keeping every other token's position unchanged.
    ///
    /// - Complexity: O(`count`) calls of `shouldRemove`.
    public mutating func removeAll(where shouldRemove: (Span<UInt8>) -> Bool) {
        var kept = 0
        for index in entries.indices {
            let entry = entries[index]
            let remove = shouldRemove(storage.span.extracting(entry.termStart..<entry.termEnd))
            if !remove {
                entries[kept] = entry
                kept += 1
            }
        }
        entries.removeLast(entries.count - kept)
    }

    /// Replaces every term with what `transform` appends to the builder it is given.
    ///
    /// Terms are rewritten into a second reused array, so a rewrite allocates nothing once both arrays
    /// have grown. Positions and offsets are kept.
    ///
    /// - Complexity: O(total term bytes) plus the cost of `transform`.
    public mutating func transformTerms(_ transform: (_ term: Span<UInt8>, _ builder: inout TermBuilder) -> Void) {
        var output = spare
        spare = []
        output.removeAll(keepingCapacity: true)
        var builder = TermBuilder(bytes: output, start: 0)
        for index in entries.indices {
            let entry = entries[index]
            builder.start = builder.bytes.count
            transform(storage.span.extracting(entry.termStart..<entry.termEnd), &builder)
            entries[index].termStart = builder.start
            entries[index].termEnd = builder.bytes.count
        }
        spare = storage
        storage = builder.bytes
    }
}
