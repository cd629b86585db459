/// The dictionary matches of the last few instant-search words, per segment of one searcher, so that the next
/// keystroke filters them instead of walking every segment's dictionary again.
///
/// A prefix word's matches hold those of every longer word it starts, with the same field and typo budget: a
/// term with a prefix within d edits of "iconograp" has one within d edits of "iconogra" (cut the alignment
/// where "iconogra" ends), and a term within d edits of the whole word "iconograph" has too. So typing one more
/// letter, or finishing the word with a space, runs the word's automaton over the matches kept for the word
/// before it — a few thousand terms at most — rather than over the dictionaries. Results are exactly those of a
/// fresh walk; only the work differs.
package final class KeystrokeCache: Sendable {
    struct Key: Hashable, Sendable {
        var field: Int
        var term: [UInt8]
        var maxTypos: Int
        var isPrefix: Bool
        var exactPrefix: Int
    }

    /// Words kept, most recently used last.
    static let capacity = 16

    private let entries = Locked<[(key: Key, matches: [TermMatches])]>([])

    package init() {}

    /// The matches of `key` itself, or else those of the longest kept prefix word of the same field and budget
    /// whose term starts `key`'s (a superset), with whether they are `key`'s own.
    func lookup(_ key: Key) -> (matches: [TermMatches], exact: Bool)? {
        entries.withLock { entries -> (matches: [TermMatches], exact: Bool)? in
            var best: Int?
            for i in entries.indices {
                let kept = entries[i].key
                if kept == key {
                    let entry = entries.remove(at: i)
                    entries.append(entry)
                    return (entry.matches, true)
                }
                guard kept.isPrefix, kept.field == key.field, kept.maxTypos == key.maxTypos,
                    kept.exactPrefix == key.exactPrefix, key.term.starts(with: kept.term)
                else { continue }
                if best.map({ entries[$0].key.term.count < kept.term.count }) ?? true { best = i }
            }
            return best.map { (entries[$0].matches, false) }
        }
    }

    /// Keeps `matches` as `key`'s, dropping the least recently used word past the capacity.
    func store(_ key: Key, _ matches: [TermMatches]) {
        entries.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.append((key, matches))
            if entries.count > Self.capacity { entries.removeFirst() }
        }
    }
}
