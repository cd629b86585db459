#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only memory mapping of a whole file; unmapped when the last slice referencing it goes away.
@safe
package final class MappedFile: FileOwner, @unchecked Sendable {
    // @unchecked: `base` points at a read-only mapping that is never written and is unmapped only in deinit.
    private let base: UnsafeRawPointer?
    private let length: Int

    package init(path: String, faults: SystemCallFaults? = nil) throws(SystemCallError) {
        try faults.check(.open, path)
        let fd = try Syscalls.open(path, flags: O_RDONLY)
        defer { Syscalls.close(fd) }
        length = try Syscalls.fileSize(fd, path: path)
        // mmap refuses zero-length mappings; an empty file is an empty view.
        if length > 0 { try faults.check(.mmap, path) }
        unsafe base = unsafe length == 0 ? nil : try Syscalls.mmapReadOnly(fd, length: length, path: path)
    }

    package var slice: FileSlice {
        unsafe FileSlice(owner: self, bytes: UnsafeRawBufferPointer(start: base, count: length))
    }

    deinit {
        if let base = unsafe base { unsafe Syscalls.munmap(base, length: length) }
    }
}

/// The writer lock of an on-disk index: an exclusive `flock` on `.loupe-writer.lock`, held while the value lives.
private final class FileLock: DirectoryLock, Sendable {
    private let fd: Int32

    init(fd: Int32) { self.fd = fd }

    deinit { Syscalls.close(fd) }
}

/// A file being written to disk under `temp` (the final name plus ".tmp"): plain `write(2)`s, then `fsync` and
/// `rename` at commit. A leftover temporary file of a crash is named after its segment, so garbage collection
/// removes it like any other unreferenced file.
private final class MmapFileSink: FileSink {
    private var fd: Int32?
    private let temp: String
    private let target: String
    private let faults: SystemCallFaults?

    init(fd: Int32, temp: String, target: String, faults: SystemCallFaults?) {
        self.fd = fd
        self.temp = temp
        self.target = target
        self.faults = faults
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        guard let fd else { throw .system(SystemCallError(call: "write", path: temp, errno: EBADF)) }
        do {
            try faults.check(.write, temp)
            try unsafe Syscalls.writeAll(fd, bytes, path: temp)
        } catch {
            throw .system(error)
        }
    }

    func commit() throws(StorageError) {
        guard let fd else { throw .system(SystemCallError(call: "fsync", path: temp, errno: EBADF)) }
        do {
            try faults.check(.fsync, temp)
            try Syscalls.fsync(fd, path: temp)
            Syscalls.close(fd)
            self.fd = nil
            try faults.check(.rename, temp)
            try Syscalls.rename(temp, target)
        } catch {
            throw .system(error)
        }
    }

    func abort() {
        if let fd { Syscalls.close(fd) }
        fd = nil
        try? faults.check(.unlink, temp)
        try? Syscalls.unlink(temp)
    }

    deinit {
        if let fd { Syscalls.close(fd) }
    }
}

/// Segment files on disk, read through mmap.
package final class MmapDirectory: Directory, Sendable {
    package let path: String
    package static let writerLockName = ".loupe-writer.lock"
    /// The failures a fault-injection test arms; nil otherwise.
    private let faults: SystemCallFaults?

    package init(path: String, create: Bool, faults: SystemCallFaults? = nil) throws(StorageError) {
        self.path = path
        self.faults = faults
        if create {
            do { try Syscalls.mkdirs(path) } catch { throw .system(error) }
        } else if !Syscalls.exists(path) {
            throw .notFound(path)
        }
    }

    package var location: String { path }

    private func full(_ name: String) -> String { path + "/" + name }

    package func open(_ name: String) throws(StorageError) -> FileSlice {
        let p = full(name)
        do {
            return try MappedFile(path: p, faults: faults).slice
        } catch {
            if error.errno == ENOENT { throw .notFound(p) }
            throw .system(error)
        }
    }

    package func createSink(_ name: String) throws(StorageError) -> any FileSink {
        let target = full(name)
        let temp = target + ".tmp"
        do {
            try faults.check(.open, temp)
            return MmapFileSink(
                fd: try Syscalls.open(temp, flags: O_WRONLY | O_CREAT | O_TRUNC), temp: temp, target: target,
                faults: faults)
        } catch {
            throw .system(error)
        }
    }

    package func syncDirectory() throws(StorageError) {
        do {
            try faults.check(.fsync, path)
            try Syscalls.fsyncDirectory(path)
        } catch {
            throw .system(error)
        }
    }

    package func exists(_ name: String) -> Bool { Syscalls.exists(full(name)) }

    package func delete(_ name: String) throws(StorageError) {
        do {
            try faults.check(.unlink, full(name))
            try Syscalls.unlink(full(name))
        } catch {
            throw .system(error)
        }
    }

    package func list() throws(StorageError) -> [String] {
        do { return try Syscalls.listDirectory(path) } catch { throw .system(error) }
    }

    /// Takes the writer lock (`flock` on `.loupe-writer.lock`), trying again for up to 200 ms before it
    /// reports the index locked: a lock this process has just released stays held while a child process it is
    /// spawning shares the descriptor, until the child's `exec` closes it (the file is opened `O_CLOEXEC`).
    package func lockWriter() throws(StorageError) -> any DirectoryLock {
        let p = full(Self.writerLockName)
        do throws(SystemCallError) {
            try faults.check(.open, p)
            let fd = try Syscalls.open(p, flags: O_RDWR | O_CREAT)
            for attempt in 1...Self.lockAttempts {
                let locked: Bool
                do throws(SystemCallError) {
                    locked = try Syscalls.tryLockExclusive(fd, path: p)
                } catch {
                    Syscalls.close(fd)
                    throw error
                }
                if locked { return FileLock(fd: fd) }
                if attempt < Self.lockAttempts { usleep(Self.lockRetryMicroseconds) }
            }
            Syscalls.close(fd)
        } catch {
            throw .system(error)
        }
        throw .locked(p)
    }

    /// Tries of the writer lock, `lockRetryMicroseconds` apart: 200 ms in all.
    private static let lockAttempts = 21
    private static let lockRetryMicroseconds: UInt32 = 10_000
}
