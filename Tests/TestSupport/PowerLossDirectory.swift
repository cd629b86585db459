import Loupe
import Synchronization

/// An in-memory directory that models a POSIX file system behind a page cache, to check what an index looks like
/// after a power loss at any moment.
///
/// Reads see every write at once, as from the page cache. What survives a power loss is less:
/// - a file's bytes are durable once its sink commits, which fsyncs the temporary file before renaming it (as
///   `MmapDirectory`'s sink does); bytes never fsync'd are lost, or only a prefix of them is kept;
/// - a name (a file created, a rename onto a name, a deletion) is durable only once `syncDirectory()` runs: until
///   then the power loss may undo it, so a renamed-over file comes back, a deleted file comes back, a new name is
///   gone.
///
/// Every mutation (creating a file, each write, the fsync and the rename of a commit, removing a temporary file,
/// a delete, a directory sync) is one operation. With `cuttingPowerAt: n`, the n-th operation and every call
/// after it fail as if the machine had stopped; `survivor()` is then what a reboot finds, and
/// `survivor(scrambling:)` one of the other states POSIX allows. Files are written through
/// a small buffer, so a segment's files take several writes each and a cut can land inside a file.
package final class PowerLossDirectory: Directory, Sendable {
    /// A file's bytes: `content` as the page cache holds them, `durable` as the disk does.
    private struct Inode {
        var content: [UInt8] = []
        var durable: [UInt8] = []
    }

    private struct State {
        /// Inodes by number; a file renamed over or deleted keeps its inode, which an undone name may point at.
        var inodes: [Int: Inode] = [:]
        var names: [String: Int] = [:]
        var durableNames: [String: Int] = [:]
        var nextInode = 0
        var operations = 0
        var cutAt: Int?
        var writerLocked = false

        var hasLostPower: Bool { cutAt.map { operations >= $0 } ?? false }
    }

    private let state: Mutex<State>

    /// The buffer of each `FileWriter` this directory hands out.
    package static let bufferSize = 4 << 10

    /// An empty directory; power goes at the `operation`-th operation (counting from 1), or never when nil.
    package convenience init(cuttingPowerAt operation: Int? = nil) {
        self.init(State(cutAt: operation))
    }

    private init(_ state: State) { self.state = Mutex(state) }

    /// Operations done so far (the cut one included).
    package var operations: Int { state.withLock { $0.operations } }

    /// Whether the power went.
    package var hasLostPower: Bool { state.withLock { $0.hasLostPower } }

    /// What a reboot finds: a new directory holding the durable names, each with its durable bytes. With a
    /// generator, the file system is less kind still, and stays within POSIX: each name change since the last
    /// directory sync independently persists or not (as a journal may have committed it), and a file whose bytes
    /// were never fsync'd keeps a random prefix of them. No lock is held in it, and it keeps all its power.
    package func survivor(scrambling rng: inout SplitMix64?) -> PowerLossDirectory {
        state.withLock { old in
            var fresh = State()
            for name in Set(old.names.keys).union(old.durableNames.keys).sorted() {
                var number = old.durableNames[name]
                if old.names[name] != number, rng?.chance(1, in: 2) == true { number = old.names[name] }
                guard let number, let inode = old.inodes[number] else { continue }
                var bytes = inode.durable
                if rng != nil, inode.content.count > bytes.count, inode.content.starts(with: bytes) {
                    let kept = Int.random(in: bytes.count...inode.content.count, using: &rng!)
                    bytes = Array(inode.content.prefix(kept))
                }
                fresh.inodes[fresh.nextInode] = Inode(content: bytes, durable: bytes)
                fresh.names[name] = fresh.nextInode
                fresh.nextInode += 1
            }
            fresh.durableNames = fresh.names
            return PowerLossDirectory(fresh)
        }
    }

    /// What a reboot finds in the worst case: every name change since the last directory sync undone, every byte
    /// not fsync'd lost.
    package func survivor() -> PowerLossDirectory {
        var none: SplitMix64? = nil
        return survivor(scrambling: &none)
    }

    package var location: String { "power-loss in-memory" }

    package func open(_ name: String) throws(StorageError) -> FileSlice {
        let bytes = try state.withLock { (s) throws(StorageError) -> [UInt8] in
            if s.hasLostPower { throw Self.powerLoss(name) }
            guard let number = s.names[name], let inode = s.inodes[number] else { throw .notFound(name) }
            return inode.content
        }
        return HeapBytes(bytes).slice
    }

    package func createSink(_ name: String) throws(StorageError) -> any FileSink {
        let temp = name + ".tmp"
        let number = try mutate(temp) { s in
            let number = s.nextInode
            s.nextInode += 1
            s.inodes[number] = Inode()
            s.names[temp] = number
            return number
        }
        return PowerLossSink(directory: self, inode: number, temp: temp, target: name)
    }

    package func createFile(_ name: String) throws(StorageError) -> FileWriter {
        FileWriter(name: name, sink: try createSink(name), bufferSize: Self.bufferSize)
    }

    package func syncDirectory() throws(StorageError) {
        try mutate("directory") { $0.durableNames = $0.names }
    }

    package func exists(_ name: String) -> Bool { state.withLock { $0.names[name] != nil } }

    package func delete(_ name: String) throws(StorageError) {
        try mutate(name) { (s) throws(StorageError) in
            guard s.names.removeValue(forKey: name) != nil else { throw .notFound(name) }
        }
    }

    package func list() throws(StorageError) -> [String] {
        try state.withLock { (s) throws(StorageError) in
            if s.hasLostPower { throw Self.powerLoss("directory") }
            return Array(s.names.keys)
        }
    }

    package func lockWriter() throws(StorageError) -> any DirectoryLock {
        let acquired = try state.withLock { (s) throws(StorageError) -> Bool in
            if s.hasLostPower { throw Self.powerLoss("lock") }
            if s.writerLocked { return false }
            s.writerLocked = true
            return true
        }
        guard acquired else { throw .locked("power-loss in-memory index") }
        return PowerLossLock { [weak self] in self?.state.withLock { $0.writerLocked = false } }
    }

    /// Counts one operation and runs `body`, unless this is the operation the power goes at, or it went before.
    private func mutate<R>(
        _ name: String, _ body: (inout State) throws(StorageError) -> R
    ) throws(StorageError) -> R {
        try state.withLock { (s) throws(StorageError) -> R in
            if s.hasLostPower { throw Self.powerLoss(name) }
            s.operations += 1
            if s.hasLostPower { throw Self.powerLoss(name) }
            return try body(&s)
        }
    }

    fileprivate func write(_ bytes: UnsafeRawBufferPointer, to inode: Int, name: String) throws(StorageError) {
        try mutate(name) { $0.inodes[inode]?.content.append(contentsOf: bytes) }
    }

    /// fsync: the inode's bytes reach the disk.
    fileprivate func sync(_ inode: Int, name: String) throws(StorageError) {
        try mutate(name) { s in
            if let content = s.inodes[inode]?.content { s.inodes[inode]?.durable = content }
        }
    }

    /// rename(2): `target` now names the inode `source` named.
    fileprivate func rename(_ source: String, to target: String) throws(StorageError) {
        try mutate(source) { (s) throws(StorageError) in
            guard let number = s.names.removeValue(forKey: source) else { throw .notFound(source) }
            s.names[target] = number
        }
    }

    /// unlink(2) of a temporary file, if it still names `inode`; a failure (the power went) is left unreported, as
    /// `FileSink.abort` cannot throw.
    fileprivate func removeTemporary(_ name: String, inode: Int) {
        try? mutate(name) { s in
            if s.names[name] == inode { s.names[name] = nil }
        }
    }

    private static func powerLoss(_ name: String) -> StorageError {
        // EIO: what a dying disk answers.
        .system(SystemCallError(call: "power loss", path: name, errno: 5))
    }
}

private final class PowerLossLock: DirectoryLock, Sendable {
    let release: @Sendable () -> Void
    init(release: @escaping @Sendable () -> Void) { self.release = release }
    deinit { release() }
}

/// A file being written: each write lands in the page cache; commit is fsync, then rename, two operations.
private final class PowerLossSink: FileSink {
    private let directory: PowerLossDirectory
    private let inode: Int
    private let temp: String
    private let target: String

    init(directory: PowerLossDirectory, inode: Int, temp: String, target: String) {
        self.directory = directory
        self.inode = inode
        self.temp = temp
        self.target = target
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        try directory.write(bytes, to: inode, name: temp)
    }

    func commit() throws(StorageError) {
        try directory.sync(inode, name: temp)
        try directory.rename(temp, to: target)
    }

    func abort() { directory.removeTemporary(temp, inode: inode) }
}
