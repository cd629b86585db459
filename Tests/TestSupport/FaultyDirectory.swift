import Loupe
import Synchronization

/// A directory (RAM by default) whose file writes fail on demand, to check that a failed flush, merge or commit
/// never publishes a partial batch and never loses what was committed.
///
/// A failing file can fail when it is created or after its first `k` bytes: the sink takes those bytes, then
/// answers ENOSPC, so the failure lands mid-file. Files are written through a 4 KiB buffer, so even a small test
/// segment reaches the sink in several writes, as a large one does through the standard buffer.
package final class FaultyDirectory: Directory, Sendable {
    private struct Fault {
        var suffix: String
        var afterBytes: Int?
    }

    private let inner: any Directory
    private let fault = Mutex<Fault?>(nil)
    private let counters = Mutex((midFileFailures: 0, aborted: 0))

    /// The buffer of each `FileWriter` this directory hands out.
    package static let bufferSize = 4 << 10

    package init(wrapping inner: any Directory = RAMDirectory()) { self.inner = inner }

    /// Makes writes of files whose name ends with `suffix` fail (nil: none do): at creation when `afterBytes` is
    /// nil, else once `afterBytes` bytes of the file were written.
    package func fail(filesEndingWith suffix: String?, afterBytes: Int? = nil) {
        fault.withLock { $0 = suffix.map { Fault(suffix: $0, afterBytes: afterBytes) } }
    }

    /// Writes that failed after some bytes of their file were written.
    package var midFileFailures: Int { counters.withLock { $0.midFileFailures } }
    /// Files abandoned before they were finished (their temporary file removed).
    package var abortedFiles: Int { counters.withLock { $0.aborted } }

    package var location: String { "faulty " + inner.location }
    package func open(_ name: String) throws(StorageError) -> FileSlice { try inner.open(name) }

    package func createSink(_ name: String) throws(StorageError) -> any FileSink {
        let fault = fault.withLock { f in f.flatMap { name.hasSuffix($0.suffix) ? $0 : nil } }
        if let fault, fault.afterBytes == nil { throw Self.noSpace(name) }
        return FaultySink(
            inner: try inner.createSink(name), name: name, limit: fault?.afterBytes ?? .max,
            record: { [self] midFile in
                self.counters.withLock { c in
                    if midFile { c.midFileFailures += 1 } else { c.aborted += 1 }
                }
            })
    }

    package func createFile(_ name: String) throws(StorageError) -> FileWriter {
        FileWriter(name: name, sink: try createSink(name), bufferSize: Self.bufferSize)
    }

    package func syncDirectory() throws(StorageError) { try inner.syncDirectory() }
    package func exists(_ name: String) -> Bool { inner.exists(name) }
    package func delete(_ name: String) throws(StorageError) { try inner.delete(name) }
    package func list() throws(StorageError) -> [String] { try inner.list() }
    package func lockWriter() throws(StorageError) -> any DirectoryLock { try inner.lockWriter() }

    fileprivate static func noSpace(_ name: String) -> StorageError {
        .system(SystemCallError(call: "write", path: name, errno: 28))
    }
}

/// Passes writes to the inner sink until `limit` bytes were written, then writes the bytes up to it and fails.
private final class FaultySink: FileSink {
    private let inner: any FileSink
    private let name: String
    private let limit: Int
    private let record: (_ midFile: Bool) -> Void
    private var written = 0

    init(inner: any FileSink, name: String, limit: Int, record: @escaping (_ midFile: Bool) -> Void) {
        self.inner = inner
        self.name = name
        self.limit = limit
        self.record = record
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        let room = limit - written
        guard bytes.count > room else {
            try inner.write(bytes)
            written += bytes.count
            return
        }
        if room > 0 { try inner.write(UnsafeRawBufferPointer(rebasing: bytes[..<room])) }
        written += room
        if written > 0 { record(true) }
        throw FaultyDirectory.noSpace(name)
    }

    func commit() throws(StorageError) { try inner.commit() }

    func abort() {
        record(false)
        inner.abort()
    }
}
