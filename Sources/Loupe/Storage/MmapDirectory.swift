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

    package init(path: String) throws(SystemCallError) {
        let fd = try Syscalls.open(path, flags: O_RDONLY)
        defer { Syscalls.close(fd) }
        length = try Syscalls.fileSize(fd, path: path)
        // mmap refuses zero-length mappings; an empty file is an empty view.
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

    init(fd: Int32, temp: String, target: String) {
        self.fd = fd
        self.temp = temp
        self.target = target
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        guard let fd else { throw .system(SystemCallError(call: "write", path: temp, errno: EBADF)) }
        do { try unsafe Syscalls.writeAll(fd, bytes, path: temp) } catch { throw .system(error) }
    }

    func commit() throws(StorageError) {
        guard let fd else { throw .system(SystemCallError(call: "fsync", path: temp, errno: EBADF)) }
        do {
            try Syscalls.fsync(fd, path: temp)
            Syscalls.close(fd)
            self.fd = nil
            try Syscalls.rename(temp, target)
        } catch {
            throw .system(error)
        }
    }

    func abort() {
        if let fd { Syscalls.close(fd) }
        fd = nil
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

    package init(path: String, create: Bool) throws(StorageError) {
        self.path = path
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
            return try MappedFile(path: p).slice
        } catch {
            if error.errno == ENOENT { throw .notFound(p) }
            throw .system(error)
        }
    }

    package func createSink(_ name: String) throws(StorageError) -> any FileSink {
        let target = full(name)
        let temp = target + ".tmp"
        do {
            return MmapFileSink(
                fd: try Syscalls.open(temp, flags: O_WRONLY | O_CREAT | O_TRUNC), temp: temp, target: target)
        } catch {
            throw .system(error)
        }
    }

    package func syncDirectory() throws(StorageError) {
        do { try Syscalls.fsyncDirectory(path) } catch { throw .system(error) }
    }

    package func exists(_ name: String) -> Bool { Syscalls.exists(full(name)) }

    package func delete(_ name: String) throws(StorageError) {
        do { try Syscalls.unlink(full(name)) } catch { throw .system(error) }
    }

    package func list() throws(StorageError) -> [String] {
        do { return try Syscalls.listDirectory(path) } catch { throw .system(error) }
    }

    package func lockWriter() throws(StorageError) -> any DirectoryLock {
        let p = full(Self.writerLockName)
        do {
            let fd = try Syscalls.open(p, flags: O_RDWR | O_CREAT)
            if try Syscalls.tryLockExclusive(fd, path: p) { return FileLock(fd: fd) }
            Syscalls.close(fd)
        } catch {
            throw .system(error)
        }
        throw .locked(p)
    }
}
