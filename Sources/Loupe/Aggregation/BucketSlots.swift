// Bucket slots: the dense numbers a bucket aggregation gives its buckets within one segment, so that counts and
// sub-aggregation state live in arrays indexed by slot rather than in maps. A bucket is a (parent bucket, key)
// pair — the key a term ordinal, a mapped value or a histogram position. Each table is a struct the per-value
// loop takes as a generic parameter, so the lookup inlines.

/// Maps (parent bucket, key) pairs to slots.
protocol BucketSlotTable {
    /// The slot of `key` under `parent`, made on first use (then numbered `slotCount - 1`, except in
    /// `DenseSlots`, whose slots all exist).
    mutating func slot(parent: UInt32, key: UInt64) -> UInt32
    /// Slots in use: every slot number is below it.
    var slotCount: Int { get }
    /// Makes room for parents `0..<count`.
    mutating func reserve(parents count: Int)
    /// The (key, slot) pairs of each parent `0..<parents`, in no particular order; with `DenseSlots`, every key.
    func slotsByParent(_ parents: Int) -> [[(key: UInt64, slot: UInt32)]]
    /// Bytes the table holds.
    var memoryBytes: Int { get }
    /// Whether `slot` makes new slots (all but `DenseSlots`, whose slots exist once reserved).
    static var makesSlots: Bool { get }
}

/// Keys below a known bound (string ordinals): slot = parent × keyCount + key, no lookup at all.
struct DenseSlots: BucketSlotTable {
    let keyCount: Int
    private(set) var parents = 0

    init(keyCount: Int) {
        self.keyCount = keyCount
    }

    @inline(__always) mutating func slot(parent: UInt32, key: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: Int(parent) &* keyCount &+ Int(key))
    }

    var slotCount: Int { parents * keyCount }

    mutating func reserve(parents count: Int) { parents = max(parents, count) }

    func slotsByParent(_ parents: Int) -> [[(key: UInt64, slot: UInt32)]] {
        (0..<parents).map { parent in
            let base = parent * keyCount
            return (0..<keyCount).map { (UInt64($0), UInt32(base + $0)) }
        }
    }

    var memoryBytes: Int { 0 }

    static var makesSlots: Bool { false }
}

/// Any keys under any parents, through a hash map: nested bucket aggregations over many values.
struct HashedSlots: BucketSlotTable {
    private struct Pair: Hashable {
        let parent: UInt32
        let key: UInt64
    }

    private var map: [Pair: UInt32] = [:]
    private var owners: [UInt32] = []
    private var keys: [UInt64] = []

    @inline(__always) mutating func slot(parent: UInt32, key: UInt64) -> UInt32 {
        let next = UInt32(truncatingIfNeeded: keys.count)
        let slot = map[Pair(parent: parent, key: key), default: next]
        if slot == next {
            map[Pair(parent: parent, key: key)] = next
            owners.append(parent)
            keys.append(key)
        }
        return slot
    }

    var slotCount: Int { keys.count }

    mutating func reserve(parents count: Int) {}

    func slotsByParent(_ parents: Int) -> [[(key: UInt64, slot: UInt32)]] {
        var out = Array(repeating: [(key: UInt64, slot: UInt32)](), count: parents)
        for (slot, owner) in owners.enumerated() where Int(owner) < parents {
            out[Int(owner)].append((keys[slot], UInt32(slot)))
        }
        return out
    }

    var memoryBytes: Int { map.capacity * 24 + owners.capacity * 4 + keys.capacity * 8 }

    static var makesSlots: Bool { true }
}

/// One parent's keys within a window of nearby values (histogram positions, the values of a numeric field): a
/// table indexed by `key - base` gives the slot, growing to cover new keys. When the keys spread wider than the
/// window may grow (`maxWindow` entries), the table falls back to a hash map, and lookups cost a hash from then
/// on.
struct WindowSlots: BucketSlotTable {
    static let maxWindow = 1 << 20

    private var base: UInt64 = 0
    /// Per key offset, its slot + 1 (0: none yet).
    private var window: [UInt32] = []
    private var keys: [UInt64] = []
    private var spilled: [UInt64: UInt32]?

    @inline(__always) mutating func slot(parent: UInt32, key: UInt64) -> UInt32 {
        let offset = key &- base
        if offset < UInt64(window.count) {
            let slot = window[Int(offset)]
            if slot != 0 { return slot &- 1 }
        }
        return insert(key)
    }

    private mutating func insert(_ key: UInt64) -> UInt32 {
        let next = UInt32(truncatingIfNeeded: keys.count)
        if spilled != nil {
            let slot = spilled![key, default: next]
            if slot == next {
                spilled![key] = next
                keys.append(key)
            }
            return slot
        }
        if window.isEmpty {
            base = key &- 32
            window = Array(repeating: 0, count: 64)
        }
        var offset = key &- base
        if offset >= UInt64(window.count) {
            // Signed distances: keys are order-preserving images of signed values, so wrapping differences
            // below 2^63 are ahead and the rest behind.
            let ahead = offset < 1 << 63
            let needed = ahead ? offset + 1 : UInt64(window.count) + (0 &- offset)
            guard needed <= UInt64(Self.maxWindow) else {
                spill()
                return insert(key)
            }
            let size = Int(min(max(needed * 2, UInt64(window.count) * 2), UInt64(Self.maxWindow)))
            if ahead {
                window += Array(repeating: 0, count: size - window.count)
            } else {
                let grow = size - window.count
                window = Array(repeating: 0, count: grow) + window
                base = base &- UInt64(grow)
            }
            offset = key &- base
        }
        window[Int(offset)] = next &+ 1
        keys.append(key)
        return next
    }

    private mutating func spill() {
        var map: [UInt64: UInt32] = [:]
        map.reserveCapacity(keys.count * 2)
        for (slot, key) in keys.enumerated() { map[key] = UInt32(slot) }
        spilled = map
        window = []
        base = 0
    }

    var slotCount: Int { keys.count }

    mutating func reserve(parents count: Int) {}

    func slotsByParent(_ parents: Int) -> [[(key: UInt64, slot: UInt32)]] {
        [keys.enumerated().map { ($0.element, UInt32($0.offset)) }] + Array(repeating: [], count: max(0, parents - 1))
    }

    var memoryBytes: Int { window.capacity * 4 + keys.capacity * 8 + (spilled?.capacity ?? 0) * 16 }

    static var makesSlots: Bool { true }
}

/// Documents per slot.
struct SlotCounts {
    fileprivate(set) var values: [UInt32] = []

    var count: Int { values.count }

    subscript(_ slot: UInt32) -> Int { Int(slot) < values.count ? Int(values[Int(slot)]) : 0 }

    /// Makes room for slots `0..<count`.
    mutating func ensure(_ count: Int) {
        if values.count < count { values += repeatElement(0, count: count - values.count) }
    }

    var memoryBytes: Int { values.capacity * 4 }
}

/// Where a bucket aggregator's loop puts each (document, slot) it counts during one block: the slot's count goes
/// up, and the pair is queued for the sub-aggregators. Both are written through buffers made big enough before
/// the block (`withBucketSink`), each write checked against its buffer's bounds; an increment of, or an append
/// to, an array held in `self` would check the array's uniqueness every time.
@safe
struct BucketSink {
    private let counts: UnsafeMutableBufferPointer<UInt32>
    private let docs: UnsafeMutableBufferPointer<DocID>
    private let slots: UnsafeMutableBufferPointer<UInt32>
    /// Pairs queued so far.
    private(set) var queued = 0

    fileprivate init(
        _ counts: UnsafeMutableBufferPointer<UInt32>, _ docs: UnsafeMutableBufferPointer<DocID>,
        _ slots: UnsafeMutableBufferPointer<UInt32>
    ) {
        unsafe self.counts = counts
        unsafe self.docs = docs
        unsafe self.slots = slots
    }

    /// Counts `doc` in `slot`, and queues the pair when there are sub-aggregators. A slot past the table (from a
    /// damaged column's value) makes no bucket, and nothing is queued for it.
    @inline(__always) mutating func add(_ doc: DocID, _ slot: UInt32) {
        guard unsafe Int(slot) < counts.count else { return }
        unsafe counts[Int(slot)] &+= 1
        if unsafe queued < docs.count {
            unsafe docs[queued] = doc
            unsafe slots[queued] = slot
            queued &+= 1
        }
    }
}

/// Runs one block's loop with a sink over `counts` (grown to `slots` slots) and, when `queueing`, over room for
/// `room` pairs after those already in `pending`; the pairs the loop queued stay in `pending`.
func withBucketSink<R>(
    _ counts: inout SlotCounts, slots: Int, _ pending: inout DocBlock, queueing: Bool, room: Int,
    _ body: (inout BucketSink) -> R
) -> R {
    counts.ensure(slots)
    let start = pending.count
    if queueing {
        pending.docs += repeatElement(0, count: room)
        pending.parents += repeatElement(0, count: room)
    }
    let (result, queued) = unsafe counts.values.withUnsafeMutableBufferPointer { c in
        unsafe pending.docs.withUnsafeMutableBufferPointer { d in
            unsafe pending.parents.withUnsafeMutableBufferPointer { p in
                let docs = unsafe UnsafeMutableBufferPointer(rebasing: d[start...])
                let parents = unsafe UnsafeMutableBufferPointer(rebasing: p[start...])
                var sink = unsafe BucketSink(c, docs, parents)
                let result = body(&sink)
                return (result, sink.queued)
            }
        }
    }
    if queueing {
        pending.docs.removeLast(room - queued)
        pending.parents.removeLast(room - queued)
    }
    return result
}
