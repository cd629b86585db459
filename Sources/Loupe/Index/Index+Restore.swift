import LoupeAnalysis

/// Going back one commit: what `Index.restorePreviousCommit(path:)` and `idx recover` run when meta.json is damaged.
extension Index {
    /// The name a replaced meta.json is kept under, for whoever looks into the damage.
    package static let damagedMetaFileName = "meta.damaged.json"

    /// Makes the commit point in meta.previous.json the latest: checks it and every file of its segments (their
    /// checksums included), keeps meta.json's bytes as meta.damaged.json, and writes the previous commit as meta.json
    /// the atomic way. Holds the writer lock meanwhile. Returns the restored commit point.
    /// - Throws: `IndexError` `.writerLocked` while a writer is open, `.notFound` when there is no previous commit,
    ///   `.corruption` when it or one of its segment files is damaged (nothing is changed then), `.io`.
    package static func restorePreviousCommit(in directory: any Directory) throws(IndexError) -> IndexMeta {
        let lock: any DirectoryLock
        do {
            lock = try directory.lockWriter()
        } catch {
            throw IndexError(storage: error)
        }
        defer { withExtendedLifetime(lock) {} }
        let previous: IndexMeta
        do {
            previous = try readMeta(directory, name: IndexMeta.previousFileName)
        } catch {
            throw IndexError(
                error.code,
                "cannot restore the previous commit: \(error.message)"
                    + (error.code == .notFound ? " (the index has had at most one commit)" : ""),
                context: error.context)
        }
        // Opened with checksums verified, so a previous commit whose files are damaged or gone is refused.
        let searcher = try openSearcher(
            directory: directory, meta: previous, reusing: [], analyzers: .builtIn, verifyChecksums: true,
            storeCache: DocStoreCache(), registry: OpenSegments())
        withExtendedLifetime(searcher) {}
        do {
            if directory.exists(IndexMeta.fileName) {
                let damaged = try directory.open(IndexMeta.fileName)
                let bytes = withExtendedLifetime(damaged) { unsafe Array(damaged.bytes) }
                try directory.writeAtomically(damagedMetaFileName, bytes)
            }
            try directory.writeAtomically(IndexMeta.fileName, previous.encode())
            try directory.syncDirectory()
        } catch {
            throw IndexError(storage: error, file: IndexMeta.fileName)
        }
        return previous
    }
}
