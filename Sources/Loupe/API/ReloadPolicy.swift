/// When an `Index`'s searcher moves on to a newer commit.
///
/// ```swift
/// let index = try Index(path: "/data/movies", schema: schema, reloadPolicy: .onCommit)
/// // Another process (or another `Index` on the same folder) commits; shortly after, this index searches it
/// // without a `reload()` call.
/// ```
public enum ReloadPolicy: Sendable, Hashable {
    /// Searches observe new commits only after `Index.reload()` (or `IndexWriter.commitAndReload()`).
    case manual
    /// The index reloads by itself after every commit, near-real-time.
    ///
    /// A commit made through this index's own writer is visible as soon as `commit()` returns. A commit made by
    /// another process (or another `Index` on the same folder) is picked up by a watcher on the index folder
    /// (inotify on Linux, a dispatch file-system source on macOS), without polling: the reload starts about
    /// 0.1 ms after meta.json is renamed into place (Linux, median; 90th percentile under 4 ms, worst seen 12 ms
    /// on a shared 2-core machine). The other process's `commit()` fsyncs the folder after that rename, so the
    /// commit is usually searchable here by the time its `commit()` returns there. There is no hard bound: a
    /// search right after another process's `commit()` may still see the previous generation. Bursts coalesce:
    /// the searcher may skip intermediate commits, never the last.
    ///
    /// A reload that fails (meta.json or a segment damaged, say) keeps the current searcher: searches go on over
    /// the last good commit, and the next commit is tried again. An in-memory index has only its own writer, so
    /// `.onCommit` there means visible when `commit()` returns.
    ///
    /// On Linux the watched indexes of a process share one inotify instance, and each watched folder costs one
    /// watch (`fs.inotify.max_user_watches`); on macOS each watched index holds one descriptor. The watch (or
    /// descriptor) goes when the `Index` is released.
    case onCommit
}
