import LoupeAnalysis

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A search index: a schema, committed segments, and the current searcher over them.
///
/// ```swift
/// let index = try Index(path: "/data/movies", schema: schema)
/// let writer = try index.writer()
/// try writer.addDocument(["title": "Heat", "year": 1995])
/// try writer.commitAndReload()
/// for hit in try index.search("heat", limit: 10) { print(hit.score, hit.string("title") ?? "") }
/// ```
public final class Index: Sendable {
    package let directory: any Directory
    /// The segments this index's searchers have open, which garbage collection leaves alone.
    package let openSegments = OpenSegments()
    /// Decoded store blocks, shared by the segment readers of all this index's searchers.
    package let storeCache = DocStoreCache()
    private let verifiesChecksums: Bool
    /// The reload policy, and the watcher that carries out `.onCommit` for other processes' commits.
    package let autoReload: AutoReload
    /// The schema the index was created with.
    public let schema: Schema
    private let state: Locked<State>

    private struct State {
        var searcher: Searcher
        var analyzers: AnalyzerRegistry
        /// The writer `writer()` opened, until it is closed or released.
        weak var writer: IndexWriter?
    }

    /// Opens the index at `path`, creating it (and the folder) when there is none.
    ///
    /// Opening always checks every file's footer (magic, file kind, format version) and every offset the readers
    /// use; it reads no more than that, so opening stays fast and memory-light however large the index. Pass
    /// `verifyChecksums: true` to also read every byte and check each file's CRC32 (as `checkIntegrity()` does).
    ///
    /// - Parameters:
    ///   - schema: required to create; when opening, it must equal the stored schema if given.
    ///   - reloadPolicy: `.manual` (searches see new commits after `reload()`) or `.onCommit` (the index reloads
    ///     by itself shortly after every commit, this process's or another's; see `ReloadPolicy`).
    ///   - verifyChecksums: check the CRC32 of every file of every segment opened, now and on `reload()`.
    /// - Throws: `IndexError` `.schemaMismatch`, `.notFound` (no index and no schema), `.corruption`, `.io` (also
    ///   when `.onCommit` cannot watch the folder).
    public convenience init(
        path: String, schema: Schema? = nil, reloadPolicy: ReloadPolicy = .manual, verifyChecksums: Bool = false
    ) throws(IndexError) {
        let directory: MmapDirectory
        do {
            directory = try MmapDirectory(path: path, create: schema != nil)
        } catch {
            throw IndexError(storage: error)
        }
        try self.init(
            directory: directory, schema: schema, reloadPolicy: reloadPolicy, verifyChecksums: verifyChecksums)
    }

    /// Opens the index in the folder at `url` (a file URL), creating it when there is none (see `init(path:)`).
    /// On iOS pass a writable place, such as Application Support or Caches.
    /// - Throws: `IndexError` `.invalidArgument` for a URL that is not a file URL, and what `init(path:)` throws.
    public convenience init(
        path url: URL, schema: Schema? = nil, reloadPolicy: ReloadPolicy = .manual, verifyChecksums: Bool = false
    ) throws(IndexError) {
        guard url.isFileURL else {
            throw IndexError(.invalidArgument, "an index lives in a folder: \(url) is not a file URL")
        }
        try self.init(path: url.path, schema: schema, reloadPolicy: reloadPolicy, verifyChecksums: verifyChecksums)
    }

    /// Makes the commit before the last one the index's latest again: the way back when opening fails with
    /// `.corruption` naming meta.json (the commit point is damaged or lost). Every commit keeps the one before it,
    /// with its segment files, for this. The documents and deletes of the last commit are lost; the damaged
    /// meta.json is kept beside the index as meta.damaged.json. Run it with no writer open.
    ///
    /// ```swift
    /// do {
    ///     index = try Index(path: path)
    /// } catch let error where error.code == .corruption && error.context.file?.hasSuffix("meta.json") == true {
    ///     try Index.restorePreviousCommit(path: path)
    ///     index = try Index(path: path)
    /// }
    /// ```
    /// - Throws: `IndexError` `.writerLocked` while a writer is open, `.notFound` when there is no previous commit,
    ///   `.corruption` when it or one of its segment files is damaged too (nothing is changed then), `.io`.
    public static func restorePreviousCommit(path: String) throws(IndexError) {
        let directory: MmapDirectory
        do {
            directory = try MmapDirectory(path: path, create: false)
        } catch {
            throw IndexError(storage: error)
        }
        _ = try restorePreviousCommit(in: directory)
    }

    /// A new index that lives in memory only. With `reloadPolicy: .onCommit`, each commit of its writer is
    /// searchable as soon as `commit()` returns.
    /// - Throws: `IndexError` `.invalidArgument` when `schema` is not valid (see `SchemaBuilder.build()`).
    public static func inMemory(schema: Schema, reloadPolicy: ReloadPolicy = .manual) throws(IndexError) -> Index {
        try Index(directory: RAMDirectory(), schema: schema, reloadPolicy: reloadPolicy, verifyChecksums: false)
    }

    package init(
        directory: any Directory, schema: Schema?, reloadPolicy: ReloadPolicy = .manual, verifyChecksums: Bool
    ) throws(IndexError) {
        self.directory = directory
        self.verifiesChecksums = verifyChecksums
        _ = try schema?.validated()
        // Watching starts before meta.json is read, so a commit landing while the searcher opens is not missed.
        autoReload = try AutoReload(policy: reloadPolicy, directory: directory)
        let meta: IndexMeta
        if directory.exists(IndexMeta.fileName) {
            meta = try Self.readMeta(directory)
            if let schema, schema != meta.schema {
                throw IndexError(
                    .schemaMismatch,
                    "the index at \(directory.location) was created with another schema; open it without a schema "
                        + "(or with the stored one), or create a new index",
                    context: .init(file: directory.location))
            }
        } else {
            guard !directory.exists(IndexMeta.previousFileName) else {
                throw IndexError(
                    .corruption,
                    "the index at \(directory.location) has lost its meta.json (meta.previous.json is there); "
                        + "restore the previous commit (Index.restorePreviousCommit(path:), idx recover)",
                    context: .init(file: directory.location + "/" + IndexMeta.fileName))
            }
            guard let schema else {
                throw IndexError(
                    .notFound, "no index at \(directory.location) (meta.json is missing)",
                    context: .init(file: directory.location))
            }
            meta = IndexMeta(schema: schema)
            do {
                try directory.writeAtomically(IndexMeta.fileName, meta.encode())
                try directory.syncDirectory()
            } catch {
                throw IndexError(storage: error, file: IndexMeta.fileName)
            }
        }
        self.schema = meta.schema
        let analyzers = AnalyzerRegistry.builtIn
        let searcher = try Self.openSearcher(
            directory: directory, meta: meta, reusing: [], analyzers: analyzers, verifyChecksums: verifyChecksums,
            storeCache: storeCache, registry: openSegments)
        state = Locked(State(searcher: searcher, analyzers: analyzers))
        autoReload.start(self)
    }

    /// Registers an analyzer under `name`, for text fields whose `tokenizer` names it. Register before
    /// creating a writer or parsing queries.
    public func registerAnalyzer(_ name: String, _ analyzer: TextAnalyzer) {
        state.withLock {
            $0.analyzers.register(name, analyzer)
            $0.searcher = Searcher(schema: schema, segments: $0.searcher.segments, analyzers: $0.analyzers)
        }
    }

    package var analyzers: AnalyzerRegistry { state.withLock { $0.analyzers } }

    /// The searcher over the segments committed as of the last open or `reload()`.
    public func searcher() -> Searcher { state.withLock { $0.searcher } }

    /// Documents visible to the current searcher.
    public var documentCount: Int { searcher().documentCount }

    /// Opens a new searcher over the latest commit; segments already open are shared, not reopened.
    /// - Throws: `IndexError` `.corruption` if meta.json or a segment file fails validation.
    public func reload() throws(IndexError) {
        let meta = try Self.readMeta(directory)
        let (current, analyzers) = state.withLock { ($0.searcher, $0.analyzers) }
        let fresh = try Self.openSearcher(
            directory: directory, meta: meta, reusing: current.segments, analyzers: analyzers,
            verifyChecksums: verifiesChecksums, storeCache: storeCache, registry: openSegments)
        state.withLock {
            $0.searcher = fresh
        }
    }

    /// The single writer of this index. The index keeps a weak reference to it, so its one-call updates
    /// (`add`, `upsert`, `write`, `optimize`, …) run on it while it is open; close or release it to open another.
    /// - Parameters:
    ///   - memoryBudget: bytes of buffered documents, over all indexing threads, before they are flushed to new
    ///     segments (≥ 1 MB a thread, ≤ `IndexWriter.maxMemoryBudget`).
    ///   - threads: indexing threads, 1 to `IndexWriter.maxThreads`. One keeps documents in the order they were
    ///     added; `IndexWriter.defaultThreads(memoryBudget:)` is tantivy's choice. See the writer's "Indexing
    ///     threads".
    /// - Throws: `IndexError` `.invalidArgument` for a thread count out of range or a budget under 1 MB a
    ///   thread or over `IndexWriter.maxMemoryBudget`, `.writerLocked` when another writer (in this or another
    ///   process) holds the index.
    public func writer(
        memoryBudget: Int = IndexWriter.defaultMemoryBudget, threads: Int = 1
    ) throws(IndexError) -> IndexWriter {
        guard (1...IndexWriter.maxThreads).contains(threads) else {
            throw IndexError(
                .invalidArgument, "indexing threads must be 1 to \(IndexWriter.maxThreads) (got \(threads))")
        }
        guard memoryBudget >= 1_000_000 * threads else {
            throw IndexError(
                .invalidArgument,
                "memory budget must be at least 1,000,000 bytes a thread, \(1_000_000 * threads) for \(threads) "
                    + "(got \(memoryBudget))")
        }
        guard memoryBudget <= IndexWriter.maxMemoryBudget else {
            throw IndexError(
                .invalidArgument,
                "memory budget must be at most \(IndexWriter.maxMemoryBudget) bytes (got \(memoryBudget))")
        }
        let writer = try IndexWriter(index: self, memoryBudget: memoryBudget, threads: threads)
        openWriter = writer
        return writer
    }

    /// The single writer of this index, sized the way the Tantivy bindings do (see `writer(memoryBudget:)`).
    /// - Parameter heapSize: bytes of buffered documents before a flush: 0 for the default 50 MB, else ≥ 1 MB.
    /// - Throws: `IndexError` `.invalidArgument` for a size under 1,000,000 bytes other than 0, `.writerLocked`.
    public func writer(heapSize: Int) throws(IndexError) -> IndexWriter {
        try writer(memoryBudget: heapSize == 0 ? IndexWriter.defaultMemoryBudget : heapSize)
    }

    /// The writer `writer()` opened while its user still holds it open; the one-call updates reuse it.
    package var openWriter: IndexWriter? {
        get { state.withLock { $0.writer } }
        set { state.withLock { $0.writer = newValue } }
    }

    /// Reads every file of the current searcher's segments and checks its CRC32.
    /// - Throws: `IndexError` `.corruption` naming the first damaged file.
    /// - Complexity: O(index size): it reads every byte.
    public func checkIntegrity() throws(IndexError) {
        for segment in searcher().segments { try segment.verifyChecksums() }
    }

    /// Reads every byte of every segment of the current searcher and reports each problem found, rather than
    /// stopping at the first: checksums, term order, postings (documents increasing, below max_doc, as many as
    /// the dictionary says), and that every stored document decompresses. The previous commit point
    /// (meta.previous.json, what `restorePreviousCommit(path:)` restores) is checked too, when there is one: its
    /// copy, and the checksums of the files it names that the current one does not.
    /// - Returns: the number of problems (0 for a sound index).
    /// - Complexity: O(index size).
    public func verify(_ report: (IndexError) -> Void) -> Int {
        let (current, analyzers) = state.withLock { ($0.searcher, $0.analyzers) }
        var problems = current.segments.reduce(0) { $0 + $1.check(schema: schema, report) }
        if directory.exists(IndexMeta.previousFileName) {
            do {
                let previous = try Self.readMeta(directory, name: IndexMeta.previousFileName)
                // Segments the current searcher has open as they are are reused; the rest open checksums verified.
                let searcher = try Self.openSearcher(
                    directory: directory, meta: previous, reusing: current.segments, analyzers: analyzers,
                    verifyChecksums: true, storeCache: DocStoreCache(), registry: OpenSegments())
                withExtendedLifetime(searcher) {}
            } catch {
                report(
                    IndexError(
                        error.code, "the previous commit (\(IndexMeta.previousFileName)): \(error.message)",
                        context: error.context))
                problems += 1
            }
        }
        return problems
    }
}
