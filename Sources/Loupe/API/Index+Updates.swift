/// One-call updates and statistics. Each update runs on the writer this index has open, when its user holds
/// one, so it works alongside that writer (its commit then also publishes the writer's pending documents and
/// deletions); otherwise it opens a temporary writer for the call, which fails with `.writerLocked` while another
/// `Index` or process holds the writer, and waits for the merges the commit started. Each update commits and
/// reloads before returning.
extension Index {
    /// Adds `document`, commits and reloads.
    /// - Throws: `IndexError` `.invalidDocument` naming the field, if the document does not fit the schema.
    public func add(_ document: Document) throws(IndexError) {
        try add(contentsOf: CollectionOfOne(document))
    }

    /// Adds `documents` in one commit, then reloads. Every document is checked against the schema before any is
    /// added, so an invalid one adds none.
    /// - Throws: `IndexError` `.invalidDocument` naming the field of the first document that does not fit.
    public func add(contentsOf documents: some Sequence<Document>) throws(IndexError) {
        let prepared = try documents.map { (document) throws(IndexError) in try schema.prepare(document) }
        try withWriter { (writer) throws(IndexError) in
            try writer.withEngine { (engine) throws(IndexError) in
                for document in prepared { _ = try engine.add(document) }
                _ = try engine.commitAndReload()
            }
        }
    }

    /// Runs `body` with the writer, then commits and reloads; returns what `body` returns. When `body` throws,
    /// the writer rolls back and nothing is committed. On the writer this index has open, the rollback also
    /// drops the changes it had not committed before the call.
    ///
    /// ```swift
    /// try index.write { writer in try writer.addDocument(["title": "Dune", "year": 1965]) }
    /// ```
    /// - Throws: what `body` throws, or the `IndexError` of the commit or the rollback.
    @discardableResult
    public func write<R>(_ body: (IndexWriter) throws -> R) throws -> R {
        let outcome = try withWriter { (writer) throws(IndexError) -> Result<R, any Error> in
            let outcome = Result { try body(writer) }
            switch outcome {
            case .success: _ = try writer.commitAndReload()
            case .failure: try writer.rollback()
            }
            return outcome
        }
        return try outcome.get()
    }

    /// Deletes the documents matching `query`, commits and reloads; returns how many committed documents were
    /// deleted (uncommitted ones of the open writer that match are deleted too, not counted).
    @discardableResult
    public func delete(matching query: Query) throws(IndexError) -> Int {
        try withWriter { (writer) throws(IndexError) in
            try writer.withEngine { (engine) throws(IndexError) in
                try reload()
                let matching = try searcher().count(query)
                _ = try engine.deleteDocuments(matching: query)
                _ = try engine.commitAndReload()
                return matching
            }
        }
    }

    /// Deletes the documents matching a query string, commits and reloads; returns how many committed documents
    /// were deleted.
    /// - Throws: `IndexError` `.invalidQuery` with the byte offset of a syntax error.
    @discardableResult
    public func delete(matching text: String) throws(IndexError) -> Int {
        try delete(matching: .parsed(text))
    }

    /// Replaces the documents whose `idField` holds the document's value of that field by `document`, in one
    /// commit (then reloads).
    /// - Throws: `IndexError` `.invalidDocument` when the document has no single value for `idField` or does not
    ///   fit the schema.
    public func upsert(_ document: Document, idField: String) throws(IndexError) {
        let ids = document[idField]
        guard ids.count == 1 else {
            throw IndexError(
                .invalidDocument, "an upsert needs exactly one value of '\(idField)' (got \(ids.count))",
                context: .init(field: idField))
        }
        try replace(field: idField, value: ids[0], with: document)
    }

    /// Deletes the documents whose `field` holds `value` and adds `document`, in one commit, then reloads. The
    /// document is checked first, so a refused one leaves no stray delete on a reused writer.
    package func replace(field: String, value: FieldValue, with document: Document) throws(IndexError) {
        let prepared = try schema.prepare(document)
        try withWriter { (writer) throws(IndexError) in
            try writer.withEngine { (engine) throws(IndexError) in
                _ = try engine.deleteDocuments(matching: .term(field: field, value: value))
                _ = try engine.add(prepared)
                _ = try engine.commitAndReload()
            }
        }
    }

    /// Merges every segment into one, dropping deleted documents, and reloads (`IndexWriter.merge()`).
    public func optimize() throws(IndexError) {
        try withWriter { (writer) throws(IndexError) in
            try writer.withEngine { (engine) throws(IndexError) in
                try engine.mergeAll()
                try reload()
                engine.removeUnreferencedFiles()
            }
        }
    }

    /// `optimize()` off the caller's actor (on the global concurrent executor), for async code that must not block.
    @concurrent
    public func optimizeAsync() async throws(IndexError) {
        try optimize()
    }

    /// Removes the files no commit references (see `IndexWriter.garbageCollect`); with `dryRun`, only lists them.
    @discardableResult
    public func garbageCollect(dryRun: Bool = false) throws(IndexError) -> GarbageCollection {
        // A temporary writer does not clean up at open here: the collection lists what it removes, and a dry run
        // removes nothing.
        try withWriter(cleaningUp: false) { (writer) throws(IndexError) in try writer.garbageCollect(dryRun: dryRun) }
    }

    /// Document and segment counts of the current searcher, and each segment's sizes.
    public func stats() -> IndexStats {
        let segments = searcher().segmentInfos
        return IndexStats(
            documentCount: segments.reduce(0) { $0 + $1.documentCount },
            deletedCount: segments.reduce(0) { $0 + $1.deletedCount },
            maxDoc: segments.reduce(0) { $0 + $1.maxDoc }, segments: segments)
    }
}

/// What `Index.stats()` reports.
public struct IndexStats: Sendable, Hashable {
    /// Live documents.
    public let documentCount: Int
    /// Documents deleted but still held by their segments (until a merge drops them).
    public let deletedCount: Int
    /// Documents held by the segments, deleted ones included.
    public let maxDoc: Int
    /// One entry per segment, in search order.
    public let segments: [SegmentInfo]

    /// How many segments the searcher reads.
    public var segmentCount: Int { segments.count }
}
