import LoupeCodec

/// A segment's most frequent terms under each one- and two-byte prefix of a field, built in memory the first time
/// instant search or a suggestion completes so short a prefix there, and kept with the segment's reader (which
/// searchers share across reloads). Completing "s" otherwise walks every term starting with "s" on every keystroke.
struct CompletionTable: Sendable {
    /// Terms kept per prefix.
    static let perPrefix = 32
    /// The longest prefix (in bytes) the table answers.
    static let longestPrefix = 2

    /// Per prefix (`key(of:)`), its most frequent terms, in byte order.
    private var terms: [UInt32: TermMatches] = [:]

    /// A prefix's most frequent terms while the table is built.
    private struct Best {
        var entries: [(docFreq: UInt32, key: [UInt8], info: TermInfo)] = []
        /// The entry with the fewest documents (the first of equals), once `perPrefix` are kept.
        var least = 0

        /// Keeps the term if it is among the most frequent so far. Terms come in byte order, so one that only ties
        /// the least frequent kept never displaces it.
        mutating func offer(_ key: UnsafeRawBufferPointer, _ info: TermInfo) {
            if entries.count < CompletionTable.perPrefix {
                entries.append((info.docFreq, unsafe Array(key), info))
                if entries.count == CompletionTable.perPrefix { findLeast() }
            } else if info.docFreq > entries[least].docFreq {
                entries[least] = (info.docFreq, unsafe Array(key), info)
                findLeast()
            }
        }

        private mutating func findLeast() {
            least = 0
            for i in entries.indices where entries[i].docFreq < entries[least].docFreq { least = i }
        }
    }

    /// The terms of `field` in `dictionary`, walked once.
    init(_ dictionary: FieldTermDictionary) throws(FormatError) {
        var best: [UInt32: Best] = [:]
        try unsafe dictionary.forEachTerm(from: [], includingLower: true, to: nil, includingUpper: false) { key, info in
            for length in stride(from: 1, through: min(Self.longestPrefix, key.count), by: 1) {
                unsafe best[Self.key(of: UnsafeRawBufferPointer(rebasing: key[0..<length])), default: Best()]
                    .offer(key, info)
            }
            return true
        }
        for (prefix, kept) in best {
            var matches = TermMatches(keepingKeys: true)
            for entry in kept.entries.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                unsafe entry.key.withUnsafeBytes { unsafe matches.append($0, entry.info, 0) }
            }
            terms[prefix] = matches
        }
    }

    /// The most frequent terms starting with `prefix` (1 or 2 bytes), in byte order.
    func completions(of prefix: [UInt8]) -> TermMatches? {
        unsafe prefix.withUnsafeBytes { unsafe terms[Self.key(of: $0)] }
    }

    /// A prefix of one or two bytes as one number: its length, then its bytes.
    private static func key(of prefix: UnsafeRawBufferPointer) -> UInt32 {
        var key = UInt32(prefix.count) << 16
        for i in 0..<prefix.count { key |= UInt32(unsafe prefix[i]) << (8 * (1 - i)) }
        return key
    }
}

/// The completion tables of one segment's fields, built when first asked for.
package final class CompletionTables: Sendable {
    private let tables = Locked<[Int: CompletionTable]>([:])

    package init() {}

    /// The table of `field`, built from `dictionary` the first time (outside the lock: two threads may both
    /// build it, and the first stored wins).
    func table(_ field: Int, _ dictionary: FieldTermDictionary) throws(FormatError) -> CompletionTable {
        if let table = tables.withLock({ $0[field] }) { return table }
        let built = try CompletionTable(dictionary)
        return tables.withLock { tables in
            if let existing = tables[field] { return existing }
            tables[field] = built
            return built
        }
    }
}
