/// An NFA determinized lazily into a DFA over UTF-8 *bytes*, for walking a byte-sorted term dictionary.
///
/// A DFA state is either *complete* (a set of NFA states closed under epsilon moves, between scalars) or
/// *partial* (inside a multi-byte scalar: the NFA edges still reachable, as ranges relative to the
/// scalars the bytes read so far can complete to, plus the number of continuation bytes left). Both kinds
/// are deduplicated by that key. Transitions are computed on first use and cached in a table of 256
/// `Int32` per state, so a repeated step is one bounds check and one load.
///
/// Only NFA states that can still reach an accepting state are kept, and partial states keep only edges
/// some valid completion can take; so `dead` (0) is exactly "no continuation is ever accepted", at every
/// byte, which lets a dictionary walk skip every term under a dead prefix. Invalid UTF-8 (stray
/// continuation bytes, overlong forms, surrogates, values past U+10FFFF, truncated sequences followed by
/// a new lead byte) has no completion and therefore leads to `dead` as soon as it is detectable.
///
/// Not thread-safe: one instance per query execution.
@safe @usableFromInline package final class ByteDFA {
    /// The dead state: no continuation can ever be accepted. Always 0.
    @inlinable package static var dead: Int32 { 0 }

    /// `stateCount × 256` transitions; -1 marks one not computed yet.
    @usableFromInline @exclusivity(unchecked) var table: UnsafeMutablePointer<Int32>
    /// The number of DFA states, the dead one included.
    @usableFromInline @exclusivity(unchecked) var stateCount: Int
    /// Rows allocated in `table`.
    var capacity: Int
    let nfa: ScalarNFA
    let stateLimit: Int
    /// Per DFA state: `[0] + sorted NFA states` (complete) or `[remaining bytes] + (low, high, target)…`
    /// (partial). The dead state's key is `[0]`, the empty set.
    var keys: [[UInt32]]
    var stateOfKey: [[UInt32]: Int32]
    /// Per DFA state: the smallest accept tag, or `ScalarNFA.notAccepting`.
    @usableFromInline @exclusivity(unchecked) var acceptTags: [UInt8]
    /// Per DFA state: holds an NFA state that is `absorbing`.
    @usableFromInline @exclusivity(unchecked) var acceptsEverythingFlags: [Bool]
    /// Per DFA state, four words: bit `b` set once `nextLiveByte` has seen byte `b` lead to `dead`, so later scans
    /// step over runs of dead bytes a word at a time.
    @usableFromInline @exclusivity(unchecked) var knownDeadBytes: [UInt64]
    /// Per NFA state: some path from it reaches an accepting state.
    let live: [Bool]
    /// Per NFA state: accepting after epsilon moves, with self-loops covering every scalar.
    var absorbing: [Bool]
    /// Per ASCII byte: its atom, a run of bytes that every class of the NFA holds all or none of, so they lead
    /// from any complete state to the same state. Computing one byte's transition fills in its whole atom.
    let asciiAtomOf: [UInt8]
    /// Per atom: its bytes.
    let asciiAtoms: [[UInt8]]
    /// Scratch for epsilon closures: `marks[s] == generation` when NFA state `s` is already collected.
    var marks: [UInt32]
    var generation: UInt32 = 0

    /// Backs `start`; unchecked exclusivity (like the other storage `step` and `acceptTag` read) keeps
    /// runtime access tracking out of callers' loops, which is sound because the class is not shared
    /// across threads.
    @usableFromInline @exclusivity(unchecked) var startState: Int32 = 0
    /// False when no state can accept everything (no NFA state is absorbing), so walks need not ask
    /// `acceptsEverything` at every byte.
    @exclusivity(unchecked) package private(set) var mayAcceptEverything = false

    /// Set once determinizing needed more than `stateLimit` states; from then on some steps return `dead`
    /// wrongly, so the caller must fall back (or report the query as too complex).
    package internal(set) var exceededStateLimit = false

    /// A DFA for `nfa` that creates at most `stateLimit` states (plus the dead one).
    ///
    /// - Complexity: O(*n*) for an NFA of *n* states and edges; states are then built on demand.
    package init(_ nfa: ScalarNFA, stateLimit: Int = 20_000) {
        self.nfa = nfa
        self.stateLimit = max(stateLimit, 1)
        let live = Self.liveStates(of: nfa)
        self.live = live
        (asciiAtomOf, asciiAtoms) = Self.asciiAtoms(of: nfa)
        marks = [UInt32](repeating: 0, count: nfa.stateCount)
        absorbing = [Bool](repeating: false, count: nfa.stateCount)
        capacity = 16
        unsafe table = UnsafeMutablePointer<Int32>.allocate(capacity: capacity << 8)
        unsafe table.initialize(repeating: Self.dead, count: 256)
        unsafe stateCount = 1
        keys = [[0]]
        stateOfKey = [[0]: Self.dead]
        unsafe acceptTags = [ScalarNFA.notAccepting]
        unsafe acceptsEverythingFlags = [false]
        unsafe knownDeadBytes = [UInt64](repeating: .max, count: 4)
        absorbing = findAbsorbingStates()
        unsafe mayAcceptEverything = absorbing.contains(true)
        unsafe startState = complete(closureOf: [nfa.start])
    }

    deinit {
        unsafe table.deallocate()
    }

    /// The start state (`dead` when the automaton accepts nothing at all).
    @inlinable
    package var start: Int32 { unsafe startState }

    /// The state after reading `byte` in `state`. Invalid UTF-8 leads to `dead`. When determinizing
    /// would create more than `stateLimit` states, returns `dead` and sets `exceededStateLimit`.
    ///
    /// - Precondition: `state` was returned by this DFA.
    /// - Complexity: O(1) once this transition was computed; otherwise proportional to the NFA states
    ///   involved.
    @inlinable
    package func step(_ state: Int32, _ byte: UInt8) -> Int32 {
        precondition(UInt(bitPattern: Int(state)) < UInt(bitPattern: unsafe stateCount), "not a state of this DFA")
        let next = unsafe table[Int(state) &<< 8 | Int(byte)]
        if next >= 0 { return next }
        return computeTransition(state, byte)
    }

    /// `nil` when `state` is not accepting (or is in the middle of a multi-byte scalar); else the smallest
    /// accept tag of its NFA states.
    @inlinable
    package func acceptTag(_ state: Int32) -> UInt8? {
        let tag = unsafe acceptTags[Int(state)]
        return tag == 0xFF ? nil : tag // 0xFF: ScalarNFA.notAccepting
    }

    /// True when every valid UTF-8 byte string read from `state` is accepted, so a caller can accept a
    /// whole range of terms without stepping. Conservative: it detects an NFA state that accepts and
    /// loops on every scalar (`abc(?s:.)*`, Levenshtein prefix mode after a match, `abc*` wildcards);
    /// `false` is always safe.
    @inlinable
    package func acceptsEverything(_ state: Int32) -> Bool {
        unsafe acceptsEverythingFlags[Int(state)]
    }

    /// The smallest byte above `byte` that does not lead `state` to `dead`, or `nil`: where a walk over sorted
    /// terms resumes once every term under a prefix ending in `byte` is rejected. Computes the transitions a byte
    /// by byte scan would, in the same order; the bytes found dead are remembered per state.
    ///
    /// - Precondition: `state` was returned by this DFA.
    /// - Complexity: O(1) per run of 64 bytes already known dead, one table load per other byte passed.
    @inlinable
    package func nextLiveByte(_ state: Int32, after byte: UInt8) -> UInt8? {
        precondition(UInt(bitPattern: Int(state)) < UInt(bitPattern: unsafe stateCount), "not a state of this DFA")
        let row = Int(state) &<< 2
        var candidate = Int(byte) &+ 1
        while candidate <= 0xFF {
            let word = candidate &>> 6
            let open = unsafe ~knownDeadBytes[row &+ word] & (UInt64.max &<< UInt64(candidate & 63))
            guard open != 0 else {
                candidate = (word &+ 1) &<< 6
                continue
            }
            candidate = word &<< 6 | open.trailingZeroBitCount
            // Read the table each time: computing a transition may move it.
            var next = unsafe table[Int(state) &<< 8 | candidate]
            if next < 0 { next = computeTransition(state, UInt8(candidate)) }
            if next != Self.dead { return UInt8(candidate) }
            unsafe knownDeadBytes[row &+ word] |= 1 &<< UInt64(candidate & 63)
            candidate &+= 1
        }
        return nil
    }

    /// The accept tag of a whole byte string, `nil` if rejected.
    @inlinable
    package func match(_ bytes: some Sequence<UInt8>) -> UInt8? {
        var state = start
        for byte in bytes {
            state = step(state, byte)
            if state == Self.dead { return nil }
        }
        return acceptTag(state)
    }

    /// The number of states built so far, the dead one included.
    package var builtStateCount: Int { unsafe stateCount }

    /// Bytes held, about: the transition table, each state's key, flags and known dead bytes, and the per-NFA-state
    /// scratch (the NFA itself is shared with whoever built the DFA).
    package var memoryFootprint: Int {
        capacity << 10 + keys.reduce(0) { $0 + 4 * $1.count + 80 } + 6 * live.count
    }
}
