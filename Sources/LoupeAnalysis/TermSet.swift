/// A fixed set of byte strings that answers membership for a borrowed `Span` without allocating.
///
/// `Set<[UInt8]>` would need an array per lookup; this open-addressing table hashes the span directly.
struct TermSet: Sendable {
    /// All members' bytes, back to back.
    private var storage: ContiguousArray<UInt8> = []

    /// `starts[i]..<starts[i + 1]` is member `i` in `storage`.
    private var starts: [Int] = [0]

    /// Member index per slot, or -1; the count is a power of two at least twice the member count.
    private var slots: [Int] = []

    /// Creates the set of the distinct terms in `terms`.
    init(_ terms: some Sequence<[UInt8]>) {
        var unique: [[UInt8]] = []
        var seen = Set<[UInt8]>()
        for term in terms where seen.insert(term).inserted {
            unique.append(term)
        }
        var slotCount = 8
        while slotCount < unique.count * 2 {
            slotCount *= 2
        }
        slots = Array(repeating: -1, count: slotCount)
        for term in unique {
            storage.append(contentsOf: term)
            starts.append(storage.count)
            var slot = Self.hash(storage.span.extracting(starts[starts.count - 2]...)) & (slotCount - 1)
            while slots[slot] >= 0 {
                slot = (slot + 1) & (slotCount - 1)
            }
            slots[slot] = starts.count - 2
        }
    }

    /// The number of members.
    var count: Int { starts.count - 1 }

    /// Whether `term` is a member.
    ///
    /// - Complexity: O(`term.count`) expected.
    func contains(_ term: Span<UInt8>) -> Bool {
        let mask = slots.count - 1
        var slot = Self.hash(term) & mask
        while true {
            let member = slots[slot]
            if member < 0 {
                return false
            }
            if equals(member: member, term) {
                return true
            }
            slot = (slot + 1) & mask
        }
    }

    /// Whether member `member` has exactly the bytes of `term`.
    private func equals(member: Int, _ term: Span<UInt8>) -> Bool {
        let start = starts[member]
        guard starts[member + 1] - start == term.count else { return false }
        for index in term.indices where storage[start + index] != term[index] {
            return false
        }
        return true
    }

    /// FNV-1a: short terms, few members, no need for a keyed hash.
    private static func hash(_ bytes: Span<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for index in bytes.indices {
            hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
