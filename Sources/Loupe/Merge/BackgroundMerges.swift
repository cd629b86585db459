import Dispatch

/// Merges run off the writer's thread. A merge reads a snapshot of its segments and writes the merged segment's
/// files in the background; the writer publishes the result later, holding its lock, at a commit (or
/// `waitForMerges`), re-applying to the merged segment the deletes committed while it ran. Nothing a merge does
/// becomes visible before that publication, so a merge abandoned when the writer goes away — or the process
/// exits — leaves the index as it was, and its files are orphans for the next clean-up.
package final class BackgroundMerges: Sendable {
    /// A merge whose files are written (or which failed), waiting to be published.
    package struct Finished: Sendable {
        /// The merged segments as they were when the merge started.
        package var sources: [IndexMeta.SegmentMeta]
        /// The id the merged segment's files are written under.
        package var output: SegmentID
        /// The merged segment; nil when every source document was deleted.
        package var merged: IndexMeta.SegmentMeta?
        /// Per source, each document's id in the merged segment (-1: deleted when the merge started).
        package var newIDs: [[Int32]]
        package var error: IndexError?
    }

    private struct State {
        /// Segments in a merge that is running or waiting to be published.
        var busy: Set<SegmentID> = []
        /// The segments those merges write, whose files clean-ups must leave alone until they are published.
        var outputs: Set<SegmentID> = []
        var finished: [Finished] = []
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "loupe.merges")

    package init() {}

    /// Whether a merge holds `segment`.
    package func isBusy(_ segment: SegmentID) -> Bool { state.withLock { $0.busy.contains(segment) } }

    /// Whether a merge is writing (or has written, unpublished) `segment`.
    package func isOutput(_ segment: SegmentID) -> Bool { state.withLock { $0.outputs.contains(segment) } }

    /// Starts merging `sources` in the background, read through `readers` (opened by the caller, on its thread,
    /// so the merge reads the segments as they are at this commit even if a later commit replaces their
    /// deleted-documents files before the queue reaches it).
    package func start(
        _ sources: [IndexMeta.SegmentMeta], readers: [SegmentReader], directory: any Directory, schema: Schema
    ) {
        let output = SegmentID()
        state.withLock {
            $0.busy.formUnion(sources.map(\.id))
            $0.outputs.insert(output)
        }
        queue.async { [self] in
            let finished = Self.run(sources, readers, into: output, directory: directory, schema: schema)
            state.withLock { $0.finished.append(finished) }
        }
    }

    /// Waits for the running merges to finish.
    package func wait() { queue.sync {} }

    /// The merges finished so far, handed over for publication (their segments stay busy until `release`).
    package func takeFinished() -> [Finished] {
        state.withLock { state in
            defer { state.finished = [] }
            return state.finished
        }
    }

    /// Frees the segments of a published or abandoned merge (call it once the commit point lists, or will never
    /// list, its output).
    package func release(_ finished: Finished) {
        state.withLock {
            $0.busy.subtract(finished.sources.map(\.id))
            $0.outputs.remove(finished.output)
        }
    }

    private static func run(
        _ sources: [IndexMeta.SegmentMeta], _ readers: [SegmentReader], into output: SegmentID,
        directory: any Directory,
        schema: Schema
    ) -> Finished {
        var result = Finished(sources: sources, output: output, merged: nil, newIDs: [], error: nil)
        do throws(IndexError) {
            let merger = SegmentMerger(schema: schema, segments: readers)
            result.newIDs = merger.newIDs
            result.merged = try merger.write(as: output, to: directory)
        } catch {
            result.error = error
        }
        return result
    }
}
