#if canImport(Darwin)
import Darwin
import Dispatch
import Synchronization

/// Darwin: one folder's commits, from a dispatch file-system object source on an `O_EVTONLY` descriptor of the
/// folder.
///
/// The source fires (`.write`) on any change to the folder's entries: a rename onto meta.json, but also every
/// segment file flushed. Each event compares meta.json's identity (device, inode, size, modification time) with
/// the last one seen and notifies only on a change. A meta.json rewritten in place, without a rename, changes no
/// folder entry and is not seen; the engine never writes it so.
///
/// Not yet built on an Apple platform (CI has no Apple toolchain; the engine's Darwin branches are read, not built).
/// It was type-checked on Linux in Swift 6 mode with strict memory safety, against stand-ins for
/// `makeFileSystemObjectSource`, `O_EVTONLY` and `st_mtimespec`.
final class FolderEvents: Sendable {
    /// Signalled by the cancel handler once it has closed the descriptor.
    private let closed = DispatchSemaphore(value: 0)
    private let source: SourceBox

    /// Dispatch sources are thread-safe (`cancel()` may be called from any thread) but not marked `Sendable`.
    private struct SourceBox: @unchecked Sendable {
        let source: any DispatchSourceFileSystemObject
    }

    /// meta.json as last seen; a change in it is a commit.
    private final class LastSeen: Sendable {
        let path: String
        let identity: Mutex<FileIdentity?>

        init(path: String) {
            self.path = path
            identity = Mutex(Syscalls.fileIdentity(path))
        }

        /// Notifies if meta.json is not the one last seen.
        func check(_ notify: @Sendable () -> Void) {
            let now = Syscalls.fileIdentity(path)
            let changed = identity.withLock { seen -> Bool in
                guard now != seen else { return false }
                seen = now
                return true
            }
            if changed { notify() }
        }
    }

    init(folder: String, fileName: String, notify: @escaping @Sendable () -> Void) throws(SystemCallError) {
        let fd = try Syscalls.openEventOnly(folder)
        // Read before the source starts: a commit after this either fires the source or is caught by the check
        // queued below; one before it was visible to the index, which reads meta.json after this init.
        let lastSeen = LastSeen(path: folder + "/" + fileName)
        let queue = DispatchQueue(label: "loupe.commit-watcher.events")
        source = SourceBox(
            source: DispatchSource.makeFileSystemObjectSource(fileDescriptor: fd, eventMask: .write, queue: queue))
        let closed = closed
        // The handlers hold no reference to `self`, so `deinit` never runs on `queue` and may wait for it.
        source.source.setEventHandler { lastSeen.check(notify) }
        source.source.setCancelHandler {
            _ = Darwin.close(fd)
            closed.signal()
        }
        source.source.activate()
        queue.async { lastSeen.check(notify) }
    }

    /// Cancels the source and waits for its cancel handler to close the descriptor (it runs on the source's queue
    /// after the event handler in progress, if any, which only stats a file).
    deinit {
        source.source.cancel()
        _ = closed.wait(timeout: .now() + .seconds(2))
    }
}
#endif
