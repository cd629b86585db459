// Every system call the engine makes lives here, wrapped to retry on EINTR and to turn errno into a typed error.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        let fd = retrying { unsafe Glibc.open(path, flags | O_CLOEXEC, mode) }
        if fd < 0 { throw failure("open", path) }
        return fd
    }

    package static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Writes all of `bytes`, looping over short writes.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let n = retrying { unsafe Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
            if n < 0 { throw failure("write", path) }
            offset += n
        }
    }

    package static func fsync(_ fd: Int32, path: String) throws(SystemCallError) {
        if retrying({ Glibc.fsync(fd) }) != 0 { throw failure("fsync", path) }
    }

    /// Flushes a directory entry table, so a rename or a new file survives power loss.
    package static func fsyncDirectory(_ path: String) throws(SystemCallError) {
        let fd = try open(path, flags: O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        try fsync(fd, path: path)
    }

    package static func fileSize(_ fd: Int32, path: String) throws(SystemCallError) -> Int {
        var st = stat()
        if retrying({ unsafe Glibc.fstat(fd, &st) }) != 0 { throw failure("fstat", path) }
        return Int(st.st_size)
    }

    package static func mmapReadOnly(_ fd: Int32, length: Int, path: String) throws(SystemCallError) -> UnsafeRawPointer {
        let p = unsafe Glibc.mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0)
        guard let p = unsafe p, unsafe p != MAP_FAILED else { throw failure("mmap", path) }
        return UnsafeRawPointer(p)
    }

    package static func munmap(_ p: UnsafeRawPointer, length: Int) {
        _ = unsafe Glibc.munmap(UnsafeMutableRawPointer(mutating: p), length)
    }

    package static func rename(_ from: String, _ to: String) throws(SystemCallError) {
        if retrying({ unsafe Glibc.rename(from, to) }) != 0 { throw failure("rename", "\(from) -> \(to)") }
    }

    package static func unlink(_ path: String) throws(SystemCallError) {
        if retrying({ unsafe Glibc.unlink(path) }) != 0 { throw failure("unlink", path) }
    }

    package static func mkdirs(_ path: String) throws(SystemCallError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part + "/"
            if unsafe Glibc.mkdir(prefix, 0o755) != 0 && errno != EEXIST { throw failure("mkdir", prefix) }
        }
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
            let name = unsafe withUnsafePointer(to: entry.pointee.d_name) {
                unsafe $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { unsafe String(cString: $0) }
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
