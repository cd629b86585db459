extension Index {
    /// Called after every commit point this process publishes: each `commit()` and each merge publication of this
    /// index's writer, right after meta.json is replaced. It runs while that writer's lock is held, so it must not
    /// call back into the writer.
    ///
    /// With `ReloadPolicy.onCommit` it reloads the searcher (`reload()` touches no writer), so the commit is
    /// visible when `commit()` returns; with `.manual` it does nothing. A failed reload keeps the current searcher
    /// (see `lastReloadError`) and never fails the commit, which stands.
    package func didCommit() {
        guard autoReload.policy == .onCommit else { return }
        autoReload.reload(self)
    }

    /// How this index follows new commits.
    package var reloadPolicy: ReloadPolicy { autoReload.policy }

    /// Why the last automatic reload (`.onCommit`) failed, nil once one succeeds: the searcher stays on the last
    /// commit it could open.
    package var lastReloadError: IndexError? { autoReload.lastError }
}
