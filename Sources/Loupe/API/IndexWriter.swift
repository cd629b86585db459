/// The one writer of an index: buffers documents in memory, flushes them to new segments when the memory
/// budget fills, and publishes them — and the deletions asked for — atomically at `commit()`.
///
/// Documents become searchable only after `commit()` and `Index.reload()` (or `commitAndReload()`). Every add and
/// delete gets the next opstamp; a delete removes the matching documents added before it (committed, flushed or
/// still buffered), never those added after it.
/// A crash before `commit()` loses only the uncommitted documents. The writer holds the index's lock file
/// until it is released (dropped); use it from one thread at a time.
public final class IndexWriter {
    let index: Index
    private let lock: any DirectoryLock
    private let memoryBudget: Int
    /// The last commit point this writer wrote or read.
    var committed: IndexMeta
    /// What the writer merges after each commit (`MergePolicy.logarithmic` by default).
    public var mergePolicy: MergePolicy = .logarithmic
    /// Why the last merge that finished failed, nil once one succeeds (commits stand either way).
    public internal(set) var lastMergeError: IndexError?
    /// The merges running in the background, and those waiting to be published.
    let merges = BackgroundMerges()
    private var current: SegmentWriter
    /// Segments flushed since the last commit (their files exist, meta.json does not list them yet).
    private var pending: [IndexMeta.SegmentMeta] = []
    private var opstamp: UInt64
    /// Set when a flush failed: its documents are gone from memory, so committing now would silently drop them.
    private var failedFlush: IndexError?
    /// Deletions asked for since the last commit, in opstamp order.
    private var deletes: [(opstamp: UInt64, query: Query)] = []
    /// The opstamp of each document in the buffer, by document id.
    private var bufferedOpstamps: [UInt64] = []
    /// The opstamps of the documents of each segment flushed since the last commit.
    private var flushedOpstamps: [SegmentID: [UInt64]] = [:]

    /// - Parameter removingOrphans: remove the files no commit references now (false for `garbageCollect`, which
    ///   lists what it removes).
    init(index: Index, memoryBudget: Int, removingOrphans: Bool = true) throws(IndexError) {
        do {
            lock = try index.directory.lockWriter()
        } catch {
            throw IndexError(storage: error)
        }
        self.index = index
        self.memoryBudget = memoryBudget
        committed = try Index.readMeta(index.directory)
        opstamp = committed.opstamp
        current = try SegmentWriter(schema: committed.schema, analyzers: index.analyzers)
        if removingOrphans { removeUnreferencedFiles() }
    }

    /// Documents added since the last commit.
    public private(set) var uncommittedDocuments = 0

    /// Adds a document; returns its opstamp.
    /// - Throws: `IndexError` `.invalidDocument` naming the field, if the document does not fit the schema.
    @discardableResult
    public func addDocument(_ document: Document) throws(IndexError) -> UInt64 {
        try add(committed.schema.prepare(document))
    }

    /// Adds a document given as one JSON object (a JSONL line).
    /// - Throws: `IndexError` `.invalidDocument` with the field or the byte offset of the JSON error.
    @discardableResult
    public func addJSON(_ json: String) throws(IndexError) -> UInt64 {
        var text = json
        let prepared = text.withUTF8 { bytes in
            Result { () throws(IndexError) in unsafe try committed.schema.prepareJSON(UnsafeRawBufferPointer(bytes)) }
        }
        return try add(prepared.get())
    }

    /// Adds a document given as the UTF-8 bytes of one JSON object.
    @discardableResult
    package func addJSON(bytes: UnsafeRawBufferPointer) throws(IndexError) -> UInt64 {
        unsafe try add(committed.schema.prepareJSON(bytes))
    }

    private func add(_ document: PreparedDocument) throws(IndexError) -> UInt64 {
        try checkNoFailedFlush()
        current.add(document)
        opstamp += 1
        bufferedOpstamps.append(opstamp)
        uncommittedDocuments += 1
        if current.memoryUsage >= memoryBudget { try flush() }
        return opstamp
    }

    /// Writes the buffered documents as a new (uncommitted) segment.
    private func flush() throws(IndexError) {
        guard current.maxDoc > 0 else { return }
        let fresh = try SegmentWriter(schema: committed.schema, analyzers: index.analyzers)
        let writer = current
        current = fresh
        let meta = IndexMeta.SegmentMeta(id: SegmentID(), maxDoc: Int(writer.maxDoc))
        let files = SegmentSerializer.serialize(writer)
        for (component, bytes) in files {
            do {
                try index.directory.writeAtomically(component.fileName(meta.id), bytes)
            } catch {
                let failure = IndexError(storage: error, file: component.fileName(meta.id), segment: meta.id)
                failedFlush = failure
                throw failure
            }
        }
        pending.append(meta)
        flushedOpstamps[meta.id] = bufferedOpstamps
        bufferedOpstamps = []
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

    /// Deletes the documents matching `query`, once committed; returns the opstamp. The query runs at commit, on
    /// every document added before this call.
    /// - Throws: `IndexError` `.invalidQuery` if the query does not fit the schema (checked now, not at commit).
    @discardableResult
    public func deleteDocuments(matching query: Query) throws(IndexError) -> UInt64 {
        try checkNoFailedFlush()
        // Checked against the schema alone (a searcher of no segments): the terms are looked up at commit.
        _ = try Searcher(schema: committed.schema, segments: [], analyzers: index.analyzers).compile(query)
        opstamp += 1
        deletes.append((opstamp, query))
        return opstamp
    }

    /// Deletes every document added so far, once committed; returns the opstamp.
    @discardableResult
    public func deleteAllDocuments() throws(IndexError) -> UInt64 {
        try deleteDocuments(matching: .matchAll)
    }

    /// After a failed flush the writer refuses to add or commit until `rollback()`: the flushed documents are
    /// no longer in memory, and a commit would publish the batch without them.
    private func checkNoFailedFlush() throws(IndexError) {
        guard let failedFlush else { return }
        throw IndexError(
            failedFlush.code,
            "an earlier flush failed (\(failedFlush.message)); call rollback(), then add the uncommitted documents again",
            context: failedFlush.context)
    }

    /// Makes every document added so far durable and part of the index: flushes the buffer, fsyncs the new
    /// segment files, atomically replaces meta.json, and fsyncs the folder. Returns the commit's opstamp.
    @discardableResult
    public func commit() throws(IndexError) -> UInt64 {
        try checkNoFailedFlush()
        try flush()
        var next = committed
        next.segments += pending
        next.opstamp = opstamp
        if !deletes.isEmpty { next.segments = try applyDeletes(to: next.segments, generation: opstamp) }
        try publish(next)
        pending = []
        deletes = []
        flushedOpstamps = [:]
        uncommittedDocuments = 0
        // The commit stands whatever happens to the merges: finished ones are published now, new ones start in the
        // background. A merge that failed leaves the segments as they were and is tried again later.
        publishFinishedMerges()
        startMerges()
        // Segments merged away are removed once no searcher holds them: those an older searcher still reads go at
        // a later commit, after the index has reloaded.
        removeUnreferencedFiles()
        return opstamp
    }

    /// Makes `next` the commit point: fsyncs the folder (so every file it names is durable), atomically replaces
    /// meta.json, and fsyncs the folder again.
    func publish(_ next: IndexMeta) throws(IndexError) {
        do {
            try index.directory.syncDirectory()
            try index.directory.writeAtomically(IndexMeta.fileName, next.encode())
            try index.directory.syncDirectory()
        } catch {
            throw IndexError(storage: error, file: IndexMeta.fileName)
        }
        committed = next
    }

    /// Runs the pending deletions over `segments` and writes a deleted-documents file (generation `generation`)
    /// for each segment that loses documents; returns the segments' new metas, without the segments left empty.
    /// A segment flushed in this batch loses only documents older than the deletion; committed segments are
    /// older than every pending deletion.
    private func applyDeletes(to segments: [IndexMeta.SegmentMeta], generation: UInt64) throws(IndexError)
        -> [IndexMeta.SegmentMeta]
    {
        let readers = try openReaders(segments)
        let searcher = Searcher(schema: committed.schema, segments: readers, analyzers: index.analyzers)
        var deleted = readers.map { $0.deleted?.bitSet(maxDoc: $0.maxDoc) ?? DocBitSet(maxDoc: $0.maxDoc) }
        for (stamp, query) in deletes {
            var matches = DocSetCollector()
            try searcher.collect(searcher.compile(query), into: &matches)
            for (i, reader) in readers.enumerated() {
                let docStamps = flushedOpstamps[reader.id]
                for doc in matches.documents[i] {
                    if let docStamps, docStamps[Int(doc)] > stamp { break }
                    deleted[i].insert(doc)
                }
            }
        }
        var updated: [IndexMeta.SegmentMeta] = []
        for (i, meta) in segments.enumerated() {
            let count = deleted[i].count
            guard count != (meta.deletes?.count ?? 0) else {
                updated.append(meta)
                continue
            }
            if count == meta.maxDoc { continue }
            let name = DeletedDocsFormat.fileName(meta.id, generation: generation)
            do {
                try index.directory.writeAtomically(name, DeletedDocsWriter.serialize(deleted[i]))
            } catch {
                throw IndexError(storage: error, file: name, segment: meta.id)
            }
            var changed = meta
            changed.deletes = IndexMeta.Deletes(generation: generation, count: count)
            updated.append(changed)
        }
        return updated
    }

    /// Commits, then reloads the index's searcher, then removes the files of segments merged away that the old
    /// searcher was still reading.
    @discardableResult
    public func commitAndReload() throws(IndexError) -> UInt64 {
        let stamp = try commit()
        try index.reload()
        removeUnreferencedFiles()
        return stamp
    }

    /// Drops every document added since the last commit, and the segment files flushed for them.
    public func rollback() throws(IndexError) {
        current = try SegmentWriter(schema: committed.schema, analyzers: index.analyzers)
        pending = []
        deletes = []
        bufferedOpstamps = []
        flushedOpstamps = [:]
        opstamp = committed.opstamp
        uncommittedDocuments = 0
        failedFlush = nil
        removeUnreferencedFiles()
    }

    /// Readers of `segments`: the index searcher's own where it has the segment open with the same deletes, new
    /// ones (not counted as a searcher's) for segments flushed since or changed since its last reload.
    func openReaders(_ segments: [IndexMeta.SegmentMeta]) throws(IndexError) -> [SegmentReader] {
        let open = index.searcher().segments
        var readers: [SegmentReader] = []
        for meta in segments {
            if let reader = open.first(where: { $0.id == meta.id && $0.deletesGeneration == meta.deletes?.generation }) {
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

    /// Deletes the files `unreferencedFiles()` lists. Best effort: a file that cannot be removed now is retried
    /// by the next writer.
    func removeUnreferencedFiles() {
        for name in unreferencedFiles() { try? index.directory.delete(name) }
    }

    /// Segment files no commit references, no searcher of this index has open and no background merge is writing:
    /// leftovers of a crash or a rollback, segments merged away or dropped because every document was deleted,
    /// and deleted-documents files of older generations. Segments flushed since the last commit are referenced.
    func unreferencedFiles() -> [String] {
        let live = Dictionary((committed.segments + pending).map { ($0.id, $0.deletes?.generation) }, uniquingKeysWith: { a, _ in a })
        let open = index.openSegments
        guard let names = try? index.directory.list() else { return [] }
        return names.filter { name in
            if let (id, generation) = DeletedDocsFormat.parse(name) {
                return live[id] ?? nil != generation && !open.contains(id, generation: generation)
            }
            let parts = name.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, let id = SegmentID(String(parts[0])) else { return false }
            return live[id] == nil && !open.contains(id) && !merges.isOutput(id)
        }
    }
}
