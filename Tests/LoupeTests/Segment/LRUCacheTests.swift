import Loupe
import Testing
import TestSupport

@Suite struct LRUCacheTests {
    @Test func evictsTheLeastRecentlyUsedWithinTheBudget() {
        var lru = LRUCache<Int, String>(budget: 10)
        lru.insert("a", for: 1, cost: 4)
        lru.insert("b", for: 2, cost: 4)
        #expect(lru.value(for: 1) == "a")  // 2 is now the oldest
        lru.insert("c", for: 3, cost: 4)
        #expect(lru.value(for: 2) == nil && lru.value(for: 1) == "a" && lru.value(for: 3) == "c")
        #expect(lru.count == 2 && lru.totalCost == 8)
        lru.insert("C", for: 3, cost: 7)  // replacing re-costs; 1 is now the oldest and goes
        #expect(lru.value(for: 1) == nil && lru.value(for: 3) == "C" && lru.totalCost == 7)
        lru.insert("huge", for: 4, cost: 11)
        #expect(lru.value(for: 4) == nil && lru.totalCost == 7, "a value over the whole budget is not kept")
        lru.insert("big", for: 3, cost: 11)
        #expect(lru.value(for: 3) == nil && lru.count == 0 && lru.totalCost == 0, "nor does it keep the key's old value")
    }

    @Test func removalsFreeSlotsForReuse() {
        var lru = LRUCache<Int, Int>(budget: 100)
        for i in 0..<10 { lru.insert(i, for: i, cost: 10) }
        lru.removeAll { $0 % 2 == 0 }
        #expect(lru.count == 5 && lru.totalCost == 50)
        lru.removeValue(for: 3)
        for i in 10..<16 { lru.insert(i, for: i, cost: 10) }
        #expect(lru.count == 10 && lru.totalCost == 100)
        #expect(lru.value(for: 1) == 1 && lru.value(for: 3) == nil && lru.value(for: 15) == 15)
    }

    /// Against a naive model (an array ordered oldest first), over random operations.
    @Test(arguments: 0..<20 as Range<UInt64>)
    func matchesANaiveModel(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var lru = LRUCache<Int, Int>(budget: 60)
        var model: [(key: Int, value: Int, cost: Int)] = []
        for step in 0..<2_000 {
            let key = Int.random(in: 0..<25, using: &rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let value = step
                let cost = Int.random(in: 1...20, using: &rng)
                lru.insert(value, for: key, cost: cost)
                model.removeAll { $0.key == key }
                model.append((key, value, cost))
                while model.reduce(0, { $0 + $1.cost }) > 60 { model.removeFirst() }
            case 5:
                lru.removeValue(for: key)
                model.removeAll { $0.key == key }
            default:
                let expected = model.firstIndex { $0.key == key }.map { i in
                    let entry = model.remove(at: i)
                    model.append(entry)
                    return entry.value
                }
                #expect(lru.value(for: key) == expected, "seed \(seed) step \(step)")
            }
            #expect(lru.count == model.count && lru.totalCost == model.reduce(0) { $0 + $1.cost }, "seed \(seed) step \(step)")
        }
    }
}
