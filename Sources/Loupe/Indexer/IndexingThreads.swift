import Dispatch
import LoupeAnalysis

/// The indexing threads of a writer opened with more than one thread (tantivy's indexing workers).
///
/// The writer's thread hands documents over in batches, in opstamp order, to one queue that every indexing
/// thread takes from; each thread indexes the batches it takes into a segment writer of its own, flushes it to a
/// new segment, and starts another. The threads share the memory budget as Lucene's do: when the bytes their
/// writers hold reach it, the thread holding the most flushes, the others go on. So the threads' segments are
/// staggered in size, and with two threads come out at about two thirds of the budget rather than the half an
/// equal share gives (tantivy's): fewer segments, and less to merge. A thread takes whole batches in queue order,
/// so within each segment it flushes the documents' opstamps increase with their ids.
///
/// While they index, the segments they flush are merged in the background as the writer's merge policy picks them
/// among the flushed segments (tantivy merges uncommitted segments the same way), so that merging overlaps indexing
/// instead of following the commit. A merged segment holds its sources' documents one source after the other, each
/// with its opstamp, so its opstamps need not increase: the deletes of a commit check each document's
/// (`SegmentUpdater+Deletes.swift`).
///
/// `join()` (at commit) ends every thread's current segment and waits for all of them and for the merges running;
/// `discard()` (at rollback) waits for them after they drop what they hold. The threads start again on the next
/// batch.
///
/// Invariants:
/// - The queue is bounded (`queueCapacity` batches), so the writer's thread waits while the indexing threads
///   are behind, and buffered documents stay within the budget plus a few batches. A segment being flushed is
///   not counted while its thread writes it (Lucene's "active bytes"), so memory peaks at the budget plus the
///   segments being written, at most one a thread: with two threads, about 1⅔ of the budget.
/// - The files of a segment a thread has flushed, or a merge is writing, are protected from clean-ups
///   (`isOutput`) until `join()` hands the segment over, or a merge has replaced it.
/// - No merge starts once `join()` has begun: a commit waits only for the merges already running.
/// - After a flush fails, the threads index nothing more until `join()` reports the failure.
/// - The threads hold only `Workers`, never this object, so when the writer goes away with documents
///   uncommitted, `deinit` stops them without a flush.
package final class IndexingThreads: Sendable {
    /// Documents handed over together, with the opstamp of each.
    package struct Batch: Sendable {
        package var documents: [PreparedDocument] = []
        package var opstamps: [UInt64] = []

        package var count: Int { documents.count }

        package init() {}

        package mutating func append(_ document: PreparedDocument, opstamp: UInt64) {
            documents.append(document)
            opstamps.append(opstamp)
        }
    }

    /// A segment a thread flushed, with the opstamp of each of its documents by document id.
    package struct Flushed: Sendable {
        package var meta: IndexMeta.SegmentMeta
        package var opstamps: [UInt64]
    }

    /// Documents per batch: enough that taking a batch costs little next to indexing it, few enough that the
    /// threads share a small commit.
    package static let batchSize = 64

    private let workers: Workers

    /// Whether thread `slot` flushes, the threads' writers holding `usage` bytes: they hold the budget together,
    /// and `slot` holds the most (the lowest slot among equals, so that threads that grew alike do not flush
    /// together).
    package static func flushes(_ slot: Int, usage: [Int], budget: Int) -> Bool {
        guard usage.reduce(0, +) >= budget else { return false }
        let bytes = usage[slot]
        return usage.indices.allSatisfy { $0 == slot || usage[$0] < bytes || (usage[$0] == bytes && $0 > slot) }
    }

    /// - Parameters:
    ///   - count: indexing threads (≥ 2; one thread indexes on the writer's thread instead).
    ///   - memoryBudget: the writer's whole budget, shared between the threads.
    ///   - limits: the segment limit each thread's writer flushes at (documents are checked before they come).
    package init(
        count: Int, memoryBudget: Int, schema: Schema, analyzers: AnalyzerRegistry, limits: IndexLimits,
        directory: any Directory, mergePolicy: MergePolicy
    ) {
        workers = Workers(
            count: count, memoryBudget: memoryBudget, schema: schema, analyzers: analyzers, limits: limits,
            directory: directory, mergePolicy: mergePolicy)
    }

    deinit { workers.abandon() }

    /// Queues `batch` for the threads, starting them if they are not running; waits while the queue is full.
    package func submit(_ batch: Batch) { workers.submit(batch) }

    /// What picks the flushed segments to merge while the threads index: the writer's merge policy.
    package var mergePolicy: MergePolicy {
        get { workers.mergePolicy.withLock { $0 } }
        set { workers.mergePolicy.withLock { $0 = newValue } }
    }

    /// Why a flush failed since the last `join()`, if one did.
    package var failure: IndexError? { workers.state.withLock { $0.failure } }

    /// Whether `segment` is one a thread has flushed and `join()` has not handed over yet.
    package func isOutput(_ segment: SegmentID) -> Bool { workers.state.withLock { $0.outputs.contains(segment) } }

    /// Ends every thread's segment, waits for the threads and the merges running, and hands over the segments
    /// flushed (or merged from them) since the last join, in the order of their first documents; or the failure of
    /// a flush, whose documents are lost.
    package func join() -> (flushed: [Flushed], failure: IndexError?) { workers.join(dropping: false) }

    /// Stops every thread without flushing what it holds, and waits for them; forgets the segments flushed since
    /// the last join, whose files are then left to the writer's clean-up.
    package func discard() { _ = workers.join(dropping: true) }
}

/// What the indexing threads share: the queue, the configuration and the results.
private final class Workers: Sendable {
    struct State {
        var running = false
        /// Set by a rollback or when the writer went away: the threads drop what they hold.
        var dropping = false
        /// Set by `join()`: the threads are stopping, and no merge starts.
        var joining = false
        var flushed: [IndexingThreads.Flushed] = []
        var failure: IndexError?
        /// Segments being indexed (their stores may be written already), flushed or being merged, not yet handed
        /// over by `join()`.
        var outputs: Set<SegmentID> = []
        /// The flushed segments a running merge reads.
        var merging: Set<SegmentID> = []
        /// Set when a merge failed: its sources stay as they are, and no other merge starts before `join()`.
        var mergeFailed = false
    }

    let count: Int
    let state = Locked(State())
    let mergePolicy: Locked<MergePolicy>
    private let memoryBudget: Int
    /// The bytes each thread's segment writer holds, by thread.
    private let usage: Locked<[Int]>
    private let schema: Schema
    private let analyzers: AnalyzerRegistry
    private let limits: IndexLimits
    private let directory: any Directory
    private let queue: BatchQueue
    private let threads: [DispatchQueue]
    private let running = DispatchGroup()
    /// Merges of flushed segments run here, one at a time.
    private let merges = DispatchQueue(label: "loupe.indexing.merges")
    private let merging = DispatchGroup()
    /// What the merges' segment readers share: they copy compressed store blocks, so it stays nearly empty.
    private let storeCache = DocStoreCache(budgetBytes: 1 << 20)

    init(
        count: Int, memoryBudget: Int, schema: Schema, analyzers: AnalyzerRegistry, limits: IndexLimits,
        directory: any Directory, mergePolicy: MergePolicy
    ) {
        self.mergePolicy = Locked(mergePolicy)
        self.count = count
        self.memoryBudget = memoryBudget
        usage = Locked([Int](repeating: 0, count: count))
        self.schema = schema
        self.analyzers = analyzers
        self.limits = limits
        self.directory = directory
        queue = BatchQueue(capacity: 2 * count)
        threads = (0..<count).map { DispatchQueue(label: "loupe.indexing.\($0)") }
    }

    func submit(_ batch: IndexingThreads.Batch) {
        let start = state.withLock { state in
            defer { state.running = true }
            return !state.running
        }
        if start {
            for (slot, thread) in threads.enumerated() {
                running.enter()
                thread.async { [self] in
                    run(slot: slot)
                    running.leave()
                }
            }
        }
        queue.push(batch)
    }

    func join(dropping: Bool) -> (flushed: [IndexingThreads.Flushed], failure: IndexError?) {
        let started = state.withLock { state in
            if dropping { state.dropping = true }
            state.joining = true
            return state.running
        }
        guard started else {
            merging.wait()
            state.withLock { $0 = State() }
            return ([], nil)
        }
        for _ in 0..<count { queue.push(nil) }
        running.wait()
        merging.wait()
        return state.withLock { state in
            defer { state = State() }
            let flushed = state.flushed.sorted { $0.opstamps[0] < $1.opstamps[0] }
            return (flushed, state.failure)
        }
    }

    /// Stops the threads without flushing; returns without waiting for them.
    func abandon() {
        let stop = state.withLock { state in
            defer { state.dropping = true }
            return state.running
        }
        guard stop else { return }
        for _ in 0..<count { queue.push(nil) }
    }

    /// Whether the threads should go on indexing: no flush has failed and nothing asked them to drop their work.
    private var proceeding: Bool { state.withLock { $0.failure == nil && !$0.dropping } }

    /// One thread's loop: index batches until the stop marker, then flush what is buffered. The writer is moved out
    /// of its optional for each document and back, never copied (a copy retains every buffer it holds).
    private func run(slot: Int) {
        var writer: SegmentWriter?
        var opstamps: [UInt64] = []
        while let batch = queue.pop() {
            guard proceeding else { continue }
            for (document, opstamp) in zip(batch.documents, batch.opstamps) {
                var current: SegmentWriter
                if let buffered = writer.take() {
                    current = buffered
                } else {
                    do {
                        current = try SegmentWriter(
                            schema: schema, analyzers: analyzers, limits: limits, spillingStoreTo: directory)
                        let id = current.id
                        state.withLock { _ = $0.outputs.insert(id) }
                    } catch {
                        fail(error)
                        break
                    }
                }
                current.add(document)
                opstamps.append(opstamp)
                if current.isFull || passesBudget(slot, holding: current.memoryUsage) {
                    usage.withLock { $0[slot] = 0 }
                    flush(current, &opstamps)
                } else {
                    writer = current
                }
            }
        }
        if proceeding, let buffered = writer.take() { flush(buffered, &opstamps) }
        usage.withLock { $0[slot] = 0 }
    }

    /// Records that thread `slot` holds `bytes`; whether it should flush (`IndexingThreads.flushes`).
    private func passesBudget(_ slot: Int, holding bytes: Int) -> Bool {
        usage.withLock { usage in
            usage[slot] = bytes
            return IndexingThreads.flushes(slot, usage: usage, budget: memoryBudget)
        }
    }

    private func flush(_ full: consuming SegmentWriter, _ opstamps: inout [UInt64]) {
        let meta = IndexMeta.SegmentMeta(id: full.id, maxDoc: Int(full.maxDoc))
        do {
            try SegmentSerializer.write(full, to: directory)
            let stamps = opstamps
            state.withLock { $0.flushed.append(IndexingThreads.Flushed(meta: meta, opstamps: stamps)) }
            startMerges()
        } catch {
            fail(error)
        }
        opstamps = []
    }

    /// Starts the merges the policy picks among the flushed segments no merge reads, unless the threads are
    /// stopping or a flush or merge has failed.
    private func startMerges() {
        let policy = mergePolicy.withLock { $0 }
        let groups = state.withLock { state -> [(sources: [IndexingThreads.Flushed], output: SegmentID)] in
            guard !state.joining, !state.dropping, !state.mergeFailed, state.failure == nil else { return [] }
            let free = state.flushed.filter { !state.merging.contains($0.meta.id) }
            return policy.merges(free.map(\.meta), documentsPerSegment: limits.documentsPerSegment).map { group in
                let output = SegmentID()
                state.merging.formUnion(group.map { free[$0].meta.id })
                state.outputs.insert(output)
                return (group.map { free[$0] }, output)
            }
        }
        // Entered before this flush's thread, or the merge that called this, leaves its group: `join()` cannot
        // pass its waits in between.
        for (sources, output) in groups {
            merging.enter()
            merges.async { [self] in
                merge(sources, into: output)
                merging.leave()
            }
        }
    }

    /// Merges `sources` into a segment with id `output`, which replaces them among the flushed segments, its
    /// documents' opstamps those of the sources in order. When the merge fails the sources stay.
    private func merge(_ sources: [IndexingThreads.Flushed], into output: SegmentID) {
        var merged: IndexMeta.SegmentMeta?
        do throws(IndexError) {
            let readers = try sources.map { (source) throws(IndexError) in
                try SegmentReader(
                    directory: directory, meta: source.meta, schema: schema, verifyChecksums: false,
                    storeCache: storeCache)
            }
            merged = try SegmentMerger(schema: schema, segments: readers).write(as: output, to: directory)
        } catch {
            merged = nil
        }
        let ids = Set(sources.map(\.meta.id))
        state.withLock { state in
            state.merging.subtract(ids)
            guard let merged else {
                state.mergeFailed = true
                state.outputs.remove(output)
                return
            }
            let first = state.flushed.firstIndex { ids.contains($0.meta.id) } ?? state.flushed.count
            state.flushed.removeAll { ids.contains($0.meta.id) }
            state.flushed.insert(
                IndexingThreads.Flushed(meta: merged, opstamps: sources.flatMap(\.opstamps)),
                at: min(first, state.flushed.count))
            state.outputs.subtract(ids)
        }
        startMerges()
    }

    private func fail(_ error: IndexError) {
        state.withLock { state in
            if state.failure == nil { state.failure = error }
        }
    }
}

/// A bounded first-in first-out queue of batches between the writer's thread and the indexing threads; nil is
/// a thread's stop marker.
private final class BatchQueue: Sendable {
    private struct Storage {
        var items: [IndexingThreads.Batch?] = []
        var head = 0
    }

    private let storage = Locked(Storage())
    /// Counts the queued items.
    private let items = DispatchSemaphore(value: 0)
    /// Counts the free places.
    private let spaces: DispatchSemaphore
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        spaces = DispatchSemaphore(value: capacity)
    }

    func push(_ batch: IndexingThreads.Batch?) {
        spaces.wait()
        storage.withLock { $0.items.append(batch) }
        items.signal()
    }

    func pop() -> IndexingThreads.Batch? {
        items.wait()
        let batch = storage.withLock { storage in
            let batch = storage.items[storage.head].take()
            storage.head += 1
            if storage.head >= capacity {
                storage.items.removeFirst(storage.head)
                storage.head = 0
            }
            return batch
        }
        spaces.signal()
        return batch
    }
}
