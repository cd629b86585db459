/// Merging and garbage collection. Merges run at the end of `commit()` as the merge policy asks, or on demand;
/// each merge writes a new segment and is published by replacing meta.json, so a merge interrupted by a crash
/// leaves the index as it was (its half-written files are orphans the next writer removes) and is redone later.
extension IndexWriter {
    /// Commits, then merges the segments the merge policy picks (with `everything`, all segments into one,
    /// dropping every deleted document).
    public func merge(everything: Bool = false) throws(IndexError) {
        try commit()
        if everything {
            guard committed.segments.count > 1 || committed.segments.contains(where: { $0.deletes != nil }) else { return }
            try merge(committed.segments.indices.map { $0 })
        } else {
            try mergeAsPolicySays()
        }
    }

    /// Merges until the policy finds nothing more to merge.
    func mergeAsPolicySays() throws(IndexError) {
        var rounds = 0
        while rounds < 64 {
            guard let group = mergePolicy.merges(committed.segments).first else { return }
            try merge(group)
            rounds += 1
        }
    }

    /// Merges the committed segments at `group` into one (none if all their documents are deleted), publishes the
    /// result, and removes the merged segments' files.
    private func merge(_ group: [Int]) throws(IndexError) {
        let metas = group.map { committed.segments[$0] }
        var readers: [SegmentReader] = []
        for meta in metas {
            readers.append(try SegmentReader(directory: index.directory, meta: meta, verifyChecksums: false))
        }
        let merger = SegmentMerger(schema: committed.schema, segments: readers)
        var merged: IndexMeta.SegmentMeta?
        if merger.maxDoc > 0 {
            let meta = IndexMeta.SegmentMeta(id: SegmentID(), maxDoc: merger.maxDoc)
            for (component, bytes) in try merger.merge() {
                do {
                    try index.directory.writeAtomically(component.fileName(meta.id), bytes)
                } catch {
                    throw IndexError(storage: error, file: component.fileName(meta.id), segment: meta.id)
                }
            }
            merged = meta
        }
        var next = committed
        let first = group.min() ?? 0
        next.segments = committed.segments.enumerated().compactMap { i, segment in
            if i == first { return merged }
            return group.contains(i) ? nil : segment
        }
        try publish(next)
        removeUnreferencedFiles()
    }

    /// Removes every file of the index folder that no commit point references: segments merged away or dropped,
    /// older deleted-documents generations, leftovers of crashes and rollbacks. Files of segments flushed since the
    /// last commit are kept. Searchers of this process keep reading the files they mapped (a removed file's
    /// mapping stays valid), so removing is safe while they run. With `dryRun`, only lists them.
    /// - Returns: the files (removed, or to remove) and their total size in bytes.
    @discardableResult
    public func garbageCollect(dryRun: Bool = false) throws(IndexError) -> GarbageCollection {
        let unreferenced = unreferencedFiles()
        var bytes = 0
        for name in unreferenced {
            bytes += (try? index.directory.open(name).count) ?? 0
        }
        if !dryRun { removeUnreferencedFiles() }
        return GarbageCollection(files: unreferenced.sorted(), byteCount: bytes)
    }
}

/// What `garbageCollect` found.
public struct GarbageCollection: Sendable, Hashable {
    /// The unreferenced files, by name.
    public let files: [String]
    /// Their total size.
    public let byteCount: Int
}

extension Index {
    /// Merges every segment into one, dropping deleted documents, and reloads. Takes the writer for its duration.
    public func optimize() throws(IndexError) {
        let writer = try writer()
        try writer.merge(everything: true)
        try reload()
        writer.removeUnreferencedFiles()
    }

    /// Removes the files no commit references (see `IndexWriter.garbageCollect`). Takes the writer for its duration.
    @discardableResult
    public func garbageCollect(dryRun: Bool = false) throws(IndexError) -> GarbageCollection {
        // Not the writer's own clean-up at open: the collection lists what it removes, and a dry run removes nothing.
        try IndexWriter(index: self, memoryBudget: 1_000_000, removingOrphans: false).garbageCollect(dryRun: dryRun)
    }
}
