private final class RAMLock: DirectoryLock, Sendable {
    let release: @Sendable () -> Void
    init(release: @escaping @Sendable () -> Void) { self.release = release }
    deinit { release() }
}

/// A file of a `RAMDirectory` being written: its bytes gather in an array and join the directory at commit.
private final class RAMFileSink: FileSink {
    private var bytes: [UInt8] = []
    private let publish: (HeapBytes) -> Void

    init(publish: @escaping (HeapBytes) -> Void) {
        self.publish = publish
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(StorageError) { unsafe self.bytes.append(contentsOf: bytes) }

    func commit() throws(StorageError) {
        publish(HeapBytes(bytes))
        bytes = []
    }

    func abort() { bytes = [] }
}

/// An index held entirely in memory (`Index.inMemory`). Same contract as `MmapDirectory`, minus durability.
package final class RAMDirectory: Directory, Sendable {
    private struct State {
        var files: [String: HeapBytes] = [:]
        var writerLocked = false
    }

    private let state = Locked(State())

    package init() {}

    package var location: String { "in-memory" }

    package func open(_ name: String) throws(StorageError) -> FileSlice {
        guard let file = state.withLock({ $0.files[name] }) else { throw .notFound(name) }
        return file.slice
    }

    package func createSink(_ name: String) throws(StorageError) -> any FileSink {
        RAMFileSink { [weak self] file in self?.state.withLock { $0.files[name] = file } }
    }

    package func syncDirectory() throws(StorageError) {}

    package func exists(_ name: String) -> Bool { state.withLock { $0.files[name] != nil } }

    package func delete(_ name: String) throws(StorageError) {
        let removed = state.withLock { $0.files.removeValue(forKey: name) }
        if removed == nil { throw .notFound(name) }
    }

    package func list() throws(StorageError) -> [String] { state.withLock { Array($0.files.keys) } }

    package func lockWriter() throws(StorageError) -> any DirectoryLock {
        let acquired = state.withLock { s -> Bool in
            if s.writerLocked { return false }
            s.writerLocked = true
            return true
        }
        guard acquired else { throw .locked("in-memory index") }
        return RAMLock { [weak self] in self?.state.withLock { $0.writerLocked = false } }
    }
}
