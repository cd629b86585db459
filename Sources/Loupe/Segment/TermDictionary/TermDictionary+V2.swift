import LoupeCodec

/// One field's blocks in format v2 (TermDictionaryFormat.swift): the block index, validated at open, and blocks
/// whose keys and infos are decoded on demand.
@safe
struct TermBlocksV2: TermBlockLayout, @unchecked Sendable {
    // @unchecked: `base` views the read-only mapping that the dictionary reader's `FileSlice` keeps alive.
    /// The start of the file. Bitpacked infos are read with 8-byte loads that may pass their block's end but never
    /// the file's: every block is followed by its section's block index, whose first array ends in 8 bytes of padding.
    private let base: UnsafeRawPointer
    let termCount: Int
    let blockSize: Int
    let blockCount: Int
    private let sectionOffset: Int
    private let startsOffset: Int
    private let startWidth: Int
    private let keyStartsOffset: Int
    private let keyWidth: Int
    private let keysOffset: Int
    private let limits: TermInfoLimits
    /// Documents holding a term of the field, and Σ docFreq of its terms.
    let documentCount: UInt64
    let postingsCount: UInt64

    /// The field ordinal and blocks of the directory entry at `reader`, with the block index validated against
    /// `limit` (the directory's offset): block starts strictly increasing from the section's start to the index,
    /// first keys inside the keys area, which ends before `limit`.
    /// - Throws: `.truncated` or `.malformed` with the offset of the entry or of the index.
    static func read(
        file: UnsafeRawBufferPointer, limit: Int, infoLimits: TermInfoLimits, entry reader: inout ByteReader
    )
        throws(FormatError) -> (field: Int, blocks: Self)
    {
        let entryOffset = reader.offset
        guard let base = file.baseAddress else { throw .truncated(offset: 0, needed: 1, available: 0) }
        let field = Int(try reader.readU32())
        let terms = Int(clamping: try reader.readU64())
        let section = Int(clamping: try reader.readU64())
        let index = Int(clamping: try reader.readU64())
        let blockSize = Int(try reader.readU16())
        let startWidth = Int(try reader.readU8())
        let keyWidth = Int(try reader.readU8())
        let documents = try reader.readU64()
        let postings = try reader.readU64()
        func bad(_ why: String, at offset: Int = entryOffset) -> FormatError {
            .malformed(offset: offset, reason: "term dictionary of field \(field): \(why)")
        }
        guard section <= index, index <= limit, (1...TermDictionaryFormat.maximumBlockSize).contains(blockSize),
            terms <= limit, documents <= postings, startWidth <= TermDictionaryFormat.maximumWidth,
            keyWidth <= TermDictionaryFormat.maximumWidth
        else { throw bad("inconsistent directory entry") }
        let blocks = (terms + blockSize - 1) / blockSize
        let startsBytes = BitpackedArray.byteCount(count: blocks + 1, width: startWidth)
        let keyStartsBytes = BitpackedArray.byteCount(count: blocks + 1, width: keyWidth)
        guard startsBytes + keyStartsBytes <= limit - index else {
            throw bad("block index runs past the directory", at: index)
        }
        let keyStarts = index + startsBytes
        let keys = keyStarts + keyStartsBytes
        let layout = unsafe Self(
            base: base, termCount: terms, blockSize: blockSize, blockCount: blocks, sectionOffset: section,
            startsOffset: index,
            startWidth: startWidth, keyStartsOffset: keyStarts, keyWidth: keyWidth, keysOffset: keys,
            limits: infoLimits,
            documentCount: documents, postingsCount: postings
        )
        guard layout.blockStart(0) == 0, layout.blockStart(blocks) == index - section, layout.keyStart(0) == 0,
            layout.keyStart(blocks) <= limit - keys
        else { throw bad("block index does not span the section", at: index) }
        for b in 0..<blocks {
            guard layout.blockStart(b) < layout.blockStart(b + 1), layout.keyStart(b) <= layout.keyStart(b + 1) else {
                throw bad("block index entry \(b) is out of order", at: index)
            }
        }
        return (field, layout)
    }

    private init(
        base: UnsafeRawPointer, termCount: Int, blockSize: Int, blockCount: Int, sectionOffset: Int, startsOffset: Int,
        startWidth: Int, keyStartsOffset: Int, keyWidth: Int, keysOffset: Int, limits: TermInfoLimits,
        documentCount: UInt64, postingsCount: UInt64
    ) {
        self.limits = limits
        self.documentCount = documentCount
        self.postingsCount = postingsCount
        unsafe self.base = base
        self.termCount = termCount
        self.blockSize = blockSize
        self.blockCount = blockCount
        self.sectionOffset = sectionOffset
        self.startsOffset = startsOffset
        self.startWidth = startWidth
        self.keyStartsOffset = keyStartsOffset
        self.keyWidth = keyWidth
        self.keysOffset = keysOffset
    }

    /// Block `b`'s start relative to the section (`b ≤ blockCount`).
    @inline(__always)
    private func blockStart(_ b: Int) -> Int {
        unsafe Int(truncatingIfNeeded: BitpackedArray.get(base + startsOffset, width: startWidth, index: b))
    }

    /// Block `b`'s first key's start relative to the keys area (`b ≤ blockCount`).
    @inline(__always)
    private func keyStart(_ b: Int) -> Int {
        unsafe Int(truncatingIfNeeded: BitpackedArray.get(base + keyStartsOffset, width: keyWidth, index: b))
    }

    @inline(__always)
    func firstKey(_ block: Int) -> UnsafeRawBufferPointer {
        let start = keysOffset + keyStart(block)
        return unsafe UnsafeRawBufferPointer(start: base + start, count: keysOffset + keyStart(block + 1) - start)
    }

    func open(_ block: Int) throws(FormatError) -> TermBlockV2 {
        let start = sectionOffset + blockStart(block)
        let end = sectionOffset + blockStart(block + 1)
        var at = start
        guard let keysLength = unsafe VInt.decode(base, at: &at, end: end), keysLength <= UInt64(end - at) else {
            throw .malformed(offset: start, reason: "term block \(block) has keys past its end")
        }
        return unsafe TermBlockV2(
            base: base, keysStart: at, keysEnd: at + Int(keysLength), blockEnd: end, count: terms(inBlock: block),
            firstKey: firstKey(block), limits: limits)
    }
}

/// A v2 block being decoded: keys one after another; infos, by index, from the bitpacked runs that follow them,
/// whose header is read (and checked) only when a term's info is first asked for.
@safe
struct TermBlockV2: TermBlockDecoder {
    /// A run of bitpacked values `base + packed[i]`.
    struct Run {
        var offset = 0
        var width = 0
        var base: UInt64 = 0
    }

    private let base: UnsafeRawPointer?
    private var at = 0
    private let keysEnd: Int
    private let blockEnd: Int
    private let count: Int
    private let first: UnsafeRawBufferPointer
    private let limits: TermInfoLimits
    private var index = -1
    private var previousLength = 0
    private(set) var prefixLength = 0
    private(set) var suffix = unsafe UnsafeRawBufferPointer(start: nil, count: 0)
    private var infosRead = false
    /// Where `next()` or `skip(sharing:)` found a damaged term, -1 if nowhere.
    private var damagedAt = -1
    private var docFreqs = Run()
    private var postingsGaps = Run()
    private var positionsGaps = Run()
    /// Offsets of term `summed`; infos are read forward, so each gap is added once.
    private var summed = 0
    private var postings: UInt64 = 0
    private var positions: UInt64 = 0

    init() {
        unsafe base = nil
        keysEnd = 0
        blockEnd = 0
        count = 0
        unsafe first = UnsafeRawBufferPointer(start: nil, count: 0)
        limits = TermInfoLimits(postings: 0, positions: 0)
    }

    fileprivate init(
        base: UnsafeRawPointer, keysStart: Int, keysEnd: Int, blockEnd: Int, count: Int,
        firstKey: UnsafeRawBufferPointer,
        limits: TermInfoLimits
    ) {
        self.limits = limits
        unsafe self.base = base
        at = keysStart
        self.keysEnd = keysEnd
        self.blockEnd = blockEnd
        self.count = count
        unsafe first = firstKey
    }

    mutating func next() -> Bool {
        guard index &+ 1 < count, let base = unsafe base else {
            index = count
            return false
        }
        index &+= 1
        guard index > 0 else {
            unsafe suffix = first
            previousLength = unsafe first.count
            return true
        }
        guard at < keysEnd else { return stop(at) }
        let lengths = unsafe base.load(fromByteOffset: at, as: UInt8.self)
        var prefix = Int(lengths &>> 4)
        var length = Int(lengths & 0x0F)
        if lengths >= 0xF0 || length == TermDictionaryFormat.nibbleEscape {
            guard let escaped = unsafe escapedLengths(base) else { return stop(at) }
            (prefix, length) = escaped
        } else {
            at &+= 1
        }
        guard prefix <= previousLength, length <= keysEnd &- at else { return stop(at) }
        unsafe suffix = UnsafeRawBufferPointer(start: base + at, count: length)
        at &+= length
        prefixLength = prefix
        previousLength = prefix &+ length
        return true
    }

    /// The lengths of the key entry at `at` when one of them needs its VInt, moving `at` past them; nil when a
    /// VInt runs past the keys.
    @inline(never)
    private mutating func escapedLengths(_ base: UnsafeRawPointer) -> (prefix: Int, suffix: Int)? {
        let lengths = unsafe base.load(fromByteOffset: at, as: UInt8.self)
        at &+= 1
        var prefix = Int(lengths &>> 4)
        var length = Int(lengths & 0x0F)
        if prefix == TermDictionaryFormat.nibbleEscape {
            // A prefix may be longer than the block; `next()` checks it against the previous key.
            guard let extra = unsafe VInt.decode(base, at: &at, end: keysEnd), extra <= UInt64(UInt32.max) else {
                return nil
            }
            prefix += Int(extra)
        }
        if length == TermDictionaryFormat.nibbleEscape {
            guard let extra = unsafe VInt.decode(base, at: &at, end: keysEnd), extra <= UInt64(keysEnd) else {
                return nil
            }
            length += Int(extra)
        }
        return (prefix, length)
    }

    /// Ends the block at a damaged term whose entry is at `offset`.
    @inline(never)
    private mutating func stop(_ offset: Int) -> Bool {
        damagedAt = offset
        index = count
        return false
    }

    var damage: FormatError? {
        guard damagedAt >= 0 else { return nil }
        return .malformed(offset: damagedAt, reason: "a term of its block has lengths past the block's keys")
    }

    /// The same as the protocol's, in one loop over the header bytes that builds nothing for the terms it passes.
    /// A passed term's lengths are only checked to stay inside the block's keys: its prefix is never used, and
    /// the term stopped on is checked as `next()` checks it.
    mutating func skip(sharing length: Int) -> Bool {
        guard index >= 0, let base = unsafe base else { return next() }
        var at = self.at
        var index = self.index
        var previous = previousLength
        let last = count - 1
        while index < last {
            index &+= 1
            guard at < keysEnd else { return stop(at) }
            let lengths = unsafe base.load(fromByteOffset: at, as: UInt8.self)
            at &+= 1
            var prefix = Int(lengths &>> 4)
            var suffixLength = Int(lengths & 0x0F)
            if lengths >= 0xF0 || suffixLength == TermDictionaryFormat.nibbleEscape {
                if prefix == TermDictionaryFormat.nibbleEscape {
                    guard let extra = unsafe VInt.decode(base, at: &at, end: keysEnd), extra <= UInt64(UInt32.max)
                    else {
                        return stop(at)
                    }
                    prefix &+= Int(extra)
                }
                if suffixLength == TermDictionaryFormat.nibbleEscape {
                    guard let extra = unsafe VInt.decode(base, at: &at, end: keysEnd), extra <= UInt64(keysEnd) else {
                        return stop(at)
                    }
                    suffixLength &+= Int(extra)
                }
            }
            guard suffixLength <= keysEnd &- at else { return stop(at) }
            if prefix < length {
                guard prefix <= previous else { return stop(at) }
                unsafe suffix = UnsafeRawBufferPointer(start: base + at, count: suffixLength)
                self.at = at &+ suffixLength
                self.index = index
                prefixLength = prefix
                previousLength = prefix &+ suffixLength
                return true
            }
            at &+= suffixLength
            previous = prefix &+ suffixLength
        }
        self.at = at
        self.index = count
        return false
    }

    /// The docFreq run alone: its minimum times the block's terms plus its packed values.
    mutating func docFreqTotal() throws(FormatError) -> UInt64 {
        guard let base = unsafe base else { return 0 }
        if !infosRead { unsafe try readInfos(base) }
        var total = docFreqs.base &* UInt64(count)
        for i in 0..<count { total &+= unsafe Self.value(base, docFreqs, i) }
        return total
    }

    mutating func info() throws(FormatError) -> TermInfo {
        guard let base = unsafe base, index >= 0 else {
            return TermInfo(docFreq: 0, postingsOffset: 0, positionsOffset: 0)
        }
        if !infosRead { unsafe try readInfos(base) }
        while summed < index {
            unsafe postings &+= postingsGaps.base &+ Self.value(base, postingsGaps, summed)
            unsafe positions &+= positionsGaps.base &+ Self.value(base, positionsGaps, summed)
            summed += 1
        }
        let docFreq = unsafe docFreqs.base &+ Self.value(base, docFreqs, index)
        return try limits.check(
            TermInfo(docFreq: UInt32(clamping: docFreq), postingsOffset: postings, positionsOffset: positions),
            at: keysEnd)
    }

    /// Reads the infos' header after the keys and checks that the three runs fit in the block.
    @inline(never)
    private mutating func readInfos(_ base: UnsafeRawPointer) throws(FormatError) {
        var at = keysEnd
        let end = blockEnd
        func bad() -> FormatError { .malformed(offset: keysEnd, reason: "term infos of a block run past its end") }
        func vint() throws(FormatError) -> UInt64 {
            guard let v = unsafe VInt.decode(base, at: &at, end: end) else { throw bad() }
            return v
        }
        func width() throws(FormatError) -> Int {
            guard at < end else { throw bad() }
            let w = unsafe Int(base.load(fromByteOffset: at, as: UInt8.self))
            at += 1
            guard w <= TermDictionaryFormat.maximumWidth else { throw bad() }
            return w
        }
        let docFreqMin = try vint()
        let docFreqWidth = try width()
        postings = try vint()
        let postingsGapMin = try vint()
        let postingsWidth = try width()
        positions = try vint()
        let positionsGapMin = try vint()
        let positionsWidth = try width()
        let docFreqBytes = (count * docFreqWidth + 7) / 8
        let postingsBytes = ((count - 1) * postingsWidth + 7) / 8
        let positionsBytes = ((count - 1) * positionsWidth + 7) / 8
        guard docFreqBytes + postingsBytes + positionsBytes <= end - at else { throw bad() }
        docFreqs = Run(offset: at, width: docFreqWidth, base: docFreqMin)
        postingsGaps = Run(offset: at + docFreqBytes, width: postingsWidth, base: postingsGapMin)
        positionsGaps = Run(offset: at + docFreqBytes + postingsBytes, width: positionsWidth, base: positionsGapMin)
        infosRead = true
    }

    /// Packed value `i` of `run` (checked by `readInfos` to lie in the block; the load may read up to 7 bytes past
    /// it, which the layout guarantees exist).
    @inline(__always)
    private static func value(_ base: UnsafeRawPointer, _ run: Run, _ i: Int) -> UInt64 {
        guard run.width > 0 else { return 0 }
        let bit = i &* run.width
        let word = unsafe base.loadU64LE(at: run.offset &+ bit &>> 3)
        return (word &>> UInt64(bit & 7)) & ((1 &<< UInt64(run.width)) &- 1)
    }
}
