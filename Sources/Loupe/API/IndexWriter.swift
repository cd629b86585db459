#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one writer of an index: buffers documents in memory, flushes them to new segments when the memory
/// budget fills, and publishes them — and the deletions asked for — atomically at `commit()`.
///
/// ```swift
/// let writer = try index.writer()
/// try writer.addDocument(["title": "Dune", "year": 1965])
/// try writer.commitAndReload()
/// try writer.close()
/// ```
///
/// Documents become searchable only after `commit()` and `Index.reload()` (or `commitAndReload()`). Every add and
/// delete gets the next opstamp; a delete removes the matching documents added before it (committed, flushed or
/// still buffered), never those added after it. A crash before `commit()` loses only the uncommitted documents.
///
/// **Lifecycle.** The writer holds the index's lock file from `Index.writer()` until `close()` or until it is
/// released (deinit), whichever comes first; then another writer can open. Closing waits for the background
/// merges and publishes them, but, like releasing, discards the documents and deletions not yet committed:
/// commit first. Every throwing method of a closed writer throws `.invalidArgument`.
///
/// **Concurrency.** The writer is `Sendable`: its state (the engine, `SegmentUpdater`) sits behind a lock, so
/// every method may be called from any thread or task, and calls are serialized. A document is checked and
/// converted against the schema before the lock is taken, so tasks adding at once convert in parallel and
/// queue only to buffer. A call that commits, merges or waits for merges holds the lock, and so blocks the
/// other callers, until it returns. Merges themselves run on a background queue.
///
/// **Indexing threads.** With more than one thread (`Index.writer(memoryBudget:threads:)`), the writer's thread
/// hands the documents over in batches of 64, in order, to indexing threads that each build a segment of their
/// own, as tantivy's do, and share the memory budget as Lucene's do: when their buffers reach it, the thread
/// holding the most flushes. Opstamps and deletes mean what they mean with one thread; `commit()` waits for every
/// thread to flush. Each thread makes its own segments, and the segments they flush are merged while they index,
/// as `mergePolicy` picks them (`.never` turns this off too), so hits of equal score may come back in another
/// order than with one thread. A writer has one thread unless asked for more, so documents keep the order they
/// were added in and a run is reproducible; `defaultThreads(memoryBudget:)` is tantivy's choice, one thread a
/// core up to 8.
public final class IndexWriter: Sendable {
    /// The indexing memory budget when none is given: 50 MB, tantivy's and the bindings' default.
    public static let defaultMemoryBudget = 50_000_000

    /// The largest indexing memory budget, 4 GB (tantivy's bound a thread): one segment being built can hold
    /// nearly all of it, and a segment writer addresses its postings with 32-bit offsets.
    public static let maxMemoryBudget = 4_000_000_000

    /// The most indexing threads a writer can have.
    public static let maxThreads = 64

    /// tantivy's choice of indexing threads (`Index::writer`): one per processor core, at most 8, and no more
    /// than leave each thread 15 MB of `memoryBudget`; at least one.
    public static func defaultThreads(memoryBudget: Int) -> Int {
        max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8, memoryBudget / 15_000_000))
    }

    let index: Index
    /// The indexing threads, 1 when the writer indexes on the caller's thread.
    package let threads: Int
    private let engine: Locked<SegmentUpdater>

    /// - Parameter removingOrphans: remove the files no commit references now (false for `garbageCollect`, which
    ///   lists what it removes).
    /// - Parameter threads: indexing threads sharing `memoryBudget` (1: index on the caller's thread).
    /// - Parameter limits: what documents, segments and the index may hold (tests pass small ones).
    init(
        index: Index, memoryBudget: Int, threads: Int = 1, removingOrphans: Bool = true,
        limits: IndexLimits = .default
    ) throws(IndexError) {
        self.index = index
        self.threads = threads
        engine = Locked(
            try SegmentUpdater(
                index: index, memoryBudget: memoryBudget, threads: threads, removingOrphans: removingOrphans,
                limits: limits))
    }

    /// Runs `body` on the engine, holding the lock.
    /// - Throws: `IndexError` `.invalidArgument` once the writer is closed, or what `body` throws.
    func withEngine<R>(_ body: (inout SegmentUpdater) throws(IndexError) -> sending R) throws(IndexError) -> sending R {
        try engine.withLock { (engine) throws(IndexError) -> sending R in
            guard !engine.isClosed else {
                throw IndexError(.invalidArgument, "this writer is closed; open a new one with index.writer()")
            }
            return try body(&engine)
        }
    }

    /// What the writer merges after each commit (`MergePolicy.logarithmic` by default).
    public var mergePolicy: MergePolicy {
        get { engine.withLock { $0.mergePolicy } }
        set { engine.withLock { $0.mergePolicy = newValue } }
    }

    /// Why the last merge that finished failed, nil once one succeeds (commits stand either way).
    public var lastMergeError: IndexError? { engine.withLock { $0.lastMergeError } }

    /// Documents added since the last commit.
    public var uncommittedDocuments: Int { engine.withLock { $0.uncommittedDocuments } }

    /// Adds a document; returns its opstamp.
    /// - Throws: `IndexError` `.invalidDocument` naming the field, if the document does not fit the schema;
    ///   `.limitExceeded` (with `limit`) for a document past a limit of Docs/FORMAT.md "Limits", or a full index.
    @discardableResult
    public func addDocument(_ document: Document) throws(IndexError) -> UInt64 {
        try add(Result { () throws(IndexError) in try index.schema.prepare(document) })
    }

    /// Adds a document given as one JSON object (a JSONL line).
    /// - Throws: `IndexError` `.invalidDocument` with the field or the byte offset of the JSON error;
    ///   `.limitExceeded` as `addDocument`.
    @discardableResult
    public func addJSON(_ json: String) throws(IndexError) -> UInt64 {
        var text = json
        return try add(
            text.withUTF8 { bytes in
                Result { () throws(IndexError) in unsafe try index.schema.prepareJSON(UnsafeRawBufferPointer(bytes)) }
            })
    }

    /// Adds a document given as the UTF-8 bytes of one JSON object.
    @discardableResult
    package func addJSON(bytes: UnsafeRawBufferPointer) throws(IndexError) -> UInt64 {
        try add(Result { () throws(IndexError) in unsafe try index.schema.prepareJSON(bytes) })
    }

    /// Adds the documents of `lines`, one JSON object each, in order; returns each line's opstamp or why it was
    /// refused, as `addJSON(bytes:)` would have. The lines are parsed and checked against the schema before the
    /// lock is taken, split across as many threads as the writer indexes with, so that parsing keeps pace with the
    /// indexing threads.
    /// - Parameter stoppingAtFirstError: add nothing after the first refused line; the results end with it.
    package func addJSON(lines: JSONLines, stoppingAtFirstError: Bool) -> [Result<UInt64, IndexError>] {
        let runs = lines.prepare(schema: index.schema, parts: threads)
        var results: [Result<UInt64, IndexError>] = []
        results.reserveCapacity(lines.count)
        do {
            try withEngine { (engine) throws(IndexError) in
                for run in runs {
                    for prepared in run {
                        let result = Result { () throws(IndexError) in try engine.add(prepared.get()) }
                        results.append(result)
                        if stoppingAtFirstError, case .failure = result { return }
                    }
                }
            }
        } catch {
            // The writer is closed: nothing was added.
            results = Array(repeating: .failure(error), count: stoppingAtFirstError ? 1 : lines.count)
        }
        return results
    }

    /// Buffers a document prepared outside the lock; a closed writer reports being closed before a bad document.
    func add(_ prepared: Result<PreparedDocument, IndexError>) throws(IndexError) -> UInt64 {
        try withEngine { (engine) throws(IndexError) in try engine.add(prepared.get()) }
    }

    /// Deletes the documents whose `field` holds `value` (typically an id), once committed; returns the opstamp.
    /// - Throws: `IndexError` `.invalidQuery` when the field is unknown, not indexed, or of another type.
    @discardableResult
    public func deleteDocuments(field: String, equals value: FieldValue) throws(IndexError) -> UInt64 {
        try deleteDocuments(matching: .term(field: field, value: value))
    }

    /// Deletes the documents whose `field` holds any of `values`, once committed; returns the opstamp.
    @discardableResult
    public func deleteDocuments(field: String, equalsAnyOf values: [FieldValue]) throws(IndexError) -> UInt64 {
        try deleteDocuments(matching: .anyOf(values.map { .term(field: field, value: $0) }))
    }

    /// Deletes the documents whose `field` holds `value`, given as a Swift value (a `String` id, an integer…).
    @discardableResult
    public func deleteDocuments(field: String, equals value: some FieldValueConvertible) throws(IndexError) -> UInt64 {
        try deleteDocuments(field: field, equals: value.fieldValue)
    }

    /// Deletes the documents whose `field` holds any of `values`, given as Swift values.
    @discardableResult
    public func deleteDocuments<V: FieldValueConvertible>(
        field: String, equalsAnyOf values: [V]
    ) throws(IndexError)
        -> UInt64
    {
        try deleteDocuments(field: field, equalsAnyOf: values.map(\.fieldValue))
    }

    /// Deletes the documents matching a query string (tantivy syntax; unqualified words search the default, else
    /// every indexed text, fields), once committed; returns the opstamp.
    /// - Throws: `IndexError` `.invalidQuery` with the byte offset of a syntax error.
    @discardableResult
    public func deleteDocuments(matching text: String) throws(IndexError) -> UInt64 {
        try deleteDocuments(matching: .parsed(text))
    }

    /// Deletes the documents matching `query`, once committed; returns the opstamp. The query runs at commit, on
    /// every document added before this call.
    /// - Throws: `IndexError` `.invalidQuery` if the query does not fit the schema (checked now, not at commit).
    @discardableResult
    public func deleteDocuments(matching query: Query) throws(IndexError) -> UInt64 {
        try withEngine { (engine) throws(IndexError) in try engine.deleteDocuments(matching: query) }
    }

    /// Deletes every document added so far, once committed; returns the opstamp.
    @discardableResult
    public func deleteAllDocuments() throws(IndexError) -> UInt64 {
        try deleteDocuments(matching: .matchAll)
    }

    /// Makes every document added so far durable and part of the index: flushes the buffer, fsyncs the new
    /// segment files, atomically replaces meta.json, and fsyncs the folder. Then publishes the merges that
    /// finished and starts those the merge policy picks, in the background. Returns the commit's opstamp.
    @discardableResult
    public func commit() throws(IndexError) -> UInt64 {
        try withEngine { (engine) throws(IndexError) in try engine.commit() }
    }

    /// `commit()` off the caller's actor (on the global concurrent executor), for async code that must not block.
    @concurrent
    @discardableResult
    public func commitAsync() async throws(IndexError) -> UInt64 {
        try commit()
    }

    /// Commits, then reloads the index's searcher, then removes the files of segments merged away that the old
    /// searcher was still reading.
    @discardableResult
    public func commitAndReload() throws(IndexError) -> UInt64 {
        try withEngine { (engine) throws(IndexError) in try engine.commitAndReload() }
    }

    /// Drops every document added and every deletion asked for since the last commit, and the segment files
    /// flushed for them.
    public func rollback() throws(IndexError) {
        try withEngine { (engine) throws(IndexError) in try engine.rollback() }
    }

    /// Waits for the background merges and publishes them, discards the uncommitted documents and deletions (as
    /// releasing the writer does: commit first), and releases the index's lock file, so `Index.writer()` can
    /// open another writer. Every later throwing call on this writer fails.
    /// - Throws: `IndexError` `.invalidArgument` when the writer is already closed.
    public func close() throws(IndexError) {
        try withEngine { (engine) throws(IndexError) in
            // Forgotten while the lock is still held, so no newer writer of the index can be the one forgotten.
            index.openWriter = nil
            try engine.close()
        }
    }
}
