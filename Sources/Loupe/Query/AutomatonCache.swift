import LoupeAutomata

/// Compiled automata shared by the searches of a process: a regex, wildcard or fuzzy word is parsed and compiled
/// to an NFA once, and the lazily determinized DFAs it walked dictionaries with are kept, transitions and all, for
/// the next search of the same pattern (a user refining a query, a paged search, the same word on every segment).
///
/// Why process-wide rather than per searcher: a pattern's automaton does not depend on the index, and searchers
/// are replaced at every reload; one bounded cache behind a lock serves them all. Measured on a warm fuzzy query
/// over the movies corpus, compiling and determinizing was about a third of the query's instructions.
///
/// Bounds: at most `entryLimit` patterns and about `byteLimit` bytes of NFAs and idle DFAs, the least recently used
/// pattern evicted first. A DFA is used by one search at a time: `withDFA` takes an idle one out of the pool (or
/// builds one) and puts it back after, so concurrent searches of one pattern each get their own.
package final class AutomatonCache: Sendable {
    /// What identifies a compiled automaton.
    package enum Key: Hashable, Sendable {
        case regex(String)
        case wildcard(String)
        case fuzzy(String, distance: Int, transpositions: Bool, prefix: Bool)
        /// An instant-search word: `fuzzy` with transpositions, whose first `exactPrefix` scalars take no edit.
        case instant(String, distance: Int, prefix: Bool, exactPrefix: Int)
    }

    /// The cache every search uses.
    package static let shared = AutomatonCache(entryLimit: 128, byteLimit: 32 << 20)

    /// An idle DFA. Only the search that took it out of the pool touches it until it is put back, so handing it
    /// between threads through the lock is safe though the DFA itself is not thread-safe.
    private final class Pooled: @unchecked Sendable {
        let dfa: ByteDFA
        init(_ dfa: ByteDFA) { self.dfa = dfa }
    }

    private struct Entry {
        var nfa: ScalarNFA
        var idle: [Pooled] = []
        var lastUse: UInt64
        var bytes: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
        var bytes = 0

        /// The NFA of `key`, its entry marked as just used; nil when the cache has none.
        mutating func touch(_ key: Key) -> ScalarNFA? {
            guard entries[key] != nil else { return nil }
            clock += 1
            entries[key]?.lastUse = clock
            return entries[key]?.nfa
        }
    }

    private let state = Locked(State())
    private let entryLimit: Int
    private let byteLimit: Int
    /// Idle DFAs kept per pattern: one per search running it at the same time, up to this.
    private static let idlePerPattern = 4

    /// A cache of at most `entryLimit` patterns and about `byteLimit` bytes.
    package init(entryLimit: Int, byteLimit: Int) {
        self.entryLimit = max(entryLimit, 1)
        self.byteLimit = max(byteLimit, 0)
    }

    /// The NFA of `key`, compiled by `compile` unless the cache has it.
    /// - Throws: whatever `compile` throws (nothing is cached then).
    package func nfa<E: Error>(_ key: Key, compile: () throws(E) -> ScalarNFA) throws(E) -> ScalarNFA {
        if let nfa = state.withLock({ $0.touch(key) }) { return nfa }
        let nfa = try compile()
        state.withLock { state in
            if state.touch(key) == nil {
                state.clock += 1
                let bytes = nfa.memoryFootprint
                state.entries[key] = Entry(nfa: nfa, lastUse: state.clock, bytes: bytes)
                state.bytes += bytes
            }
            evict(&state)
        }
        return nfa
    }

    /// Runs `body` with a DFA of `nfa` (the NFA of `key`): an idle one from the pool when there is one, a fresh one
    /// otherwise, put back in the pool afterwards.
    ///
    /// A DFA from the pool already holds the states earlier searches built; if this search needs more than its
    /// state limit allows, `body` is run again on a fresh DFA, so reuse never turns a query into an error.
    /// - Throws: what `body` throws; `.invalidQuery` naming `what` when even a fresh DFA needs too many states.
    package func withDFA<R>(
        _ key: Key, nfa: ScalarNFA, describing what: @autoclosure () -> String,
        _ body: (ByteDFA) throws(IndexError) -> R
    ) throws(IndexError) -> R {
        let pooled = state.withLock { state -> Pooled? in
            guard state.touch(key) != nil else { return nil }
            return state.entries[key]?.idle.popLast()
        }
        var dfa = pooled?.dfa ?? ByteDFA(nfa)
        var result = try body(dfa)
        if dfa.exceededStateLimit, pooled != nil {
            dfa = ByteDFA(nfa)
            result = try body(dfa)
        }
        guard !dfa.exceededStateLimit else {
            throw IndexError(
                .invalidQuery, "\(what()) is too complex: its automaton needs too many states; simplify it")
        }
        checkIn(key, nfa, dfa)
        return result
    }

    /// Puts `dfa` back in the pool of `key`, unless it takes more than a quarter of the cache's bytes.
    private func checkIn(_ key: Key, _ nfa: ScalarNFA, _ dfa: ByteDFA) {
        let bytes = dfa.memoryFootprint
        guard bytes <= byteLimit / 4 else { return }
        let pooled = Pooled(dfa)
        state.withLock { state in
            state.clock += 1
            var entry: Entry
            if let existing = state.entries[key] {
                entry = existing
            } else {
                entry = Entry(nfa: nfa, lastUse: 0, bytes: nfa.memoryFootprint)
                state.bytes += entry.bytes
            }
            entry.lastUse = state.clock
            if entry.idle.count < Self.idlePerPattern {
                entry.idle.append(pooled)
                entry.bytes += bytes
                state.bytes += bytes
            }
            state.entries[key] = entry
            evict(&state)
        }
    }

    /// Drops the least recently used patterns until the cache is within its bounds.
    private func evict(_ state: inout State) {
        while state.entries.count > entryLimit || (state.bytes > byteLimit && state.entries.count > 1) {
            guard let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
            state.bytes -= oldest.value.bytes
            state.entries[oldest.key] = nil
        }
    }
}
