#if os(Linux)
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Linux: one folder's commits, as a subscription to the process's inotify instance.
///
/// Why one instance for the process rather than one per watcher: closing an inotify descriptor that had watches
/// waits for a kernel RCU grace period (measured: 12 ms per close on Linux 6.18), which would make releasing an
/// index slow, and instances count against `fs.inotify.max_user_instances` (128 per user by default, shared by
/// all the user's processes). Removing a watch costs microseconds and watches have a far larger budget
/// (`max_user_watches`). The instance's descriptor stays open for the life of the process, as Dispatch's own
/// epoll descriptor does.
final class FolderEvents: Sendable {
    private let hub: InotifyHub
    private let subscription: InotifyHub.Subscription

    init(folder: String, fileName: String, notify: @escaping @Sendable () -> Void) throws(SystemCallError) {
        hub = try InotifyHub.shared()
        subscription = try hub.subscribe(folder, fileName: fileName, notify: notify)
    }

    /// Synchronous: once the subscription is gone no event reaches `notify`, and the last subscriber of a folder
    /// removes the folder's watch.
    deinit { hub.unsubscribe(subscription) }
}

/// The process's inotify instance, read by one dispatch read source, and which subscriber each watch serves.
///
/// inotify gives one watch descriptor per folder (inode) and instance, so indexes opened twice on the same
/// folder share a watch; it is removed when its last subscriber goes.
final class InotifyHub: Sendable {
    struct Subscription: Sendable {
        let watch: Int32
        let token: UInt64
    }

    private struct Subscriber {
        let fileName: String
        let notify: @Sendable () -> Void
    }

    private struct State {
        var watches: [Int32: [UInt64: Subscriber]] = [:]
        var nextToken: UInt64 = 0
    }

    /// Dispatch sources are thread-safe but not marked `Sendable`.
    private struct SourceBox: @unchecked Sendable {
        let source: any DispatchSourceRead
    }

    private static let instance = Locked<InotifyHub?>(nil)
    private static let mask = UInt32(IN_MOVED_TO | IN_CLOSE_WRITE)

    private let fd: Int32
    private let state = Locked<State>(State())
    private let source: SourceBox

    /// The hub, created on first use (creation is retried on a later call if it failed).
    static func shared() throws(SystemCallError) -> InotifyHub {
        try instance.withLock { (hub: inout InotifyHub?) throws(SystemCallError) -> InotifyHub in
            if let hub { return hub }
            let fresh = try InotifyHub()
            hub = fresh
            return fresh
        }
    }

    private init() throws(SystemCallError) {
        fd = try Syscalls.inotifyInit()
        let queue = DispatchQueue(label: "loupe.inotify")
        source = SourceBox(source: DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue))
        // The hub lives as long as the process (held by `instance`), so the handler may hold it strongly.
        source.source.setEventHandler { [self] in drain() }
        source.source.activate()
    }

    func subscribe(
        _ folder: String, fileName: String, notify: @escaping @Sendable () -> Void
    ) throws(SystemCallError) -> Subscription {
        // Under the lock, so an unsubscribe cannot remove the folder's watch between adding it and recording it.
        try state.withLock { (state: inout State) throws(SystemCallError) -> Subscription in
            let watch = try Syscalls.inotifyAddWatch(fd, folder, mask: Self.mask)
            let token = state.nextToken
            state.nextToken += 1
            state.watches[watch, default: [:]][token] = Subscriber(fileName: fileName, notify: notify)
            return Subscription(watch: watch, token: token)
        }
    }

    func unsubscribe(_ subscription: Subscription) {
        state.withLock { state in
            guard var subscribers = state.watches[subscription.watch] else { return }
            subscribers[subscription.token] = nil
            if subscribers.isEmpty {
                state.watches[subscription.watch] = nil
                Syscalls.inotifyRemoveWatch(fd, subscription.watch)
            } else {
                state.watches[subscription.watch] = subscribers
            }
        }
    }

    /// Reads every queued event and notifies, once per batch, each subscriber whose file was renamed onto or
    /// rewritten. A queue overflow (`IN_Q_OVERFLOW`: events were lost, a commit may be among them) notifies all.
    private func drain() {
        let events: [InotifyEvent]
        do {
            events = try Syscalls.inotifyReadEvents(fd)
        } catch {
            // Not expected on a valid descriptor. Treat it as an overflow; the next readable event retries.
            events = [InotifyEvent(watch: -1, mask: UInt32(IN_Q_OVERFLOW), name: "")]
        }
        let overflow = UInt32(IN_Q_OVERFLOW)
        let ignored = UInt32(IN_IGNORED)
        let notify = state.withLock { state -> [@Sendable () -> Void] in
            var due: [UInt64: @Sendable () -> Void] = [:]
            for event in events {
                if event.mask & overflow != 0 {
                    for subscribers in state.watches.values {
                        for (token, subscriber) in subscribers { due[token] = subscriber.notify }
                    }
                } else if event.mask & ignored != 0 {
                    // The folder was deleted or unmounted: its watch is gone, and a later subscribe adds a new one.
                    state.watches[event.watch] = nil
                } else if event.mask & Self.mask != 0, let subscribers = state.watches[event.watch] {
                    for (token, subscriber) in subscribers where subscriber.fileName == event.name {
                        due[token] = subscriber.notify
                    }
                }
            }
            return Array(due.values)
        }
        for call in notify { call() }
    }
}
#endif
