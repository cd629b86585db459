/// The most frequent completions of one- and two-byte prefixes over all of one searcher's segments, per field,
/// merged the first time the searcher is asked for a prefix and kept for its later searches.
///
/// Each segment's `CompletionTable` lists its own most frequent completions; merging them across segments costs a
/// dictionary lookup for every candidate a segment's table leaves out (the threshold algorithm in
/// `WeightBuilder.shortPrefixExpansions`), a few hundred on a dozen segments. The merge depends only on the
/// searcher's segments, which never change, so it is done once per prefix and field, like the tables themselves:
/// a search bar types the same first letters again and again. Results are exactly those of a fresh merge.
package final class ShortPrefixCompletions: Sendable {
    struct Key: Hashable, Sendable {
        var field: Int
        var prefix: [UInt8]
    }

    /// Prefixes kept (about 8 KiB each on a handful of segments), the least recently used dropped past it.
    static let capacity = 512

    private let entries = Locked<(kept: [Key: (expansions: [WeightBuilder.Expansion], used: UInt64)], uses: UInt64)>(
        ([:], 0))

    package init() {}

    /// The completions kept for `key`, if merged already.
    func lookup(_ key: Key) -> [WeightBuilder.Expansion]? {
        entries.withLock { entries -> [WeightBuilder.Expansion]? in
            guard let found = entries.kept[key] else { return nil }
            entries.uses += 1
            entries.kept[key]?.used = entries.uses
            return found.expansions
        }
    }

    /// Keeps `expansions` as `key`'s, dropping the least recently used prefix past the capacity.
    func store(_ key: Key, _ expansions: [WeightBuilder.Expansion]) {
        entries.withLock { entries in
            entries.uses += 1
            entries.kept[key] = (expansions, entries.uses)
            if entries.kept.count > Self.capacity,
                let oldest = entries.kept.min(by: { $0.value.used < $1.value.used })?.key
            {
                entries.kept[oldest] = nil
            }
        }
    }
}
