extension Index {
    /// Called after every commit point this process publishes: each `commit()` and each merge publication of this
    /// index's writer, right after meta.json is replaced. It runs while that writer's lock is held, so it must not
    /// call back into the writer.
    package func didCommit() {}
}
