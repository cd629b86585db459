#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value only reached while holding a `pthread_mutex_t`: the engine's one lock, used for every piece of state
/// shared between threads (the index's current searcher, caches, pools, merge bookkeeping).
///
/// Why not `Synchronization.Mutex`: on Linux it blocks through priority-inheritance futexes (`FUTEX_LOCK_PI`,
/// `FUTEX_UNLOCK_PI`) issued from a C shim, so when two threads contend, the lock is handed over inside the kernel
/// and ThreadSanitizer sees no happens-before edge between the critical sections; it then reports every access
/// to the protected state as a race (reproduced with four threads updating one `Mutex<[String: Int]>`). TSan
/// intercepts the pthread calls, so with this lock `swift test --sanitize=thread` reports only real races.
/// Uncontended, both are one compare-and-swap to lock and one to unlock.
///
/// The signatures are `Mutex`'s: the value comes in `sending` and the body gets it `inout sending` and returns a
/// `sending` result, so a value that is not `Sendable` (a writer's engine) can be kept, and nothing reachable from
/// it leaves the lock except by being sent.
@safe
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `withLock`, between lock and unlock of `mutex`, whose
    // memory is allocated once, never moves, and is destroyed only in deinit, when no thread can hold it; and, as
    // for `Mutex`, the `sending` parameters keep the value's region out of every caller's.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @exclusivity(unchecked) private var value: Value

    /// A lock around `value`.
    package init(_ value: sending Value) {
        unsafe mutex = .allocate(capacity: 1)
        unsafe mutex.initialize(to: pthread_mutex_t())
        let status = unsafe pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed (\(status))")
        unsafe self.value = value
    }

    deinit {
        unsafe _ = pthread_mutex_destroy(mutex)
        unsafe mutex.deinitialize(count: 1)
        unsafe mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held; `body` must not take this lock again (that deadlocks).
    @inline(__always)
    package func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        unsafe _ = pthread_mutex_lock(mutex)
        defer { unsafe _ = pthread_mutex_unlock(mutex) }
        return try unsafe body(&value)
    }
}

extension Locked where Value == Void {
    /// A lock that guards no value, only a stretch of code.
    package convenience init() { self.init(()) }

    /// Runs `body` with the lock held.
    ///
    /// Why a separate method: `withLock`'s `inout` access to a zero-sized value has no storage of its own, and
    /// ThreadSanitizer then reports the accesses of two threads holding this very lock as a race (reproduced with
    /// four threads taking one `Locked<Void>`); this variant touches no value.
    @inline(__always)
    package func withLock<Result, E: Error>(_ body: () throws(E) -> sending Result) throws(E) -> sending Result {
        unsafe _ = pthread_mutex_lock(mutex)
        defer { unsafe _ = pthread_mutex_unlock(mutex) }
        return try body()
    }
}
