// The system calls behind `CommitWatcher`: inotify on Linux, an event-only folder descriptor on Darwin, and a
// file's identity (`stat`) on both.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One version of a file that is replaced by rename: a new version is a new inode, and even when the inode
/// number is reused, its size or modification time differs.
package struct FileIdentity: Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var modifiedSeconds: Int64
    package var modifiedNanoseconds: Int64
}

extension Syscalls {
    /// The identity of the file at `path`, or nil when it cannot be stat'ed (for example, it does not exist).
    package static func fileIdentity(_ path: String) -> FileIdentity? {
        var st = stat()
        guard retrying({ unsafe stat(path, &st) }) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = st.st_mtimespec
        #else
        let modified = st.st_mtim
        #endif
        return FileIdentity(
            device: UInt64(truncatingIfNeeded: st.st_dev), inode: UInt64(truncatingIfNeeded: st.st_ino),
            size: Int64(st.st_size), modifiedSeconds: Int64(modified.tv_sec),
            modifiedNanoseconds: Int64(modified.tv_nsec))
    }
}

#if os(Linux)
/// One inotify event: which watch (-1 for `IN_Q_OVERFLOW`), what happened (`IN_…` bits), and to which entry of
/// the watched folder ("" for the folder itself).
package struct InotifyEvent: Sendable, Equatable {
    package var watch: Int32
    package var mask: UInt32
    package var name: String
}

extension Syscalls {
    /// A new inotify instance, non-blocking (reads return EAGAIN when no event is queued) and close-on-exec.
    package static func inotifyInit() throws(SystemCallError) -> Int32 {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if fd < 0 { throw failure("inotify_init1", "") }
        return fd
    }

    /// Watches `path` (a folder) for the events in `mask`; returns the watch descriptor, the same one for every
    /// call on the same folder (inode) and instance.
    package static func inotifyAddWatch(_ fd: Int32, _ path: String, mask: UInt32) throws(SystemCallError) -> Int32 {
        let watch = retrying { unsafe inotify_add_watch(fd, path, mask) }
        if watch < 0 { throw failure("inotify_add_watch", path) }
        return watch
    }

    /// Removes a watch; the kernel then queues an `IN_IGNORED` event for it. Failure (the watch is already gone,
    /// as when its folder was deleted) is ignored.
    package static func inotifyRemoveWatch(_ fd: Int32, _ watch: Int32) {
        _ = inotify_rm_watch(fd, watch)
    }

    /// Reads every event queued on the non-blocking inotify descriptor `fd`, until none is left.
    ///
    /// The kernel writes whole events only, each a fixed header (`struct inotify_event`) followed by `len` bytes
    /// of NUL-padded name; a header or name reaching past the bytes read ends the parse rather than trapping.
    package static func inotifyReadEvents(_ fd: Int32) throws(SystemCallError) -> [InotifyEvent] {
        // Room for many events per read; one event needs at most a header plus NAME_MAX + 1 name bytes.
        let capacity = 64 * (MemoryLayout<inotify_event>.size + Int(NAME_MAX) + 1)
        let header = MemoryLayout<inotify_event>.size
        let watchOffset = MemoryLayout<inotify_event>.offset(of: \.wd) ?? 0
        let maskOffset = MemoryLayout<inotify_event>.offset(of: \.mask) ?? 4
        let lengthOffset = MemoryLayout<inotify_event>.offset(of: \.len) ?? 12
        var events: [InotifyEvent] = []
        var buffer = [UInt8](repeating: 0, count: capacity)
        while true {
            let count = unsafe buffer.withUnsafeMutableBytes { raw in
                retrying { unsafe read(fd, raw.baseAddress, raw.count) }
            }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { return events }
                throw failure("read", "inotify")
            }
            if count == 0 { return events }
            unsafe buffer.withUnsafeBytes { raw in
                var offset = 0
                while offset + header <= count {
                    let watch = unsafe raw.loadUnaligned(fromByteOffset: offset + watchOffset, as: Int32.self)
                    let mask = unsafe raw.loadUnaligned(fromByteOffset: offset + maskOffset, as: UInt32.self)
                    let length = Int(unsafe raw.loadUnaligned(fromByteOffset: offset + lengthOffset, as: UInt32.self))
                    let nameStart = offset + header
                    guard length <= count - nameStart else { break }
                    let padded = unsafe raw[nameStart..<nameStart + length]
                    let name = unsafe String(decoding: padded.prefix { $0 != 0 }, as: UTF8.self)
                    events.append(InotifyEvent(watch: watch, mask: mask, name: name))
                    offset = nameStart + length
                }
            }
        }
    }
}
#endif

#if canImport(Darwin)
extension Syscalls {
    /// A descriptor on `path` for event notification only (`O_EVTONLY`): it does not keep the volume from being
    /// unmounted.
    package static func openEventOnly(_ path: String) throws(SystemCallError) -> Int32 {
        let fd = retrying { unsafe Darwin.open(path, O_EVTONLY | O_CLOEXEC) }
        if fd < 0 { throw failure("open", path) }
        return fd
    }
}
#endif
