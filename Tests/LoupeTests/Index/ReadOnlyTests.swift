import Foundation
import Loupe
import Synchronization
import TestSupport
import Testing

/// An index shipped read-only (inside an app bundle, on a read-only volume) opens and answers every kind of read
/// without creating a lock file or anything else (tantivy #557), and a writer on it fails with a clear error.
@Suite struct ReadOnlyTests {
    /// A directory that records every call that would change the folder, and refuses it as a read-only file
    /// system does.
    final class ReadOnlyDirectory: Directory, Sendable {
        let inner: any Directory
        let writes = Mutex<[String]>([])

        init(_ inner: any Directory) { self.inner = inner }

        private func refuse(_ call: String, _ name: String) -> StorageError {
            writes.withLock { $0.append("\(call) \(name)") }
            return .system(SystemCallError(call: call, path: name, errno: EROFS))
        }

        var location: String { inner.location }
        func open(_ name: String) throws(StorageError) -> FileSlice { try inner.open(name) }
        func createSink(_ name: String) throws(StorageError) -> any FileSink { throw refuse("create", name) }
        func syncDirectory() throws(StorageError) { throw refuse("fsync", ".") }
        func exists(_ name: String) -> Bool { inner.exists(name) }
        func delete(_ name: String) throws(StorageError) { throw refuse("unlink", name) }
        func list() throws(StorageError) -> [String] { try inner.list() }
        func lockWriter() throws(StorageError) -> any DirectoryLock { throw refuse("lock", ".loupe-writer.lock") }
    }

    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("title", stored: true)
        .addStringField("genre", stored: true, fast: true)
        .addU64Field("year", stored: true, fast: true)
        .build(defaultFields: ["title"], idField: "id")

    /// An index of two segments, one with a deleted document, in `path`.
    static func build(at path: String) throws {
        let index = try Index(path: path, schema: schema)
        let writer = try index.writer()
        writer.mergePolicy = .never
        let titles = ["heat", "the heat of the night", "night train", "the godfather", "godfather part two"]
        for (i, title) in titles.enumerated() {
            try writer.addDocument([
                "id": DocumentValue(.text("m\(i)")), "title": DocumentValue(.text(title)),
                "genre": DocumentValue(.text(i % 2 == 0 ? "crime" : "drama")),
                "year": DocumentValue(.u64(1970 + UInt64(i))),
            ])
            if i == 2 { try writer.commit() }
        }
        try writer.deleteDocuments(field: "id", equals: "m1")
        try writer.commit()
    }

    /// Every read the API offers, checked against the four live documents, and the search history kept in `folder`.
    static func readEverything(_ index: Index, folder: String) throws {
        #expect(index.documentCount == 4)
        #expect(try index.search("godfather", limit: 10).hits.count == 2)
        #expect(try index.count(.parsed("night")) == 1)
        #expect(try index.get("id", equals: "m3")?.string("title") == "the godfather")
        #expect(try index.termCounts("genre", limit: 5).map(\.count) == [3, 1])
        #expect(try index.aggregate(#"{"y": {"stats": {"field": "year"}}}"#).contains("\"count\":4"))
        #expect(try index.suggest("godf", field: "title").first?.text == "godfather")
        #expect(try index.instantSearch("godfath").hits.count == 2)
        #expect(try index.search(.matchAll, limit: 2, orderBy: .descending("year")).hits.count == 2)
        try index.checkIntegrity()
        #expect(index.verify { Issue.record("\($0)") } == 0)
        try index.reload()
        #expect(
            try SearchHistory(path: folder + "/search-history.bin").recent().isEmpty,
            "a history that was never recorded is empty")
    }

    @Test func everyReadLeavesTheFolderUntouched() throws {
        let folder = TemporaryDirectory()
        try Self.build(at: folder.path)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let directory = ReadOnlyDirectory(try MmapDirectory(path: folder.path, create: false))
        for verifyChecksums in [false, true] {
            let index = try Index(directory: directory, schema: nil, verifyChecksums: verifyChecksums)
            try Self.readEverything(index, folder: folder.path)
        }
        #expect(directory.writes.withLock { $0 } == [], "reads made no change to the folder")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)

        let index = try Index(directory: directory, schema: nil, verifyChecksums: false)
        let error = try #require(throws: IndexError.self) { try index.writer() }
        #expect(error.message.contains("read-only") && error.message.contains("searching"), "\(error)")
        #expect(throws: IndexError.self) { try index.add(["id": "new", "title": "x"]) }
        #expect(try index.search("godfather", limit: 10).hits.count == 2, "the failed writer changed nothing")
    }

    /// The same on a real read-only file system: a read-only bind mount of the index folder as root (a non-root
    /// user gets read-only permissions instead, which the kernel enforces for it).
    @Test func anIndexOnAReadOnlyFileSystemOpensAndSearches() throws {
        let folder = TemporaryDirectory()
        try Self.build(at: folder.path + "/source")
        let view = try ReadOnlyView(of: folder.path + "/source", at: folder.path + "/view")
        defer { view.remove() }
        // A root without the right to mount (some containers) has no way to make one; the test above still holds.
        guard view.isReadOnly else {
            print("ReadOnlyTests: no read-only view of the folder here (\(view.how)); the file-system test is skipped")
            return
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: view.path).sorted()
        let index = try Index(path: view.path, reloadPolicy: .onCommit)
        try Self.readEverything(index, folder: view.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: view.path).sorted() == before)
        let error = try #require(throws: IndexError.self) { try index.writer() }
        #expect(error.message.contains("read-only"), "\(error)")
    }
}

/// A read-only view of a folder: a read-only bind mount as root, otherwise the folder itself with its write
/// permissions removed.
struct ReadOnlyView {
    let path: String
    let how: String
    private let mounted: Bool

    init(of source: String, at target: String) throws {
        if getuid() == 0 {
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            let bound = Self.run("/bin/mount", ["--bind", source, target])
            let remounted = bound == 0 && Self.run("/bin/mount", ["-o", "remount,ro,bind", target]) == 0
            path = target
            mounted = bound == 0
            how = remounted ? "read-only bind mount" : "mount failed (\(bound))"
        } else {
            for name in try FileManager.default.contentsOfDirectory(atPath: source) {
                chmod(source + "/" + name, 0o444)
            }
            chmod(source, 0o555)
            path = source
            mounted = false
            how = "permissions 0555/0444"
        }
    }

    /// Whether creating a file in the view fails, as it must.
    var isReadOnly: Bool {
        let probe = path + "/.probe"
        let fd = open(probe, O_CREAT | O_WRONLY, 0o644)
        guard fd < 0 else {
            close(fd)
            unlink(probe)
            return false
        }
        return true
    }

    func remove() {
        if mounted { _ = Self.run("/bin/umount", [path]) }
        if !mounted, getuid() != 0 { chmod(path, 0o755) }
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
