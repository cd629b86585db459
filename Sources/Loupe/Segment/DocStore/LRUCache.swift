/// A map of decoded store blocks bounded by their total cost, which drops the least recently used first. Not
/// thread-safe: `DocStoreCache` keeps each one behind a lock.
///
/// Entries sit in one array, linked newest to oldest through their indices, and an open-addressing table of
/// those indices (linear probing, at most half full, backward-shift deletion, so no tombstones) finds them: a
/// lookup, a move to the front and an eviction are each a probe plus a few index writes, and freed entries are
/// reused. Not a generic `Dictionary`: its first use in a process builds the metadata of its storage class and
/// looks up the key's conformances, 0.35 M instructions (a tenth of a millisecond) that every `idx search` paid
/// on its first fetch; and a multiplicative hash of two integers costs less than a SipHash per fetch.
package struct LRUCache: Sendable {
    package typealias Key = DocStoreCache.Key
    package typealias Value = DocStoreCache.Entry

    private struct Node {
        var key: Key
        /// Nil once evicted, so the value's memory goes with it.
        var value: Value?
        var cost: Int
        var newer = -1
        var older = -1
    }

    /// The total cost the cache may hold.
    package let budget: Int
    /// The total cost of the values held.
    package private(set) var totalCost = 0
    /// Values held.
    package private(set) var count = 0
    private var nodes: [Node] = []
    private var freeNodes: [Int] = []
    /// Per slot, 1 + the index of the node whose key hashes there or after it, or 0 for an empty slot.
    private var slots = [Int32](repeating: 0, count: 16)
    private var newest = -1
    private var oldest = -1

    package init(budget: Int) {
        self.budget = budget
    }

    /// The value for `key`, which becomes the most recently used; nil when absent.
    /// - Complexity: O(1) expected.
    package mutating func value(for key: Key) -> Value? {
        guard case .found(_, let i) = find(key) else { return nil }
        moveToFront(i)
        return nodes[i].value
    }

    /// Stores `value` for `key` as the most recently used, replacing any value it had, then drops the least recently
    /// used until the total cost fits the budget. A value costing more than the whole budget is not kept.
    /// - Complexity: O(1) amortized, plus O(1) per value dropped.
    package mutating func insert(_ value: Value, for key: Key, cost: Int) {
        guard cost <= budget else {
            removeValue(for: key)
            return
        }
        switch find(key) {
        case .found(_, let i):
            totalCost += cost - nodes[i].cost
            nodes[i].value = value
            nodes[i].cost = cost
            moveToFront(i)
        case .empty(let slot):
            let node = Node(key: key, value: value, cost: cost)
            let i: Int
            if let free = freeNodes.popLast() {
                nodes[free] = node
                i = free
            } else {
                nodes.append(node)
                i = nodes.count - 1
            }
            slots[slot] = Int32(i + 1)
            count += 1
            linkFront(i)
            totalCost += cost
            if count * 2 > slots.count { rehash(capacity: slots.count * 2) }
        }
        while totalCost > budget, oldest >= 0 { remove(oldest) }
    }

    /// Changes the value for `key` in place, if there is one; that is not a use.
    /// - Complexity: O(1) expected.
    package mutating func modifyValue(for key: Key, _ body: (inout Value) -> Void) {
        guard case .found(_, let i) = find(key), var value = nodes[i].value else { return }
        // Released from the node first, so that the value is uniquely referenced while `body` changes it.
        nodes[i].value = nil
        body(&value)
        nodes[i].value = value
    }

    /// Drops the value for `key`, if any.
    package mutating func removeValue(for key: Key) {
        if case .found(_, let i) = find(key) { remove(i) }
    }

    /// Drops every value whose key satisfies `predicate`.
    /// - Complexity: O(count).
    package mutating func removeAll(where predicate: (Key) -> Bool) {
        var i = newest
        while i >= 0 {
            let next = nodes[i].older
            if predicate(nodes[i].key) { remove(i) }
            i = next
        }
    }

    private enum Probe {
        case found(slot: Int, node: Int)
        /// Where the key would go.
        case empty(slot: Int)
    }

    private func find(_ key: Key) -> Probe {
        let mask = slots.count - 1
        var slot = Self.hash(key) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return .empty(slot: slot) }
            if nodes[entry - 1].key == key { return .found(slot: slot, node: entry - 1) }
            slot = (slot + 1) & mask
        }
    }

    /// The top bits of a multiplicative mix of both parts (Fibonacci hashing).
    private static func hash(_ key: Key) -> Int {
        let mixed = (key.store &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(truncatingIfNeeded: key.block)
        return Int(truncatingIfNeeded: (mixed &* 0xBF58_476D_1CE4_E5B9) >> 32)
    }

    private mutating func remove(_ i: Int) {
        guard case .found(let slot, _) = find(nodes[i].key) else { return }
        vacate(slot)
        unlink(i)
        totalCost -= nodes[i].cost
        count -= 1
        nodes[i].value = nil
        nodes[i].cost = 0
        freeNodes.append(i)
    }

    /// Empties `slot`, moving back any later entry of its probe run that could no longer be reached.
    private mutating func vacate(_ slot: Int) {
        let mask = slots.count - 1
        var hole = slot
        var next = slot
        while true {
            next = (next + 1) & mask
            let entry = Int(slots[next])
            if entry == 0 { break }
            let home = Self.hash(nodes[entry - 1].key) & mask
            // The entry stays if its home lies cyclically in (hole, next]: the hole is not on its probe path.
            let reachable = hole <= next ? home > hole && home <= next : home > hole || home <= next
            if !reachable {
                slots[hole] = slots[next]
                hole = next
            }
        }
        slots[hole] = 0
    }

    private mutating func rehash(capacity: Int) {
        slots = [Int32](repeating: 0, count: capacity)
        let mask = capacity - 1
        var i = newest
        while i >= 0 {
            var slot = Self.hash(nodes[i].key) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(i + 1)
            i = nodes[i].older
        }
    }

    private mutating func moveToFront(_ i: Int) {
        guard i != newest else { return }
        unlink(i)
        linkFront(i)
    }

    private mutating func linkFront(_ i: Int) {
        nodes[i].newer = -1
        nodes[i].older = newest
        if newest >= 0 { nodes[newest].newer = i }
        newest = i
        if oldest < 0 { oldest = i }
    }

    private mutating func unlink(_ i: Int) {
        let (newer, older) = (nodes[i].newer, nodes[i].older)
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
        nodes[i].newer = -1
        nodes[i].older = -1
    }
}
