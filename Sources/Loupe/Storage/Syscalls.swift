// Every system call the engine makes lives here, wrapped to retry on EINTR and to turn errno into a typed error.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The wrappers in `Syscalls` are named after the calls they wrap, which hides the C functions inside the enum.
// These file-scope forwarders reach the C ones from whichever module provides them (Glibc, Musl or Darwin),
// so the wrappers never spell out a module name.
private func cOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { unsafe open(path, flags, mode) }
private func cClose(_ fd: Int32) -> Int32 { close(fd) }
private func cFsync(_ fd: Int32) -> Int32 { fsync(fd) }
private func cMunmap(_ p: UnsafeMutableRawPointer, _ length: Int) -> Int32 { unsafe munmap(p, length) }
private func cRename(_ from: String, _ to: String) -> Int32 { unsafe rename(from, to) }
private func cUnlink(_ path: String) -> Int32 { unsafe unlink(path) }

/// A failed system call: which call, on which path, and the errno it returned.
package struct SystemCallError: Error, Sendable, CustomStringConvertible {
    package var call: String
    package var path: String
    package var errno: Int32

    package init(call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    package var description: String {
        unsafe "\(call)(\(path)) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }

    /// Whether the call failed because the file or its file system may not be written (read-only volume,
    /// permissions, a sandbox).
    package var isWriteRefused: Bool { [EROFS, EACCES, EPERM].contains(errno) }
}

/// Thin, typed wrappers over POSIX file calls.
package enum Syscalls {
    @inline(__always)
    static func retrying<T: BinaryInteger>(_ body: () -> T) -> T {
        while true {
            let result = body()
            if result == -1 && errno == EINTR { continue }
            return result
        }
    }

    @inline(never)
    static func failure(_ call: String, _ path: String) -> SystemCallError {
        SystemCallError(call: call, path: path, errno: errno)
    }

    package static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) throws(SystemCallError) -> Int32 {
        let fd = retrying { cOpen(path, flags | O_CLOEXEC, mode) }
        if fd < 0 { throw failure("open", path) }
        return fd
    }

    package static func close(_ fd: Int32) {
        _ = cClose(fd)
    }

    /// Writes all of `bytes`, looping over short writes.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let n = retrying { unsafe write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
            if n < 0 { throw failure("write", path) }
            offset += n
        }
    }

    /// Makes the file's data and metadata durable: once this returns, they survive a power loss.
    ///
    /// On Linux `fsync(2)` already means that: it writes the data and issues a cache flush to the drive. On Darwin
    /// it only hands the data to the drive, which may keep it in its volatile write cache (and reorder it) for a
    /// while; Apple's fsync(2) man page sends applications that need durability to `fcntl(F_FULLFSYNC)`, which also
    /// flushes the drive's cache. That is what SQLite does with `PRAGMA fullfsync` (its `full_fsync()`), and what
    /// Go's `os.File.Sync` does on Darwin. It costs a whole-drive flush per call: a commit pays one per file it
    /// writes (six per new segment, plus `meta.json`) and two for the directory. Where it fails (file systems that
    /// do not implement it, such as SMB, answer ENOTSUP; what a directory descriptor gets is up to the file
    /// system), a plain `fsync` follows, the best that file system offers, and only its failure is reported, as in
    /// SQLite's `full_fsync()`.
    package static func fsync(_ fd: Int32, path: String) throws(SystemCallError) {
        #if canImport(Darwin)
        if retrying({ fcntl(fd, F_FULLFSYNC) }) != -1 { return }
        #endif
        if retrying({ cFsync(fd) }) != 0 { throw failure("fsync", path) }
    }

    /// Flushes a directory entry table, so a rename or a new file survives power loss.
    package static func fsyncDirectory(_ path: String) throws(SystemCallError) {
        let fd = try open(path, flags: O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        try fsync(fd, path: path)
    }

    package static func fileSize(_ fd: Int32, path: String) throws(SystemCallError) -> Int {
        var st = stat()
        if retrying({ unsafe fstat(fd, &st) }) != 0 { throw failure("fstat", path) }
        return Int(st.st_size)
    }

    package static func mmapReadOnly(_ fd: Int32, length: Int, path: String) throws(SystemCallError) -> UnsafeRawPointer
    {
        let p = unsafe mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0)
        guard let p = unsafe p, unsafe p != MAP_FAILED else { throw failure("mmap", path) }
        return UnsafeRawPointer(p)
    }

    package static func munmap(_ p: UnsafeRawPointer, length: Int) {
        _ = unsafe cMunmap(UnsafeMutableRawPointer(mutating: p), length)
    }

    package static func rename(_ from: String, _ to: String) throws(SystemCallError) {
        if retrying({ cRename(from, to) }) != 0 { throw failure("rename", "\(from) -> \(to)") }
    }

    package static func unlink(_ path: String) throws(SystemCallError) {
        if retrying({ cUnlink(path) }) != 0 { throw failure("unlink", path) }
    }

    /// Creates `path` and its missing parents (`mkdir -p`).
    ///
    /// An ancestor that already exists can answer something other than EEXIST: the sandbox of an iOS or macOS app
    /// may refuse (EPERM, EACCES) any `mkdir` outside its container, and a read-only volume may answer EROFS. A
    /// failed `mkdir` is therefore fine whenever a directory is there.
    package static func mkdirs(_ path: String) throws(SystemCallError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part + "/"
            if unsafe mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                let error = failure("mkdir", prefix)
                if !isDirectory(prefix) { throw error }
            }
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return unsafe stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    package static func exists(_ path: String) -> Bool {
        unsafe access(path, F_OK) == 0
    }

    /// Names of the entries of a directory, without "." and "..".
    package static func listDirectory(_ path: String) throws(SystemCallError) -> [String] {
        guard let dir = unsafe opendir(path) else { throw failure("opendir", path) }
        defer { unsafe closedir(dir) }
        var names: [String] = []
        while let entry = unsafe readdir(dir) {
            // `d_name` is a fixed C array: 256 bytes on Linux, 1024 on Darwin.
            let name = unsafe withUnsafePointer(to: entry.pointee.d_name) { tuple in
                unsafe tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    unsafe String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Takes a non-blocking exclusive `flock`; returns false when another holder has it.
    package static func tryLockExclusive(_ fd: Int32, path: String) throws(SystemCallError) -> Bool {
        if retrying({ flock(fd, LOCK_EX | LOCK_NB) }) == 0 { return true }
        if errno == EWOULDBLOCK { return false }
        throw failure("flock", path)
    }
}
