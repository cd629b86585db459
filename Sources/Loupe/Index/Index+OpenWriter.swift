/// How the one-call updates of `Index` (`add`, `upsert`, `delete(matching:)`, `write`, `optimize`,
/// `garbageCollect`) get a writer: they reuse the one this index has open, so they work while its user holds it,
/// and otherwise open a temporary one for the call.
extension Index {
    /// Runs `body` on the writer this index has open or, when there is none, on a temporary writer released at
    /// the end. The open writer's merges keep running in the background, as after any of its commits; the
    /// temporary one's would be abandoned, so they are published first, then the index reloads and the files
    /// merged away are removed.
    /// - Parameter cleaningUp: false for a garbage collection, which lists what it removes: a temporary writer
    ///   then neither removes orphans when it opens nor settles at the end.
    /// - Throws: `IndexError` `.writerLocked` when another `Index` or process holds the writer, or what `body`
    ///   throws.
    package func withWriter<R>(
        cleaningUp: Bool = true, _ body: (IndexWriter) throws(IndexError) -> R
    )
        throws(IndexError) -> R
    {
        if let open = openWriter { return try body(open) }
        let temporary = try IndexWriter(
            index: self, memoryBudget: IndexWriter.defaultMemoryBudget, removingOrphans: cleaningUp)
        let result = try body(temporary)
        if cleaningUp {
            try temporary.withEngine { (engine) throws(IndexError) in
                engine.waitForMerges()
                try reload()
                engine.removeUnreferencedFiles()
            }
        }
        return result
    }

    /// A writer with other limits than the engine's, for tests of the boundaries; otherwise as `writer()`.
    /// - Throws: `IndexError` `.writerLocked` when another writer holds the index.
    package func writer(
        limits: IndexLimits, memoryBudget: Int = IndexWriter.defaultMemoryBudget, threads: Int = 1
    ) throws(IndexError)
        -> IndexWriter
    {
        let writer = try IndexWriter(index: self, memoryBudget: memoryBudget, threads: threads, limits: limits)
        openWriter = writer
        return writer
    }
}
