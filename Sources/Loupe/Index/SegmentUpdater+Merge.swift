/// Merge publication. After each commit the merge policy's merges start in the background (`BackgroundMerges`)
/// while the writer keeps adding; a finished merge is published at the next commit (or by `waitForMerges`),
/// atomically, by replacing meta.json. A merge interrupted by a crash, or abandoned with its writer, leaves the
/// index as it was (its files are orphans the next clean-up removes) and is redone later.
extension SegmentUpdater {
    /// Commits, lets the policy's merges finish, then merges every segment into one, dropping every deleted
    /// document; into as few as hold `limits.documentsPerSegment` documents each when one cannot hold them all.
    /// - Throws: the commit's error, or `lastMergeError` when a background merge failed.
    mutating func mergeAll() throws(IndexError) {
        _ = try commit()
        waitForMerges()
        if let lastMergeError { throw lastMergeError }
        let runs = MergePolicy.mergesIntoFewest(committed.segments, documentsPerSegment: limits.documentsPerSegment)
        // Each merge renumbers the segments after it, so the runs are found again by id.
        let ids = runs.map { $0.map { committed.segments[$0].id } }
        for run in ids {
            try merge(run.compactMap { id in committed.segments.firstIndex { $0.id == id } })
        }
    }

    /// Waits for the background merges, publishes them, and runs the merges they make due, until none is left.
    /// A merge that fails is not started again here (it is after the next commit); see `lastMergeError`.
    mutating func waitForMerges() {
        repeat {
            merges.wait()
        } while publishFinishedMerges() && startMerges() > 0
        removeUnreferencedFiles()
    }

    /// Starts the merges the policy picks among the committed segments no merge holds; returns how many started
    /// (a merge whose segments cannot be opened is reported in `lastMergeError` and not started).
    @discardableResult
    mutating func startMerges() -> Int {
        let free = committed.segments.filter { !merges.isBusy($0.id) }
        var started = 0
        for group in mergePolicy.merges(free, documentsPerSegment: limits.documentsPerSegment) {
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
    mutating func publishFinishedMerges() -> Bool {
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

    private mutating func publish(_ finished: BackgroundMerges.Finished) throws(IndexError) {
        var positions: [Int] = []
        for source in finished.sources {
            guard let i = committed.segments.firstIndex(where: { $0.id == source.id }) else { return }
            positions.append(i)
        }
        var merged = finished.merged
        if let segment = merged {
            let later = try finished.laterDeletes(committed: committed.segments, in: index.directory)
            if later.count == segment.maxDoc {
                merged = nil
            } else if later.count > 0 {
                merged = try writeDeletes(later, of: segment, generation: committed.opstamp)
            }
        }
        try replace(positions, with: merged)
    }

    /// Merges the committed segments at `group` into one (none if all their documents are deleted), here and now.
    private mutating func merge(_ group: [Int]) throws(IndexError) {
        let readers = try openReaders(group.map { committed.segments[$0] })
        let merger = SegmentMerger(schema: committed.schema, segments: readers)
        try replace(group, with: merger.write(as: SegmentID(), to: index.directory))
    }

    /// Publishes the commit point with the segments at `positions` replaced by `merged` (at the first position),
    /// then removes what is no longer referenced.
    private mutating func replace(_ positions: [Int], with merged: IndexMeta.SegmentMeta?) throws(IndexError) {
        var next = committed
        let first = positions.min() ?? 0
        next.segments = committed.segments.enumerated().compactMap { i, segment in
            if i == first { return merged }
            return positions.contains(i) ? nil : segment
        }
        let unsynced = try publish(next)
        removeUnreferencedFiles()
        if let unsynced { throw unsynced }
    }
}
