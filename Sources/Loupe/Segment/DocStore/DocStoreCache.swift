import LoupeCodec
import Synchronization

/// Decompressed store blocks of every segment an `Index` has open, shared by all its searchers' segment readers
/// and bounded in bytes: the least recently used block goes first.
///
/// Fetching a hit takes one lock when its block is cached (a hash probe and a relink, no copy: the hit's bytes
/// are a slice of the cached array) and two when it is not, with the decoding done outside either. Each entry
/// also remembers which of its documents passed `StoredValueCoding.validate`, so a document is walked once, not
/// at every fetch (with every movies field stored, some 50 values, that walk took a cached fetch from 140 ns to
/// 350–560); the first fetch of a document from a cached block takes the lock a second time to record it. The
/// blocks are spread over 8 independently locked shards by key, so threads fetching at once seldom wait on each
/// other; each shard holds an eighth of the budget.
package final class DocStoreCache: Sendable {
    /// 32 MiB, 2,048 full 16 KiB blocks. tantivy keeps 100 blocks (1.6 MB) per segment's store; an index has a few
    /// to a few dozen segments, so this is its budget for about 20, shared by whichever segments the searches hit.
    /// It holds the whole store of the bundled movies corpus with every field stored (10 MB raw), so repeated
    /// searches there never decode twice. Memory is taken only as blocks are read.
    package static let defaultBudgetBytes = 32 << 20
    private static let shardCount = 8

    /// A block of one store.
    package struct Key: Equatable, Sendable {
        package var store: UInt64
        package var block: Int

        package init(store: UInt64, block: Int) {
            self.store = store
            self.block = block
        }
    }

    /// A block's raw bytes, decoded from the start through at least the document that was wanted.
    package struct DecodedBlock: Sendable {
        package var bytes: [UInt8]
        /// Where LZ4 decoding stopped, so that a later document resumes there; nil once the block is whole, and for
        /// deflate blocks, which restart.
        package var resume: LZ4.Progress?

        package init(bytes: [UInt8], resume: LZ4.Progress?) {
            self.bytes = bytes
            self.resume = resume
        }
    }

    /// What the cache holds for a block: its decoded bytes, and which of its documents were validated.
    package struct Entry: Sendable {
        package var block: DecodedBlock
        /// Bit `i % 64` of word `i / 64` is set once document `i` of the block has been validated.
        package var validated: [UInt64]

        package init(block: DecodedBlock, validated: [UInt64]) {
            self.block = block
            self.validated = validated
        }

        package func isValidated(_ document: Int) -> Bool { validated[document >> 6] & (1 << (document & 63)) != 0 }

        package mutating func markValidated(_ document: Int) { validated[document >> 6] |= 1 << (document & 63) }
    }

    /// The most bytes of blocks held.
    package let budgetBytes: Int
    private let shards: [Locked<LRUCache>]
    private let lastStore = Atomic<UInt64>(0)

    package init(budgetBytes: Int = DocStoreCache.defaultBudgetBytes) {
        self.budgetBytes = budgetBytes
        shards = (0..<Self.shardCount).map { _ in Locked(LRUCache(budget: budgetBytes / Self.shardCount)) }
    }

    /// A store number no other store of this cache has: the `store` of its keys.
    package func register() -> UInt64 { lastStore.add(1, ordering: .relaxed).newValue }

    /// The cached block for `key`, now the most recently used, and whether its document `document` was validated;
    /// nil when absent.
    package func block(_ key: Key, document: Int) -> (block: DecodedBlock, validated: Bool)? {
        shard(key).withLock { lru in lru.value(for: key).map { ($0.block, $0.isValidated(document)) } }
    }

    /// Records that document `document` of the block cached for `key` (if it still is) was validated.
    package func markValidated(_ key: Key, document: Int) {
        shard(key).withLock { lru in lru.modifyValue(for: key) { $0.markValidated(document) } }
    }

    /// Caches `block` of `documents` documents for `key`, its document `document` validated, keeping what was known
    /// of the others; when a longer prefix of the block is cached already, that one stays. The cost of an entry is
    /// its allocations.
    package func insert(_ block: DecodedBlock, documents: Int, validated document: Int, for key: Key) {
        var fresh = Entry(block: block, validated: [UInt64](repeating: 0, count: (documents + 63) / 64))
        fresh.markValidated(document)
        shard(key).withLock { lru in
            if let held = lru.value(for: key) {
                if held.block.bytes.count >= block.bytes.count {
                    lru.modifyValue(for: key) { $0.markValidated(document) }
                    return
                }
                fresh.validated = held.validated
                fresh.markValidated(document)
            }
            lru.insert(fresh, for: key, cost: block.bytes.capacity + fresh.validated.capacity * 8)
        }
    }

    /// Drops the blocks of `store`, whose reader is going away.
    /// - Complexity: O(blocks cached).
    package func removeAll(store: UInt64) {
        for shard in shards { shard.withLock { $0.removeAll { $0.store == store } } }
    }

    /// Bytes of blocks held.
    package var totalBytes: Int { shards.reduce(0) { total, shard in total + shard.withLock { $0.totalCost } } }

    /// Blocks held.
    package var blockCount: Int { shards.reduce(0) { total, shard in total + shard.withLock { $0.count } } }

    private func shard(_ key: Key) -> Locked<LRUCache> {
        // Fibonacci hashing: the top bits of the product spread consecutive blocks and stores over the shards.
        let mixed = (key.store &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(truncatingIfNeeded: key.block)
        return shards[Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> 61)]
    }
}
