import Loupe

/// The update-heavy phase (issue #5's "update-heavy" row): upserts in batches with a commit after each batch, on
/// the index the run just built and queried.
extension BenchRun {
    /// Applies every upsert (delete by id, add the JSON document), committing after each `--upsert-batch` of them,
    /// then reloads and measures the index. Timed from writer creation until the merges the commits started are
    /// published (`waitForMerges`), as tantivy's side waits for its merging threads.
    ///
    /// The size is taken after an (untimed) garbage collection: until the reload, this run's own searcher holds
    /// the segments the merges replaced, and garbage collection spares open segments, so without it the folder
    /// would hold the pre-update index too. tantivy removes merged files at once, so its folder is comparable.
    func update(directory: String, upserts: UpsertList) throws -> BenchReport.UpdateResult {
        let index = try Index(path: directory)
        var result = BenchReport.UpdateResult(upserts: upserts.entries.count, batch: options.upsertBatch)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let writer = try index.writer(memoryBudget: options.memoryMB * 1_000_000, threads: options.threads)
            for (n, upsert) in zip(1..., upserts.entries) {
                try writer.deleteDocuments(field: upserts.idField, equals: upsert.id)
                do {
                    _ = try upsert.json.withUnsafeBytes { try writer.addJSON(bytes: $0) }
                } catch let error as IndexError where error.code == .invalidDocument {
                    // As at indexing: a document the schema rejects is one failed upsert, not the end of the run.
                    result.failed += 1
                }
                if n % options.upsertBatch == 0 || n == upserts.entries.count {
                    try writer.commit()
                    result.commits += 1
                }
            }
            writer.waitForMerges()
        }
        result.seconds = (clock.now - start).seconds
        try index.reload()
        result.garbageBytes = try index.garbageCollect().byteCount
        let stats = index.stats()
        result.segments = stats.segmentCount
        result.docs = stats.documentCount
        result.deleted = stats.deletedCount
        result.sizeBytes = try Self.directorySize(directory)
        return result
    }
}
