/// Merging and garbage collection. After each commit the merge policy's merges start in the background while the
/// writer keeps adding; a finished merge is published at the next commit (or by `waitForMerges`), atomically, by
/// replacing meta.json. A merge interrupted by a crash, or abandoned with its writer, leaves the index as it was
/// (its files are orphans the next clean-up removes) and is redone later.
extension IndexWriter {
    /// Commits, then merges every segment into one, dropping every deleted document, before returning (on an
    /// open writer the same operation as `Index.optimize()`, without the reload). The policy's running merges
    /// finish and are published first. Past 2^31 − 1 live documents, a segment's limit (Docs/FORMAT.md, "Limits"),
    /// the result is as few segments as hold them.
    /// - Throws: the commit's error, `lastMergeError` when a background merge failed, or the merge's own error
    ///   (`.io`, `.corruption`); the index then stays as committed.
    public func merge() throws(IndexError) {
        try withEngine { (engine) throws(IndexError) in try engine.mergeAll() }
    }

    /// Waits for the background merges, publishes them, and runs the merges they make due, until none is left.
    /// Call it before releasing a writer whose merges should not be abandoned (`close()` does). Does nothing on a
    /// closed writer. A merge that fails is not started again here (it is after the next commit); see
    /// `lastMergeError`.
    public func waitForMerges() {
        // A closed writer has no merges left, and must not touch the files of a writer that may hold the lock now.
        _ = try? withEngine { (engine) throws(IndexError) in engine.waitForMerges() }
    }

    /// Removes every file of the index folder that no commit point references: segments merged away or dropped,
    /// older deleted-documents generations, leftovers of crashes and rollbacks. Files of segments flushed since the
    /// last commit are kept. Searchers of this process keep reading the files they mapped (a removed file's
    /// mapping stays valid), so removing is safe while they run. With `dryRun`, only lists them.
    /// - Returns: the files (removed, or to remove) and their total size in bytes.
    @discardableResult
    public func garbageCollect(dryRun: Bool = false) throws(IndexError) -> GarbageCollection {
        try withEngine { (engine) throws(IndexError) in engine.garbageCollect(dryRun: dryRun) }
    }
}

/// What `garbageCollect` found.
public struct GarbageCollection: Sendable, Hashable {
    /// The unreferenced files, by name.
    public let files: [String]
    /// Their total size.
    public let byteCount: Int
}
