/// The segments (and deleted-documents generations) that searchers of one `Index` have open, so garbage
/// collection never removes a file a searcher of this process still reads — even where removing a mapped file
/// would not disturb the mapping, and for directories whose files are not mappings at all.
package final class OpenSegments: Sendable {
    /// Per segment, per deleted-documents generation (nil: none), the number of open readers.
    private let counts = Locked<[SegmentID: [UInt64?: Int]]>([:])

    package init() {}

    func opened(_ segment: SegmentID, generation: UInt64?) {
        counts.withLock { $0[segment, default: [:]][generation, default: 0] += 1 }
    }

    func closed(_ segment: SegmentID, generation: UInt64?) {
        counts.withLock { counts in
            guard let n = counts[segment]?[generation] else { return }
            if n > 1 {
                counts[segment]?[generation] = n - 1
            } else {
                counts[segment]?[generation] = nil
                if counts[segment]?.isEmpty == true { counts[segment] = nil }
            }
        }
    }

    /// Whether a reader has `segment` open (with any generation).
    package func contains(_ segment: SegmentID) -> Bool { counts.withLock { $0[segment] != nil } }

    /// Whether a reader has `segment` open with the deleted-documents file of `generation`.
    package func contains(_ segment: SegmentID, generation: UInt64) -> Bool {
        counts.withLock { $0[segment]?[generation] != nil }
    }
}
