/// How an `Index` follows new commits (its `ReloadPolicy`): the folder watcher it runs for `.onCommit` on disk,
/// and how its last automatic reload went.
///
/// Automatic reloads (the watcher's, and `Index.didCommit()`'s after this index's own writer commits) run one at
/// a time, each reading meta.json afresh, so a slow reload of an older commit point never replaces a newer one's
/// searcher. A reload that fails leaves the searcher as it was and is recorded in `lastError`.
package final class AutoReload: Sendable {
    package let policy: ReloadPolicy
    /// Present for `.onCommit` on an `MmapDirectory`: other processes' commits reach this index through it.
    private let watcher: CommitWatcher?
    private let lastFailure = Locked<IndexError?>(nil)
    /// Held for the length of an automatic reload.
    private let reloading = Locked<Void>()

    /// Starts watching `directory`'s folder when `policy` is `.onCommit` and the directory is on disk;
    /// `start(_:)` then hands the watcher its index.
    /// - Throws: `IndexError` `.io` when the folder cannot be watched (on Linux, usually an inotify limit).
    package init(policy: ReloadPolicy, directory: any Directory) throws(IndexError) {
        self.policy = policy
        guard policy == .onCommit, let disk = directory as? MmapDirectory else {
            watcher = nil
            return
        }
        do {
            watcher = try CommitWatcher(folder: disk.path)
        } catch {
            throw IndexError(
                .io,
                "cannot watch \(disk.path) for new commits (\(error)); on Linux raise fs.inotify.max_user_watches "
                    + "(or max_user_instances), release indexes no longer used, or open with reloadPolicy: .manual",
                context: .init(file: disk.path))
        }
    }

    /// Begins reloading `index` after commits seen by the watcher. The watcher holds the index weakly: it stops
    /// when the index is released, and a callback after that does nothing.
    package func start(_ index: Index) {
        watcher?.start { [weak index] in
            guard let index else { return }
            index.autoReload.reload(index)
        }
    }

    /// Reloads `index`, one automatic reload at a time; records the error of a failed one, forgets it once one
    /// succeeds.
    package func reload(_ index: Index) {
        reloading.withLock {
            let outcome = Result { () throws(IndexError) in try index.reload() }
            lastFailure.withLock {
                if case .failure(let error) = outcome { $0 = error } else { $0 = nil }
            }
        }
    }

    /// Why the last automatic reload failed; nil if it succeeded (or none has run).
    package var lastError: IndexError? { lastFailure.withLock { $0 } }

    /// Whether a watcher follows other processes' commits.
    package var isWatching: Bool { watcher != nil }
}
