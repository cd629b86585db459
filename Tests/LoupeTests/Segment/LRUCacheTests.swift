import Loupe
import TestSupport
import Testing

@Suite struct LRUCacheTests {
    static func key(_ block: Int, store: UInt64 = 1) -> DocStoreCache.Key { .init(store: store, block: block) }
    static func value(_ tag: Int) -> DocStoreCache.Entry {
        .init(block: .init(bytes: [UInt8(truncatingIfNeeded: tag)], resume: nil), validated: [0])
    }
    static func tag(_ value: DocStoreCache.Entry?) -> Int? { value.map { Int($0.block.bytes[0]) } }

    @Test func evictsTheLeastRecentlyUsedWithinTheBudget() {
        var lru = LRUCache(budget: 10)
        lru.insert(Self.value(1), for: Self.key(1), cost: 4)
        lru.insert(Self.value(2), for: Self.key(2), cost: 4)
        #expect(Self.tag(lru.value(for: Self.key(1))) == 1) // 2 is now the oldest
        lru.insert(Self.value(3), for: Self.key(3), cost: 4)
        #expect(lru.value(for: Self.key(2)) == nil)
        #expect(Self.tag(lru.value(for: Self.key(1))) == 1 && Self.tag(lru.value(for: Self.key(3))) == 3)
        #expect(lru.count == 2 && lru.totalCost == 8)
        lru.insert(Self.value(33), for: Self.key(3), cost: 7) // replacing re-costs; 1 is now the oldest and goes
        #expect(lru.value(for: Self.key(1)) == nil && Self.tag(lru.value(for: Self.key(3))) == 33 && lru.totalCost == 7)
        lru.insert(Self.value(4), for: Self.key(4), cost: 11)
        #expect(lru.value(for: Self.key(4)) == nil && lru.totalCost == 7, "a value over the whole budget is not kept")
        lru.insert(Self.value(5), for: Self.key(3), cost: 11)
        #expect(lru.value(for: Self.key(3)) == nil, "nor does it keep the key's old value")
        #expect(lru.count == 0 && lru.totalCost == 0)
    }

    @Test func removalsFreeEntriesForReuse() {
        var lru = LRUCache(budget: 100)
        for i in 0..<10 { lru.insert(Self.value(i), for: Self.key(i, store: UInt64(i % 2)), cost: 10) }
        lru.removeAll { $0.store == 0 }
        #expect(lru.count == 5 && lru.totalCost == 50)
        lru.removeValue(for: Self.key(3, store: 1))
        for i in 10..<16 { lru.insert(Self.value(i), for: Self.key(i), cost: 10) }
        #expect(lru.count == 10 && lru.totalCost == 100)
        #expect(Self.tag(lru.value(for: Self.key(1, store: 1))) == 1 && lru.value(for: Self.key(3, store: 1)) == nil)
        #expect(Self.tag(lru.value(for: Self.key(15))) == 15 && lru.value(for: Self.key(2, store: 0)) == nil)
    }

    @Test func valuesChangeInPlaceWithoutCountingAsAUse() {
        var lru = LRUCache(budget: 2)
        lru.insert(Self.value(1), for: Self.key(1), cost: 1)
        lru.insert(Self.value(2), for: Self.key(2), cost: 1)
        lru.modifyValue(for: Self.key(1)) { $0.markValidated(5) }
        lru.modifyValue(for: Self.key(9)) { _ in Issue.record("no value for key 9") }
        lru.insert(Self.value(3), for: Self.key(3), cost: 1)
        #expect(lru.value(for: Self.key(1)) == nil, "1 stayed the least recently used")
        lru.modifyValue(for: Self.key(2)) { $0.markValidated(63) }
        let second = lru.value(for: Self.key(2))
        #expect(second?.isValidated(63) == true && second?.isValidated(5) == false)
    }

    /// The cache remembers which documents of a block were validated, across a longer prefix replacing a shorter one.
    @Test func cacheRemembersValidatedDocuments() {
        let cache = DocStoreCache(budgetBytes: 1 << 20)
        let key = Self.key(0)
        let short = DocStoreCache.DecodedBlock(bytes: [1, 2, 3], resume: .init(input: 1, output: 3, isComplete: false))
        cache.insert(short, documents: 100, validated: 70, for: key)
        #expect(cache.block(key, document: 70)?.validated == true && cache.block(key, document: 3)?.validated == false)
        cache.markValidated(key, document: 3)
        cache.insert(DocStoreCache.DecodedBlock(bytes: [1, 2], resume: nil), documents: 100, validated: 4, for: key)
        let kept = cache.block(key, document: 0)?.block.bytes
        #expect(kept == [1, 2, 3], "a shorter prefix does not replace a longer one")
        let whole = DocStoreCache.DecodedBlock(bytes: [1, 2, 3, 4], resume: nil)
        cache.insert(whole, documents: 100, validated: 99, for: key)
        let cached = cache.block(key, document: 0)
        #expect(cached?.block.bytes == [1, 2, 3, 4] && cached?.block.resume == nil)
        #expect([3, 4, 70, 99].allSatisfy { cache.block(key, document: $0)?.validated == true })
        #expect(cache.block(key, document: 5)?.validated == false)
    }

    /// Against a naive model (an array ordered oldest first), over random operations on keys that collide in the
    /// table, across its growth and with removals from the middle of probe runs.
    @Test(arguments: 0..<20 as Range<UInt64>)
    func matchesANaiveModel(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let budget = 400
        var lru = LRUCache(budget: budget)
        var model: [(key: DocStoreCache.Key, tag: Int, cost: Int)] = []
        for step in 0..<3_000 {
            let key = Self.key(Int.random(in: 0..<60, using: &rng), store: UInt64.random(in: 0..<3, using: &rng))
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let cost = Int.random(in: 1...20, using: &rng)
                lru.insert(Self.value(step), for: key, cost: cost)
                model.removeAll { $0.key == key }
                model.append((key, step & 0xFF, cost))
                while model.reduce(0, { $0 + $1.cost }) > budget { model.removeFirst() }
            case 5:
                lru.removeValue(for: key)
                model.removeAll { $0.key == key }
            case 6 where rng.chance(1, in: 20):
                let store = UInt64.random(in: 0..<3, using: &rng)
                lru.removeAll { $0.store == store }
                model.removeAll { $0.key.store == store }
            default:
                let expected = model.firstIndex { $0.key == key }.map { i in
                    let entry = model.remove(at: i)
                    model.append(entry)
                    return entry.tag
                }
                #expect(Self.tag(lru.value(for: key)) == expected, "seed \(seed) step \(step)")
            }
            let modelCost = model.reduce(0) { $0 + $1.cost }
            #expect(lru.count == model.count && lru.totalCost == modelCost, "seed \(seed) step \(step)")
        }
        for entry in model { #expect(Self.tag(lru.value(for: entry.key)) == entry.tag, "seed \(seed)") }
    }
}
