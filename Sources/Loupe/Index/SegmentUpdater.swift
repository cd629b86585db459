/// The write side of the index layer (tantivy's segment updater): the engine behind `IndexWriter`.
///
/// It buffers documents in a `SegmentWriter`, flushes them to new segments when the memory budget fills, and at
/// `commit()` applies the pending deletes (`SegmentUpdater+Deletes.swift`) and publishes a new `IndexMeta` with the
/// commit protocol of Docs/FORMAT.md §6: fsync the folder, replace meta.json atomically, fsync the folder again.
/// Merges run in the background (`BackgroundMerges`) and are published the same way (`SegmentUpdater+Merge.swift`);
/// files no commit references are removed by `SegmentUpdater+GarbageCollection.swift`.
///
/// Invariants:
/// - While the updater is open it holds the index's writer lock, so it is the only one publishing commit points.
/// - Every add and delete takes the next opstamp; a delete removes only the documents added before it.
/// - `committed` is the last commit point this updater wrote or read; `pending` lists the segments flushed since,
///   whose files exist but which no commit lists yet.
/// - It is a value owned by one `IndexWriter`, which serializes every call to it behind a lock.
/// - With more than one indexing thread, `current` stays empty: documents go to `threads` in batches of
///   `IndexingThreads.batchSize`, and the segments the threads flush join `pending` at the next flush.
struct SegmentUpdater {
    let index: Index
    /// The index's writer lock; nil once the updater is closed.
    private var lock: (any DirectoryLock)?
    private let memoryBudget: Int
    /// What a document, a segment and the index may hold.
    let limits: IndexLimits
    /// The last commit point this updater wrote or read.
    private(set) var committed: IndexMeta
    /// The commit point before it (`meta.previous.json`), whose files are kept so that it can be restored; nil
    /// before the first commit, or when its copy cannot be read.
    private(set) var previous: IndexMeta?
    /// What the updater merges after each commit, and the indexing threads while they index.
    var mergePolicy: MergePolicy = .logarithmic {
        didSet { threads?.mergePolicy = mergePolicy }
    }
    /// Why the last merge that finished failed, nil once one succeeds (commits stand either way).
    var lastMergeError: IndexError?
    /// The merges running in the background, and those waiting to be published.
    let merges = BackgroundMerges()
    private(set) var current: SegmentWriter
    /// The indexing threads; nil with one thread, when documents are indexed on the caller's.
    let threads: IndexingThreads?
    /// Documents not yet handed over to `threads`.
    private var batch = IndexingThreads.Batch()
    /// Segments flushed since the last commit (their files exist, meta.json does not list them yet).
    private(set) var pending: [IndexMeta.SegmentMeta] = []
    private var opstamp: UInt64
    /// Set when a flush failed: its documents are gone from memory, so committing now would silently drop them.
    private var failedFlush: IndexError?
    /// Deletions asked for since the last commit, in opstamp order.
    private(set) var deletes: [(opstamp: UInt64, query: Query)] = []
    /// The opstamp of each document in the buffer, by document id.
    private var bufferedOpstamps: [UInt64] = []
    /// The opstamps of the documents of each segment flushed since the last commit.
    private(set) var flushedOpstamps: [SegmentID: [UInt64]] = [:]
    /// Documents added since the last commit.
    private(set) var uncommittedDocuments = 0

    /// Takes the index's writer lock and reads the last commit point.
    /// - Parameter removingOrphans: remove the files no commit references now (false for `garbageCollect`, which
    ///   lists what it removes).
    /// - Throws: `IndexError` `.writerLocked` when another writer holds the index.
    /// - Parameter threads: indexing threads, sharing `memoryBudget` equally.
    init(
        index: Index, memoryBudget: Int, threads: Int = 1, removingOrphans: Bool, limits: IndexLimits = .default
    ) throws(IndexError) {
        do {
            lock = try index.directory.lockWriter()
        } catch {
            if case .system(let failure) = error, failure.isWriteRefused {
                throw IndexError(
                    .io,
                    "the index at \(index.directory.location) is read-only (\(failure)): it opens for searching only; "
                        + "a writer needs a folder it can write to",
                    context: .init(file: failure.path))
            }
            throw IndexError(storage: error)
        }
        self.index = index
        self.memoryBudget = memoryBudget
        self.limits = limits
        committed = try Index.readMeta(index.directory)
        previous = try? Index.readMeta(index.directory, name: IndexMeta.previousFileName)
        opstamp = committed.opstamp
        current = try SegmentWriter(
            schema: committed.schema, analyzers: index.analyzers, limits: limits, spillingStoreTo: index.directory)
        self.threads =
            threads > 1
            ? IndexingThreads(
                count: threads, memoryBudget: memoryBudget, schema: committed.schema, analyzers: index.analyzers,
                limits: limits, directory: index.directory, mergePolicy: mergePolicy) : nil
        if removingOrphans { removeUnreferencedFiles() }
    }

    /// Whether `close()` released the lock.
    var isClosed: Bool { lock == nil }

    /// Buffers a document (flushing the buffer once it passes the memory budget or holds a full segment); returns
    /// its opstamp.
    /// - Throws: `IndexError` `.limitExceeded` for a document past a limit, or an index that holds the most it can.
    mutating func add(_ document: PreparedDocument) throws(IndexError) -> UInt64 {
        try checkNoFailedFlush()
        try limits.checkRoom(forDocumentAfter: committed.maxDoc + uncommittedDocuments)
        try limits.check(document, schema: committed.schema)
        opstamp += 1
        uncommittedDocuments += 1
        if let threads {
            batch.append(document, opstamp: opstamp)
            if batch.count >= IndexingThreads.batchSize { try handOver(to: threads) }
            return opstamp
        }
        current.add(document)
        bufferedOpstamps.append(opstamp)
        if current.memoryUsage >= memoryBudget || current.isFull { try flush() }
        return opstamp
    }

    /// Queues the batch for the indexing threads; throws if one of their flushes has failed.
    private mutating func handOver(to threads: IndexingThreads) throws(IndexError) {
        if let failure = threads.failure {
            failedFlush = failure
            throw failure
        }
        threads.submit(batch)
        batch = IndexingThreads.Batch()
    }

    /// Writes the buffered documents as new (uncommitted) segments: the writer's own, or those of the indexing
    /// threads once they have all flushed.
    private mutating func flush() throws(IndexError) {
        if let threads {
            if batch.count > 0 { threads.submit(batch) }
            batch = IndexingThreads.Batch()
            let (flushed, failure) = threads.join()
            if let failure {
                failedFlush = failure
                throw failure
            }
            for segment in flushed {
                pending.append(segment.meta)
                flushedOpstamps[segment.meta.id] = segment.opstamps
            }
            return
        }
        guard current.maxDoc > 0 else { return }
        let fresh = try SegmentWriter(
            schema: committed.schema, analyzers: index.analyzers, limits: limits, spillingStoreTo: index.directory)
        let writer = current
        current = fresh
        let meta = IndexMeta.SegmentMeta(id: writer.id, maxDoc: Int(writer.maxDoc))
        do {
            try SegmentSerializer.write(writer, to: index.directory)
        } catch {
            failedFlush = error
            throw error
        }
        pending.append(meta)
        flushedOpstamps[meta.id] = bufferedOpstamps
        bufferedOpstamps = []
    }

    /// Records a deletion of the documents matching `query` added so far; returns its opstamp.
    /// - Throws: `IndexError` `.invalidQuery` if the query does not fit the schema (checked now, not at commit).
    mutating func deleteDocuments(matching query: Query) throws(IndexError) -> UInt64 {
        try checkNoFailedFlush()
        // Checked against the schema alone (a searcher of no segments): the terms are looked up at commit.
        _ = try Searcher(schema: committed.schema, segments: [], analyzers: index.analyzers).compile(query)
        opstamp += 1
        deletes.append((opstamp, query))
        return opstamp
    }

    /// After a failed flush the writer refuses to add or commit until `rollback()`: the flushed documents are
    /// no longer in memory, and a commit would publish the batch without them.
    private func checkNoFailedFlush() throws(IndexError) {
        guard let failedFlush else { return }
        throw IndexError(
            failedFlush.code,
            "an earlier flush failed (\(failedFlush.message)); call rollback(), "
                + "then add the uncommitted documents again",
            context: failedFlush.context)
    }

    /// Flushes the buffer, applies the pending deletes and publishes the new commit point; then publishes the
    /// finished merges, starts those the policy picks, and removes what no commit references. Returns the opstamp.
    mutating func commit() throws(IndexError) -> UInt64 {
        try checkNoFailedFlush()
        try flush()
        var next = committed
        next.segments += pending
        next.opstamp = opstamp
        if !deletes.isEmpty { next.segments = try applyDeletes(to: next.segments, generation: opstamp) }
        let unsynced = try publish(next)
        pending = []
        deletes = []
        flushedOpstamps = [:]
        uncommittedDocuments = 0
        if let unsynced { throw unsynced }
        // The commit stands whatever happens to the merges: finished ones are published now, new ones start in the
        // background. A merge that failed leaves the segments as they were and is tried again later.
        publishFinishedMerges()
        startMerges()
        // Segments merged away are removed once no searcher holds them: those an older searcher still reads go at
        // a later commit, after the index has reloaded.
        removeUnreferencedFiles()
        return opstamp
    }

    /// Commits, reloads the index's searcher, then removes the files of segments merged away that the old
    /// searcher was still reading.
    mutating func commitAndReload() throws(IndexError) -> UInt64 {
        let stamp = try commit()
        try index.reload()
        removeUnreferencedFiles()
        return stamp
    }

    /// Makes `next` the commit point: fsyncs the folder (so every file it names is durable), copies the commit it
    /// replaces to meta.previous.json and atomically replaces meta.json, and fsyncs the folder again; then tells
    /// the index (`Index.didCommit`). A crash between the two writes leaves both files holding the old commit.
    ///
    /// Once meta.json is renamed into place the commit is in effect, so `committed` follows it even when the last
    /// fsync fails: that failure is returned, not thrown, for the caller to throw once its own bookkeeping matches
    /// the commit (a retried commit must not list its segments twice, nor a clean-up remove the files it names).
    /// - Returns: nil, or the error of the last fsync: the commit is published but may not survive a power loss.
    /// - Throws: `IndexError` `.io` when the commit could not be published; the previous one then stands.
    mutating func publish(_ next: IndexMeta) throws(IndexError) -> IndexError? {
        var file = IndexMeta.previousFileName
        do {
            try index.directory.syncDirectory()
            try index.directory.writeAtomically(file, committed.encode())
            file = IndexMeta.fileName
            try index.directory.writeAtomically(file, next.encode())
        } catch {
            throw IndexError(storage: error, file: file)
        }
        previous = committed
        committed = next
        index.didCommit()
        do {
            try index.directory.syncDirectory()
            return nil
        } catch {
            let cause = IndexError(storage: error, file: IndexMeta.fileName)
            return IndexError(
                cause.code,
                "\(cause.message); the commit is published, but the folder could not be synced, so it may not survive "
                    + "a power loss",
                context: cause.context)
        }
    }

    /// Drops every document and deletion since the last commit, and the segment files flushed for them.
    mutating func rollback() throws(IndexError) {
        threads?.discard()
        batch = IndexingThreads.Batch()
        current = try SegmentWriter(
            schema: committed.schema, analyzers: index.analyzers, limits: limits, spillingStoreTo: index.directory)
        pending = []
        deletes = []
        bufferedOpstamps = []
        flushedOpstamps = [:]
        opstamp = committed.opstamp
        uncommittedDocuments = 0
        failedFlush = nil
        removeUnreferencedFiles()
    }

    /// Waits for the background merges and publishes them, drops what is uncommitted (as `rollback()`), and
    /// releases the writer lock, even when the rollback fails.
    mutating func close() throws(IndexError) {
        defer { lock = nil }
        waitForMerges()
        try rollback()
    }

    /// Readers of `segments`: the index searcher's own where it has the segment open with the same deletes, new
    /// ones (not counted as a searcher's) for segments flushed since or changed since its last reload.
    func openReaders(_ segments: [IndexMeta.SegmentMeta]) throws(IndexError) -> [SegmentReader] {
        let open = index.searcher().segments
        var readers: [SegmentReader] = []
        for meta in segments {
            let generation = meta.deletes?.generation
            if let reader = open.first(where: { $0.id == meta.id && $0.deletesGeneration == generation }) {
                readers.append(reader)
            } else {
                readers.append(
                    try SegmentReader(
                        directory: index.directory, meta: meta, schema: index.schema, verifyChecksums: false,
                        storeCache: index.storeCache))
            }
        }
        return readers
    }
}
