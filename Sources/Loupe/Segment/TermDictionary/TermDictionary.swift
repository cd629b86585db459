import LoupeCodec

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Term dictionary: per indexed field, its terms in byte order, each with its `TermInfo` (document frequency,
// postings and positions offsets). It answers exact lookups (`FieldTermDictionary.get`), ordered iteration from
// any key (`TermCursor`, for prefix and range scans and merges) and automaton intersection (`matches(of:into:)`,
// for fuzzy, regex and wildcard queries). Layouts: TermDictionaryFormat.swift and Docs/FORMAT.md §3.1.
//
// Invariants. Terms are sorted blocks of front-coded keys; a block decodes on its own from its first key, which
// the block index holds, so lookups binary-search the first keys and any block can start a scan. Every offset
// the block index holds is validated when the file opens; a block's own lengths are checked when it is decoded,
// once per term, and every decoded info against the postings and positions files, so damaged bytes throw
// `FormatError.malformed` (or, at worst, yield wrong terms) and never make anything read outside a file. Cursors only move forward while they scan, so even unsorted (damaged) keys cannot make a
// walk loop. Both format versions sit behind `TermBlockLayout`; the cursor and the automaton walk are written
// once, generic over it.

/// How far a term's offsets may point: the bodies of the segment's postings and positions files. A decoded info
/// past them is damage (and would otherwise send a postings or positions cursor outside its file).
struct TermInfoLimits: Sendable {
    var postings: UInt64
    var positions: UInt64

    /// Throws unless `info`'s offsets are inside the limits; `offset` locates the damage.
    @inline(__always)
    func check(_ info: TermInfo, at offset: Int) throws(FormatError) -> TermInfo {
        guard info.postingsOffset <= postings, info.positionsOffset <= positions else { throw outside(offset) }
        return info
    }

    @inline(never)
    private func outside(_ offset: Int) -> FormatError {
        .malformed(offset: offset, reason: "a term's postings or positions offset points past the file")
    }
}

/// One format version's view of a field's blocks: what the generic cursor and automaton walk read.
protocol TermBlockLayout {
    associatedtype Block: TermBlockDecoder
    var termCount: Int { get }
    /// Terms per block; the last block may hold fewer.
    var blockSize: Int { get }
    var blockCount: Int { get }
    /// Block `block`'s first key (its bounds were validated at open).
    func firstKey(_ block: Int) -> UnsafeRawBufferPointer
    /// A decoder of block `block`, positioned before its first term.
    /// - Throws: `.malformed` when the block's own header does not fit its bytes.
    func open(_ block: Int) throws(FormatError) -> Block
}

/// Walks one block's terms in order. The current term's key is the previous term's first `prefixLength` bytes
/// followed by `suffix`.
protocol TermBlockDecoder {
    /// A decoder with no terms.
    init()
    /// Moves to the next term of the block; false after its last, or on a term whose lengths run past the block
    /// (then `damage` says where). Not throwing keeps this per-term call small enough to inline.
    mutating func next() -> Bool
    /// Why `next()` or `skip(sharing:)` last stopped early, nil when they stopped at the block's end.
    var damage: FormatError? { get }
    /// Leading bytes the current term shares with the previous one of its block (0 for the block's first term).
    var prefixLength: Int { get }
    /// The current term's bytes after `prefixLength`, inside the mapped file.
    var suffix: UnsafeRawBufferPointer { get }
    /// The current term's info.
    /// - Throws: `.malformed` when the block's infos do not fit its bytes.
    mutating func info() throws(FormatError) -> TermInfo
    /// Passes the following terms that share at least `length` (≥ 1) leading bytes with the current one (they sort
    /// under the same prefix), and stops on the first that shares fewer; false after the block's last term or on
    /// damage, as `next()`.
    mutating func skip(sharing length: Int) -> Bool
    /// Σ docFreq of every term of the block, reading no key.
    /// - Throws: `.malformed` when the block's infos do not fit its bytes.
    mutating func docFreqTotal() throws(FormatError) -> UInt64
}

extension TermBlockDecoder {
    mutating func docFreqTotal() throws(FormatError) -> UInt64 {
        var total: UInt64 = 0
        while next() { total += UInt64(try info().docFreq) }
        try checkDamage()
        return total
    }

    mutating func skip(sharing length: Int) -> Bool {
        while next() {
            if prefixLength < length { return true }
        }
        return false
    }

    /// After `next()` or `skip(sharing:)` returned false: throws the damage that stopped them, if any.
    /// - Throws: `.malformed` with the offset of the damaged term.
    func checkDamage() throws(FormatError) {
        if let damage { throw damage }
    }

    /// Moves to the first following term ≥ `target` and returns true, or false after the block's last term.
    /// `matched` is how many leading bytes the current term (which sorts before `target`) shares with it, 0 before
    /// the block's first term. Terms are passed without building their keys: one whose prefix is longer than
    /// `matched` still sorts before `target`, and one whose prefix is shorter sorts after it. The term stopped on is
    /// `target[..<prefixLength]` followed by `suffix`.
    mutating func advance(to target: UnsafeRawBufferPointer, matched: inout Int) throws(FormatError) -> Bool {
        while skip(sharing: matched + 1) {
            let p = prefixLength
            guard p == matched else { return true }
            let suffix = unsafe self.suffix
            let shared = unsafe sharedPrefix(suffix, UnsafeRawBufferPointer(rebasing: target[p...]))
            let before =
                unsafe shared == suffix.count
                ? p + shared < target.count : p + shared < target.count && suffix[shared] < target[p + shared]
            guard before else { return true }
            matched = p + shared
        }
        try checkDamage()
        return false
    }
}

extension TermBlockLayout {
    /// Terms in block `block`: the block size, except for a shorter last block.
    func terms(inBlock block: Int) -> Int {
        min(blockSize, termCount - block * blockSize)
    }

    /// The last block whose first key is ≤ `key`, or 0 when there is none.
    /// - Complexity: O(log blocks) first-key comparisons.
    func block(containing key: UnsafeRawBufferPointer) -> Int {
        unsafe lastBlock(atMost: key, in: 0, blockCount - 1)
    }

    /// The last block at or after `lower` whose first key is ≤ `key`, or `lower` when there is none (then every
    /// key from `lower` on sorts after `key`). Gallops from `lower`, so a target a few blocks ahead costs a few
    /// comparisons, then binary-searches the range found.
    /// - Complexity: O(log d) first-key comparisons for a target d blocks ahead.
    func block(containing key: UnsafeRawBufferPointer, from lower: Int) -> Int {
        var low = lower
        var step = 1
        var high = lower + 1
        while high < blockCount, unsafe compareBytes(firstKey(high), key) <= 0 {
            low = high
            step <<= 1
            high = lower + step
        }
        return unsafe lastBlock(atMost: key, in: low, min(high, blockCount) - 1)
    }

    /// The last block of `low...high` whose first key is ≤ `key`, given that every block after `high` has a
    /// larger one; `low` when none has.
    private func lastBlock(atMost key: UnsafeRawBufferPointer, in low: Int, _ high: Int) -> Int {
        var low = low
        var high = high
        while low < high {
            let middle = (low + high + 1) / 2
            if unsafe compareBytes(firstKey(middle), key) <= 0 { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Σ docFreq of the terms in `lower...upper`, and at most how many terms that is: the blocks wholly inside from
    /// their infos alone, the two blocks at the ends term by term through `edge` (which sums a key range of one
    /// block's worth). Given the field's `total` Σ docFreq, a range over most of the field's blocks is summed the
    /// other way: `total` less the blocks outside it.
    /// - Complexity: O(log blocks) plus two blocks' keys plus one info run per block between (or, with `total`,
    ///   per block outside when those are fewer).
    func docFreqSum(
        from lower: UnsafeRawBufferPointer, through upper: UnsafeRawBufferPointer, total: UInt64?,
        edge: (_ from: UnsafeRawBufferPointer, _ includingFrom: Bool, _ to: UnsafeRawBufferPointer, _ includingTo: Bool)
            throws(FormatError) -> UInt64
    ) throws(FormatError) -> (docFreqs: UInt64, maximumTerms: Int) {
        guard blockCount > 0, unsafe compareBytes(lower, upper) <= 0 else { return (0, 0) }
        let first = unsafe block(containing: lower)
        let last = unsafe block(containing: upper, from: first)
        let terms = (last - first + 1) * blockSize
        guard first < last else { return unsafe (try edge(lower, true, upper, true), terms) }
        func blockTotal(_ b: Int) throws(FormatError) -> UInt64 {
            var decoder = try open(b)
            return try decoder.docFreqTotal()
        }
        if let total, first + (blockCount - 1 - last) + 1 < last - first - 1 {
            // The last block is read whole as well, less what lies up to `upper`. Sums wrap rather than trap on
            // damaged counts; a total the blocks contradict is not used.
            let lastBlock = try blockTotal(last)
            let throughUpper = unsafe try edge(firstKey(last), true, upper, true)
            var outside = unsafe try edge(firstKey(first), true, lower, false)
            for b in 0..<first { outside &+= try blockTotal(b) }
            for b in (last + 1)..<blockCount { outside &+= try blockTotal(b) }
            if throughUpper <= lastBlock, lastBlock <= total, outside <= total - (lastBlock - throughUpper) {
                return (total - (lastBlock - throughUpper) - outside, terms)
            }
        }
        var sum = unsafe try edge(lower, true, firstKey(first + 1), false)
        for b in (first + 1)..<last { sum &+= try blockTotal(b) }
        return unsafe (sum &+ (try edge(firstKey(last), true, upper, true)), terms)
    }

    /// Bytes every key of block `block` starts with: the prefix its first key shares with the next block's (any
    /// key between the two shares it). 0 for the last block.
    func commonPrefix(ofBlock block: Int) -> Int {
        guard block + 1 < blockCount else { return 0 }
        return unsafe sharedPrefix(firstKey(block), firstKey(block + 1))
    }
}

/// Lexicographic byte comparison: negative, zero or positive.
@inline(__always)
package func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let n = min(a.count, b.count)
    if n > 0, let pa = a.baseAddress, let pb = b.baseAddress {
        let c = unsafe memcmp(pa, pb, n)
        if c != 0 { return Int(c) }
    }
    return a.count - b.count
}

/// Leading bytes `a` and `b` share.
@inline(__always)
func sharedPrefix(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let n = min(a.count, b.count)
    var i = 0
    while unsafe i < n && a[i] == b[i] { i += 1 }
    return i
}
