/// Garbage collection: the files of the index folder that no commit point references. Searchers of this process
/// keep reading the files they mapped (a removed file's mapping stays valid), and the files of segments they have
/// open are left alone until they reload, so removing is safe while they run.
extension SegmentUpdater {
    /// Deletes the files `unreferencedFiles()` lists. Best effort: a file that cannot be removed now is retried
    /// by the next writer.
    func removeUnreferencedFiles() {
        for name in unreferencedFiles() { try? index.directory.delete(name) }
    }

    /// Segment files neither the last commit nor the one before it references, no searcher of this index has
    /// open and no background merge, indexing thread or segment being indexed (its store, `StoreSpill`) is
    /// writing: leftovers of a crash or a rollback, segments merged away or dropped because every document was
    /// deleted two commits ago, and deleted-documents files of older generations. Segments flushed since the last
    /// commit are referenced.
    func unreferencedFiles() -> [String] {
        var live: [SegmentID: Set<UInt64?>] = [:]
        for segment in committed.segments + pending + (previous?.segments ?? []) {
            live[segment.id, default: []].insert(segment.deletes?.generation)
        }
        let open = index.openSegments
        guard let names = try? index.directory.list() else { return [] }
        return names.filter { name in
            if let (id, generation) = DeletedDocsFormat.parse(name) {
                return live[id]?.contains(generation) != true && !open.contains(id, generation: generation)
            }
            let parts = name.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, let id = SegmentID(String(parts[0])) else { return false }
            return live[id] == nil && id != current.id && !open.contains(id) && !merges.isOutput(id)
                && threads?.isOutput(id) != true
        }
    }

    /// Lists the unreferenced files and their total size, and removes them unless `dryRun`.
    func garbageCollect(dryRun: Bool) -> GarbageCollection {
        let unreferenced = unreferencedFiles()
        var bytes = 0
        for name in unreferenced {
            bytes += (try? index.directory.open(name).count) ?? 0
        }
        if !dryRun { removeUnreferencedFiles() }
        return GarbageCollection(files: unreferenced.sorted(), byteCount: bytes)
    }
}
