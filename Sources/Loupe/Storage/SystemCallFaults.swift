/// Failures injected into the system calls of an `MmapDirectory`, for the fault-injection tests: the n-th call of a
/// kind fails with the errno the kernel would give (EIO, ENOSPC…), before the call is made, so nothing of it
/// happens. A directory made without one (every directory but a test's) pays one nil check per call.
package final class SystemCallFaults: Sendable {
    /// The calls that can be made to fail. `open` covers every `open(2)` (a file to read or write, the folder to
    /// fsync, the lock), `mmap` the mapping of a file to read.
    package enum Call: String, Sendable, CaseIterable {
        case open, write, fsync, rename, mmap, unlink
    }

    private struct State {
        var counts: [Call: Int] = [:]
        var armed: (call: Call, remaining: Int, errno: Int32)?
    }

    private let state = Locked(State())

    package init() {}

    /// Makes the `n`-th call of `call` from now (1 is the next) fail with `errno`, once.
    package func fail(_ call: Call, at n: Int, errno: Int32) {
        state.withLock { $0.armed = (call, n, errno) }
    }

    /// Cancels a failure armed by `fail(_:at:errno:)` that has not happened yet; returns whether one had happened.
    @discardableResult
    package func disarm() -> Bool {
        state.withLock { state in
            defer { state.armed = nil }
            return state.armed.map { $0.remaining <= 0 } ?? false
        }
    }

    /// Calls of `call` made so far, failed ones included.
    package func count(_ call: Call) -> Int { state.withLock { $0.counts[call, default: 0] } }

    /// Counts a call of `call` on `path`, and throws if it is the one to fail.
    func check(_ call: Call, _ path: String) throws(SystemCallError) {
        let errno = state.withLock { state -> Int32? in
            state.counts[call, default: 0] += 1
            guard var armed = state.armed, armed.call == call, armed.remaining > 0 else { return nil }
            armed.remaining -= 1
            state.armed = armed
            return armed.remaining == 0 ? armed.errno : nil
        }
        if let errno { throw SystemCallError(call: call.rawValue, path: path, errno: errno) }
    }
}

extension Optional where Wrapped == SystemCallFaults {
    /// Counts the call, and throws if a test armed it to fail; nothing without faults.
    @inline(__always)
    func check(_ call: SystemCallFaults.Call, _ path: String) throws(SystemCallError) {
        if let faults = self { try faults.check(call, path) }
    }
}
