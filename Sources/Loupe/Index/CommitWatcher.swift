import Dispatch
import Synchronization

/// Calls back, off the caller's thread, shortly after a new commit point appears in an index folder:
/// `ReloadPolicy.onCommit` for commits other processes make.
///
/// A commit replaces `meta.json` by an atomic rename (`Directory.writeAtomically` on an `MmapDirectory`). The
/// watcher waits for that without polling, through the platform's `FolderEvents`:
/// - **Linux** (`CommitWatcher+Linux.swift`): a watch on the folder for `IN_MOVED_TO | IN_CLOSE_WRITE` filtered
///   to the name `meta.json`, in the process's one inotify instance, read by a dispatch read source.
/// - **Darwin** (`CommitWatcher+Darwin.swift`): a dispatch file-system object source (`.write`) on an `O_EVTONLY`
///   descriptor of the folder, filtered by meta.json's identity (inode, size, modification time).
///
/// Bursts coalesce: while a callback is pending (scheduled, not yet started), further commits add nothing, and a
/// commit that lands while a callback runs schedules exactly one more. Callbacks run one at a time on the
/// watcher's own serial queue, so a slow one delays no other index's.
///
/// Two phases, so no commit slips between an index reading meta.json and starting to follow it: `init` starts
/// watching and remembers any commit it sees, `start(_:)` begins calling back (at once if a commit came first).
/// Releasing the watcher stops its events synchronously: a callback already scheduled then does nothing.
package final class CommitWatcher: Sendable {
    private let delivery: Delivery
    private let events: FolderEvents

    /// Starts watching `folder` for a new `fileName`.
    /// - Throws: `SystemCallError` when the folder cannot be watched (a missing folder; on Linux, no inotify
    ///   instance or watch left: `fs.inotify.max_user_instances`, `max_user_watches`).
    package init(folder: String, fileName: String = IndexMeta.fileName) throws(SystemCallError) {
        let delivery = Delivery()
        self.delivery = delivery
        events = try FolderEvents(folder: folder, fileName: fileName) { [weak delivery] in delivery?.commitSeen() }
    }

    /// Begins calling `onCommit` on the watcher's queue after each commit (bursts coalesced), including one seen
    /// since `init`. Call once.
    package func start(_ onCommit: @escaping @Sendable () -> Void) {
        delivery.start(onCommit)
    }
}

/// The platform-neutral half of a watcher: holds commits seen before `start`, coalesces, and calls back on its
/// own serial queue.
private final class Delivery: Sendable {
    private let queue = DispatchQueue(label: "loupe.commit-watcher")
    /// Set while a callback is scheduled and has not started.
    private let pending = Atomic<Bool>(false)
    private let state = Locked<State>(State())

    private struct State {
        var onCommit: (@Sendable () -> Void)?
        /// A commit was seen before `start`.
        var missed = false
    }

    /// Called by `FolderEvents`, on any thread, for each batch of events that includes a commit.
    func commitSeen() {
        let onCommit = state.withLock { state in
            if state.onCommit == nil { state.missed = true }
            return state.onCommit
        }
        if let onCommit { schedule(onCommit) }
    }

    func start(_ onCommit: @escaping @Sendable () -> Void) {
        let missed = state.withLock { state in
            precondition(state.onCommit == nil, "CommitWatcher.start called twice")
            state.onCommit = onCommit
            return state.missed
        }
        if missed { schedule(onCommit) }
    }

    /// Runs `onCommit` on the queue soon, unless a run is already scheduled and not yet started: that run reads
    /// the newest commit point anyway.
    private func schedule(_ onCommit: @escaping @Sendable () -> Void) {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [weak self] in
            guard let self else { return }
            // Cleared before the callback, so a commit landing while it runs schedules another.
            pending.store(false, ordering: .releasing)
            onCommit()
        }
    }
}
