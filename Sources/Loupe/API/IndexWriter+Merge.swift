/// Merging and garbage collection. After each commit the merge policy's merges start in the background
/// (`BackgroundMerges`) while the writer keeps adding; a finished merge is published at the next commit (or by
/// `waitForMerges`), atomically, by replacing meta.json. A merge interrupted by a crash, or abandoned with its
/// writer, leaves the index as it was (its files are orphans the next clean-up removes) and is redone later.
extension IndexWriter {
    /// Commits, then merges: with `everything`, every segment into one, dropping every deleted document, before
    /// returning; otherwise what the merge policy picks, waiting for those merges.
    public func merge(everything: Bool = false) throws(IndexError) {
        try commit()
        waitForMerges()
        if let lastMergeError { throw lastMergeError }
        guard everything, committed.segments.count > 1 || committed.segments.contains(where: { $0.deletes != nil }) else {
            return
        }
        try merge(committed.segments.indices.map { $0 })
    }

    /// Waits for the background merges, publishes them, and runs the merges they make due, until none is left.
    /// Call it before releasing a writer whose merges should not be abandoned.
    /// A merge that fails is not started again here (it is after the next commit); see `lastMergeError`.
    public func waitForMerges() {
        repeat {
            merges.wait()
        } while publishFinishedMerges() && startMerges() > 0
        removeUnreferencedFiles()
    }

    /// Starts the merges the policy picks among the committed segments no merge holds; returns how many started
    /// (a merge whose segments cannot be opened is reported in `lastMergeError` and not started).
    @discardableResult
    func startMerges() -> Int {
        let free = committed.segments.filter { !merges.isBusy($0.id) }
        var started = 0
        for group in mergePolicy.merges(free) {
            let sources = group.map { free[$0] }
            do {
                let readers = try openReaders(sources)
                merges.start(sources, readers: readers, directory: index.directory, schema: committed.schema)
                started += 1
            } catch {
                lastMergeError = error
            }
        }
        return started
    }

    /// Publishes every finished merge whose segments are all still committed: the merged segment takes the place
    /// of the first of them, with the deletes committed since the merge started applied to it. Returns false when
    /// a merge failed.
    @discardableResult
    func publishFinishedMerges() -> Bool {
        var succeeded = true
        for finished in merges.takeFinished() {
            defer { merges.release(finished) }
            if let error = finished.error {
                lastMergeError = error
                succeeded = false
                continue
            }
            do {
                try publish(finished)
                lastMergeError = nil
            } catch {
                lastMergeError = error
                succeeded = false
            }
        }
        return succeeded
    }

    private func publish(_ finished: BackgroundMerges.Finished) throws(IndexError) {
        var positions: [Int] = []
        for source in finished.sources {
            guard let i = committed.segments.firstIndex(where: { $0.id == source.id }) else { return }
            positions.append(i)
        }
        var merged = finished.merged
        if var segment = merged {
            let later = try deletesSince(finished)
            if later.count == segment.maxDoc {
                merged = nil
            } else if later.count > 0 {
                let generation = committed.opstamp
                let name = DeletedDocsFormat.fileName(segment.id, generation: generation)
                do {
                    try index.directory.writeAtomically(name, DeletedDocsWriter.serialize(later))
                } catch {
                    throw IndexError(storage: error, file: name, segment: segment.id)
                }
                segment.deletes = IndexMeta.Deletes(generation: generation, count: later.count)
                merged = segment
            }
        }
        try replace(positions, with: merged)
    }

    /// The merged segment's documents deleted by commits made while the merge ran (their sources' deletes then
    /// were already left out of it).
    private func deletesSince(_ finished: BackgroundMerges.Finished) throws(IndexError) -> DocBitSet {
        var bits = DocBitSet(maxDoc: finished.merged?.maxDoc ?? 0)
        for (s, source) in finished.sources.enumerated() {
            guard let now = committed.segments.first(where: { $0.id == source.id })?.deletes,
                now.generation != source.deletes?.generation
            else { continue }
            let name = DeletedDocsFormat.fileName(source.id, generation: now.generation)
            let deleted: DeletedDocs
            do {
                deleted = try DeletedDocs(file: index.directory.open(name), maxDoc: source.maxDoc, verifyChecksum: false)
            } catch let error as StorageError {
                throw IndexError(storage: error, file: name, segment: source.id)
            } catch {
                throw IndexError(.corruption, "\(name): \(error)", context: .init(file: name, segment: source.id.description))
            }
            for doc in 0..<DocID(source.maxDoc) where deleted.contains(doc) && finished.newIDs[s][Int(doc)] >= 0 {
                bits.insert(DocID(finished.newIDs[s][Int(doc)]))
            }
        }
        return bits
    }

    /// Merges the committed segments at `group` into one (none if all their documents are deleted), here and now.
    private func merge(_ group: [Int]) throws(IndexError) {
        let merger = SegmentMerger(schema: committed.schema, segments: try openReaders(group.map { committed.segments[$0] }))
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
        try replace(group, with: merged)
    }

    /// Publishes the commit point with the segments at `positions` replaced by `merged` (at the first position),
    /// then removes what is no longer referenced.
    private func replace(_ positions: [Int], with merged: IndexMeta.SegmentMeta?) throws(IndexError) {
        var next = committed
        let first = positions.min() ?? 0
        next.segments = committed.segments.enumerated().compactMap { i, segment in
            if i == first { return merged }
            return positions.contains(i) ? nil : segment
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
