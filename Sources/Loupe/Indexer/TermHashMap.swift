/// Maps term bytes to dense ids (0, 1, 2 … in order of first appearance), for one field of one segment.
///
/// Open addressing with linear probing over a power-of-two table of `UInt64` slots, each holding the key's
/// 32-bit hash and its id + 1 (0 = empty), so most probes compare one integer before touching key bytes.
/// Keys live back to back in one byte array.
package struct TermHashMap {
    private var slots: [UInt64]
    private var mask: Int
    package private(set) var keys: [UInt8] = []
    /// Start of each id's key in `keys`; one extra entry marks the end of the last key.
    package private(set) var keyStarts: [UInt32] = [0]

    package init(capacity: Int = 1 << 12) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: 0, count: size)
        mask = size - 1
    }

    package var count: Int { keyStarts.count - 1 }

    package var memoryUsage: Int { slots.capacity * 8 + keys.capacity + keyStarts.capacity * 4 }

    /// The key of `id`.
    package func key(_ id: Int) -> ArraySlice<UInt8> {
        keys[Int(keyStarts[id])..<Int(keyStarts[id + 1])]
    }

    /// The id of `key`, inserting it when new. `isNew` tells which.
    @inline(__always)
    package mutating func insert(_ key: UnsafeBufferPointer<UInt8>) -> (id: Int, isNew: Bool) {
        let hash = unsafe Self.hash(key)
        var i = Int(truncatingIfNeeded: hash) & mask
        let tag = hash & 0xFFFF_FFFF_0000_0000
        while true {
            let slot = slots[i]
            if slot == 0 { break }
            if slot & 0xFFFF_FFFF_0000_0000 == tag {
                let id = Int(slot & 0xFFFF_FFFF) - 1
                if unsafe equals(id, key) { return (id, false) }
            }
            i = (i + 1) & mask
        }
        let id = count
        unsafe keys.append(contentsOf: key)
        keyStarts.append(UInt32(keys.count))
        slots[i] = tag | UInt64(id + 1)
        if count * 2 > slots.count { resize() }
        return (id, true)
    }

    private func equals(_ id: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(keyStarts[id])
        let length = Int(keyStarts[id + 1]) - start
        guard length == key.count else { return false }
        return unsafe keys.withUnsafeBufferPointer { stored in
            for j in 0..<length where unsafe stored[start + j] != key[j] { return false }
            return true
        }
    }

    private mutating func resize() {
        let size = slots.count * 2
        var fresh = [UInt64](repeating: 0, count: size)
        let newMask = size - 1
        for id in 0..<count {
            let hash = unsafe keys.withUnsafeBufferPointer {
                unsafe Self.hash(UnsafeBufferPointer(rebasing: $0[Int(keyStarts[id])..<Int(keyStarts[id + 1])]))
            }
            var i = Int(truncatingIfNeeded: hash) & newMask
            while fresh[i] != 0 { i = (i + 1) & newMask }
            fresh[i] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(id + 1)
        }
        slots = fresh
        mask = newMask
    }

    /// FNV-1a folded through a 64-bit finalizer (splitmix64), so low bits index well and high bits tag.
    @inline(__always)
    private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in key.indices { h = (h ^ UInt64(unsafe key[i])) &* 0x0000_0100_0000_01b3 }
        h ^= h >> 30
        h = h &* 0xbf58_476d_1ce4_e5b9
        h ^= h >> 27
        h = h &* 0x94d0_49bb_1331_11eb
        return h ^ (h >> 31)
    }
}
