/// One-call updates and lookups: each update opens the writer, commits, waits for the merges it started and
/// reloads, so it fails with `.writerLocked` while another writer is open (use that writer's methods instead).
extension Index {
    /// Deletes the documents matching `query`, commits and reloads; returns how many were deleted.
    @discardableResult
    public func delete(matching query: Query) throws(IndexError) -> Int {
        let writer = try writer()
        try reload()
        let matching = try searcher().count(query)
        try writer.deleteDocuments(matching: query)
        try writer.commitAndReload()
        try settle(writer)
        return matching
    }

    /// Replaces the documents whose `idField` holds the document's value of that field by `document`, in one
    /// commit (then reloads).
    /// - Throws: `IndexError` `.invalidDocument` when the document has no single value for `idField`.
    public func upsert(_ document: Document, idField: String) throws(IndexError) {
        let ids = document[idField]
        guard ids.count == 1 else {
            throw IndexError(
                .invalidDocument, "an upsert needs exactly one value of '\(idField)' (got \(ids.count))",
                context: .init(field: idField))
        }
        let writer = try writer()
        try writer.deleteDocuments(field: idField, equals: ids[0])
        try writer.addDocument(document)
        try writer.commitAndReload()
        try settle(writer)
    }

    /// Lets the merges the commit started finish and publishes them before the one-call writer goes away, then
    /// reloads.
    private func settle(_ writer: IndexWriter) throws(IndexError) {
        writer.waitForMerges()
        try reload()
        writer.removeUnreferencedFiles()
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

    public var segmentCount: Int { segments.count }
}
