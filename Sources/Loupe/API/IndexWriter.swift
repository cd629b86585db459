/// The one writer of an index: buffers documents in memory, flushes them to new segments when the memory
/// budget fills, and publishes them atomically at `commit()`.
///
/// Documents become searchable only after `commit()` and `Index.reload()` (or `commitAndReload()`).
/// A crash before `commit()` loses only the uncommitted documents. The writer holds the index's lock file
/// until it is released (dropped); use it from one thread at a time.
public final class IndexWriter {
    private let index: Index
    private let lock: any DirectoryLock
    private let memoryBudget: Int
    private var committed: IndexMeta
    private var current: SegmentWriter
    /// Segments flushed since the last commit (their files exist, meta.json does not list them yet).
    private var pending: [IndexMeta.SegmentMeta] = []
    private var opstamp: UInt64
    /// Set when a flush failed: its documents are gone from memory, so committing now would silently drop them.
    private var failedFlush: IndexError?

    init(index: Index, memoryBudget: Int) throws(IndexError) {
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
        removeUnreferencedFiles()
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
        do {
            try index.directory.syncDirectory()
            try index.directory.writeAtomically(IndexMeta.fileName, next.encode())
            try index.directory.syncDirectory()
        } catch {
            throw IndexError(storage: error, file: IndexMeta.fileName)
        }
        committed = next
        pending = []
        uncommittedDocuments = 0
        return opstamp
    }

    /// Commits, then reloads the index's searcher.
    @discardableResult
    public func commitAndReload() throws(IndexError) -> UInt64 {
        let stamp = try commit()
        try index.reload()
        return stamp
    }

    /// Drops every document added since the last commit, and the segment files flushed for them.
    public func rollback() throws(IndexError) {
        current = try SegmentWriter(schema: committed.schema, analyzers: index.analyzers)
        pending = []
        opstamp = committed.opstamp
        uncommittedDocuments = 0
        failedFlush = nil
        removeUnreferencedFiles()
    }

    /// Deletes segment files that no commit references: leftovers of a crash or a rollback. Best effort: a file
    /// that cannot be removed now is retried by the next writer.
    private func removeUnreferencedFiles() {
        let live = Set((committed.segments + pending).map(\.id))
        guard let names = try? index.directory.list() else { return }
        for name in names {
            let parts = name.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, let id = SegmentID(String(parts[0])), !live.contains(id) else { continue }
            try? index.directory.delete(name)
        }
    }
}
