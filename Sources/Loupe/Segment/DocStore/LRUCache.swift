/// A map bounded by the total cost of its values that drops the least recently used first. Not thread-safe:
/// `DocStoreCache` keeps each one behind a lock.
///
/// Entries sit in one array, linked newest to oldest through their indices, so a lookup, a move to the front
/// and an eviction are each a dictionary probe plus a few index writes; freed slots are reused.
package struct LRUCache<Key: Hashable, Value> {
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
    private var nodes: [Node] = []
    private var freeNodes: [Int] = []
    private var slots: [Key: Int] = [:]
    private var newest = -1
    private var oldest = -1

    package init(budget: Int) {
        self.budget = budget
    }

    /// Values held.
    package var count: Int { slots.count }

    /// The value for `key`, which becomes the most recently used; nil when absent.
    /// - Complexity: O(1).
    package mutating func value(for key: Key) -> Value? {
        guard let i = slots[key] else { return nil }
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
        if let i = slots[key] {
            totalCost += cost - nodes[i].cost
            nodes[i].value = value
            nodes[i].cost = cost
            moveToFront(i)
        } else {
            let node = Node(key: key, value: value, cost: cost)
            let i: Int
            if let free = freeNodes.popLast() {
                nodes[free] = node
                i = free
            } else {
                nodes.append(node)
                i = nodes.count - 1
            }
            slots[key] = i
            linkFront(i)
            totalCost += cost
        }
        while totalCost > budget, oldest >= 0 { remove(oldest) }
    }

    /// Drops the value for `key`, if any.
    package mutating func removeValue(for key: Key) {
        if let i = slots[key] { remove(i) }
    }

    /// Drops every value whose key satisfies `predicate`.
    /// - Complexity: O(count).
    package mutating func removeAll(where predicate: (Key) -> Bool) {
        for i in slots.values.filter({ predicate(nodes[$0].key) }) { remove(i) }
    }

    private mutating func remove(_ i: Int) {
        unlink(i)
        slots[nodes[i].key] = nil
        totalCost -= nodes[i].cost
        nodes[i].value = nil
        nodes[i].cost = 0
        freeNodes.append(i)
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
