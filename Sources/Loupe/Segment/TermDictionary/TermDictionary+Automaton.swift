import LoupeAutomata
import LoupeCodec

extension TermBlockLayout {
    /// Appends every term `dfa` accepts to `matches`, in byte order, with its info and accept tag.
    ///
    /// Never reads every term. The walk keeps the automaton state after each byte of the current term and reuses
    /// the states of the prefix the next term shares with it, so a term costs only its new bytes, and a rejected
    /// term's info is never decoded. When a prefix leads to the dead state, the following terms under it are passed
    /// on their header byte alone; when every key of the rest of the block lies under it, the walk seeks straight
    /// to the next byte string the automaton still accepts a continuation of (as an FST intersection follows only
    /// live transitions), through the block index, without opening the blocks between. Once a state accepts every
    /// continuation (`abc.*`), the terms under it are accepted unstepped.
    ///
    /// Assumptions: none about the bytes. Every move is forward (to a later term of the block, or to a later
    /// block), so damaged keys can make the walk miss or add terms but never loop.
    /// - Throws: `.malformed` on a damaged block.
    /// - Complexity: O(bytes of the terms whose every proper prefix is live, plus one header byte per term passed
    ///   under a dead prefix in a block it ends in, plus O(log blocks) per seek).
    func matches(of dfa: ByteDFA, into matches: inout TermMatches) throws(FormatError) {
        guard blockCount > 0, dfa.start != ByteDFA.dead else { return }
        var walk = AutomatonPath(start: dfa.start)
        defer { walk.deallocate() }
        var position = WalkPosition(block: 0, decoder: try open(0))
        var target: [UInt8] = []
        while true {
            var prefix: Int
            var suffix: UnsafeRawBufferPointer
            if let term = unsafe position.landed {
                unsafe (prefix, suffix) = term
                unsafe position.landed = nil
            } else {
                // Under a dead prefix, pass the terms that share it on their header bytes alone.
                let found: Bool
                if walk.dead != .max && !position.atBlockStart {
                    found = position.decoder.skip(sharing: walk.dead)
                } else {
                    found = position.decoder.next()
                }
                guard found else {
                    try position.decoder.checkDamage()
                    guard position.block + 1 < blockCount else { return }
                    if unsafe walk.dead != .max && walk.isUnderDead(firstKey(position.block + 1)) {
                        // The dead prefix runs into the next block: skip past it through the index.
                        guard try seekPastDead(&walk, &position, dfa, &target) else { return }
                    } else {
                        try position.open(position.block + 1, in: self)
                    }
                    continue
                }
                prefix = position.decoder.prefixLength
                unsafe suffix = position.decoder.suffix
                if position.atBlockStart {
                    position.atBlockStart = false
                    prefix = unsafe sharedPrefix(UnsafeRawBufferPointer(start: walk.path, count: walk.valid), suffix)
                    unsafe suffix = UnsafeRawBufferPointer(rebasing: suffix[prefix...])
                }
                if prefix >= walk.dead {
                    walk.valid = walk.dead
                    continue
                }
            }
            let length = prefix + suffix.count
            unsafe walk.enter(prefix, suffix)
            var tag: UInt8 = 0
            if walk.everything == .max {
                let state = walk.step(dfa, to: length)
                if state == ByteDFA.dead {
                    // Every key from here to the end of the block shares the dead prefix when it is no longer than
                    // the block's common prefix, or when the next block's first key has it too: seek.
                    if unsafe walk.dead <= position.blockPrefix(in: self)
                        || (position.block + 1 < blockCount && walk.isUnderDead(firstKey(position.block + 1)))
                    {
                        guard try seekPastDead(&walk, &position, dfa, &target) else { return }
                    }
                    continue
                }
                if walk.everything == .max {
                    guard let accepted = dfa.acceptTag(state) else { continue }
                    tag = accepted
                }
            }
            let info = try position.decoder.info()
            unsafe matches.append(UnsafeRawBufferPointer(start: walk.path, count: length), info, tag)
        }
    }

    /// Moves, in a later block, to the first term at or after the smallest key that follows every key under the
    /// dead prefix and that the automaton has not rejected: that term is left in `position.landed` (or, when the
    /// block the index picks holds none, the next block is opened). False when there is none.
    private func seekPastDead(
        _ walk: inout AutomatonPath, _ position: inout WalkPosition<Block>, _ dfa: ByteDFA, _ target: inout [UInt8]
    ) throws(FormatError) -> Bool {
        var level = walk.dead - 1
        var next: UInt8?
        while level >= 0 {
            next = unsafe dfa.nextLiveByte(walk.states[level], after: walk.path[level])
            if next != nil { break }
            level -= 1
        }
        guard let byte = next, position.block + 1 < blockCount else { return false }
        target.removeAll(keepingCapacity: true)
        unsafe target.append(contentsOf: UnsafeBufferPointer(start: walk.path, count: level))
        target.append(byte)
        walk.retreat(to: level)
        try position.open(
            unsafe target.withUnsafeBytes { unsafe block(containing: $0, from: position.block + 1) }, in: self)
        position.atBlockStart = false
        var matched = 0
        let advanced = unsafe target.withUnsafeBytes { bytes in
            Result { () throws(FormatError) in unsafe try position.decoder.advance(to: bytes, matched: &matched) }
        }
        if try advanced.get() {
            // The first term ≥ target: its first `p` bytes are target's, which are path's but for the last.
            let p = position.decoder.prefixLength
            let suffix = unsafe position.decoder.suffix
            if p > level {
                unsafe walk.path[level] = byte
                unsafe position.landed = (p, suffix)
            } else {
                let shared = unsafe sharedPrefix(suffix, UnsafeRawBufferPointer(start: walk.path + p, count: level - p))
                unsafe position.landed = (p + shared, UnsafeRawBufferPointer(rebasing: suffix[shared...]))
            }
            return true
        }
        // Every term of that block sorts before the target: the next block's first term is the one.
        guard position.block + 1 < blockCount else { return false }
        try position.open(position.block + 1, in: self)
        return true
    }
}

/// Where an automaton walk is in the dictionary.
@safe
private struct WalkPosition<Block: TermBlockDecoder> {
    var block: Int
    var decoder: Block
    /// Bytes every key of the current block starts with, once asked for (-1 until then).
    private var knownPrefix = -1
    /// The decoder's next term is its block's first: its prefix shared with the walk's path is still to be found.
    var atBlockStart = true
    /// A term a seek stopped on, to process next: its first `prefix` bytes are the path's, then `suffix`.
    var landed: (prefix: Int, suffix: UnsafeRawBufferPointer)?

    init(block: Int, decoder: Block) {
        self.block = block
        self.decoder = decoder
    }

    mutating func open<Layout: TermBlockLayout>(_ b: Int, in layout: Layout) throws(FormatError)
    where Layout.Block == Block {
        block = b
        decoder = try layout.open(b)
        knownPrefix = -1
        atBlockStart = true
    }

    /// Bytes every key of the current block starts with.
    mutating func blockPrefix<Layout: TermBlockLayout>(in layout: Layout) -> Int {
        if knownPrefix < 0 { knownPrefix = layout.commonPrefix(ofBlock: block) }
        return knownPrefix
    }
}

/// The automaton side of a walk: the bytes of the current term and the state after each of them.
///
/// `path[..<valid]` are the bytes of the term last decoded (`path[valid...]` those of the term last stepped);
/// `states[i]` is the state after `path[..<i]` for `i ≤ stepped`. The buffers are owned here and freed by
/// `deallocate()`, which the walk defers.
@safe
private struct AutomatonPath {
    private(set) var path: UnsafeMutablePointer<UInt8>
    private(set) var states: UnsafeMutablePointer<Int32>
    private var capacity = 64
    var valid = 0
    private var stepped = 0
    /// When not `.max`: `path[..<dead]` leads to the dead state, so every term sharing it is rejected.
    private(set) var dead = Int.max
    /// When not `.max`: `states[everything]` accepts every continuation with tag 0, so every term sharing
    /// `path[..<everything]` is accepted.
    private(set) var everything = Int.max

    init(start: Int32) {
        unsafe path = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        unsafe states = UnsafeMutablePointer<Int32>.allocate(capacity: capacity + 1)
        unsafe states[0] = start
    }

    func deallocate() {
        unsafe path.deallocate()
        unsafe states.deallocate()
    }

    /// Makes the path a term whose first `prefix` bytes are the path's, followed by `suffix`.
    @inline(__always)
    mutating func enter(_ prefix: Int, _ suffix: UnsafeRawBufferPointer) {
        dead = .max
        if everything > prefix { everything = .max }
        if stepped > prefix { stepped = prefix }
        let length = prefix + suffix.count
        if length >= capacity { grow(length + 1) }
        var i = 0
        while i < suffix.count {
            unsafe path[prefix &+ i] = suffix[i]
            i &+= 1
        }
        valid = length
    }

    /// Steps `dfa` over the path up to `length` from the last state known, and returns the state reached: `dead`
    /// (then `dead` is set to the depth it was reached at) or, once a state accepts everything, that state.
    @inline(__always)
    mutating func step(_ dfa: ByteDFA, to length: Int) -> Int32 {
        var state = unsafe states[stepped]
        var at = stepped
        let mayAcceptEverything = dfa.mayAcceptEverything
        while at < length {
            state = unsafe dfa.step(state, path[at])
            at &+= 1
            unsafe states[at] = state
            if state == ByteDFA.dead {
                // Terms passed under the dead prefix share only its bytes with the path.
                dead = at
                valid = at
                break
            }
            if mayAcceptEverything, dfa.acceptsEverything(state), dfa.acceptTag(state) == 0 {
                everything = at
                break
            }
        }
        stepped = at
        return state
    }

    /// Whether `key` starts with the dead prefix.
    func isUnderDead(_ key: UnsafeRawBufferPointer) -> Bool {
        unsafe key.count >= dead && sharedPrefix(key, UnsafeRawBufferPointer(start: path, count: dead)) == dead
    }

    /// Keeps only the first `level` bytes (a seek target shares them): states up to there stay valid.
    mutating func retreat(to level: Int) {
        if stepped > level { stepped = level }
        if everything > level { everything = .max }
        dead = .max
        valid = level
    }

    private mutating func grow(_ length: Int) {
        let larger = max(capacity * 2, length)
        let newPath = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        let newStates = UnsafeMutablePointer<Int32>.allocate(capacity: larger + 1)
        unsafe newPath.initialize(from: path, count: capacity)
        unsafe newStates.initialize(from: states, count: capacity + 1)
        unsafe path.deallocate()
        unsafe states.deallocate()
        unsafe path = newPath
        unsafe states = newStates
        capacity = larger
    }
}

/// The terms an automaton walk accepted, in byte order: their infos and accept tags, and their bytes back to back
/// when asked for.
package struct TermMatches {
    package private(set) var infos: [TermInfo] = []
    package private(set) var tags: [UInt8] = []
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    private let keepsKeys: Bool

    /// Matches that keep each term's bytes (`key(_:)`) only when `keepingKeys`.
    package init(keepingKeys: Bool) {
        keepsKeys = keepingKeys
    }

    package var count: Int { infos.count }

    /// The bytes of match `i` (empty unless the matches keep keys).
    package func key(_ i: Int) -> ArraySlice<UInt8> {
        guard keepsKeys else { return [] }
        return bytes[(i == 0 ? 0 : ends[i - 1])..<ends[i]]
    }

    package mutating func removeAll() {
        infos.removeAll(keepingCapacity: true)
        tags.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// How match `i` orders against match `j` of `other` by their bytes (both must keep keys): < 0, 0 or > 0.
    func compareKey(_ i: Int, with other: TermMatches, _ j: Int) -> Int {
        let a = (i == 0 ? 0 : ends[i - 1])..<ends[i]
        let b = (j == 0 ? 0 : other.ends[j - 1])..<other.ends[j]
        return unsafe bytes.withUnsafeBytes { mine in
            unsafe other.bytes.withUnsafeBytes { theirs in
                unsafe compareBytes(
                    UnsafeRawBufferPointer(rebasing: mine[a]), UnsafeRawBufferPointer(rebasing: theirs[b]))
            }
        }
    }

    mutating func append(_ key: UnsafeRawBufferPointer, _ info: TermInfo, _ tag: UInt8) {
        infos.append(info)
        tags.append(tag)
        if keepsKeys {
            unsafe bytes.append(contentsOf: key)
            ends.append(bytes.count)
        }
    }
}
