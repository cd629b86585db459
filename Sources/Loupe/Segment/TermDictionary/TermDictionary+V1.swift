import LoupeCodec

/// One field's blocks in format v1 (read only): blocks of 32 terms whose keys and info deltas are VInts.
@safe
struct TermBlocksV1: TermBlockLayout, @unchecked Sendable {
    // @unchecked: `body` views the read-only mapping that the dictionary reader's `FileSlice` keeps alive.
    /// The file's body up to the directory.
    private let body: UnsafeRawBufferPointer
    let termCount: Int
    var blockSize: Int { TermDictionaryFormat.v1BlockSize }
    let blockCount: Int
    private let sectionOffset: Int
    private let indexOffset: Int
    private let keysOffset: Int
    private let limits: TermInfoLimits

    /// The field ordinal and blocks of the directory entry at `reader`, with every index entry checked: its block
    /// starts inside the section and its first key inside `body`.
    /// - Throws: `.truncated` or `.malformed` with the offset of the entry.
    static func read(
        body: UnsafeRawBufferPointer, infoLimits: TermInfoLimits, entry reader: inout ByteReader
    )
        throws(FormatError)
        -> (field: Int, blocks: Self)
    {
        let entryOffset = reader.offset
        let field = Int(try reader.readU32())
        let terms = Int(clamping: try reader.readU64())
        let section = Int(clamping: try reader.readU64())
        let index = Int(clamping: try reader.readU64())
        let blocks = Int(try reader.readU32())
        let keys = Int(clamping: try reader.readU64())
        let blockSize = TermDictionaryFormat.v1BlockSize
        guard section <= index, index <= keys, keys <= body.count, terms <= body.count,
            blocks == (terms + blockSize - 1) / blockSize,
            (keys - index) == blocks * TermDictionaryFormat.v1IndexEntrySize
        else {
            throw .malformed(offset: entryOffset, reason: "term dictionary of field \(field) has inconsistent bounds")
        }
        let layout = unsafe Self(
            body: body, termCount: terms, blockCount: blocks, sectionOffset: section, indexOffset: index,
            keysOffset: keys,
            limits: infoLimits)
        for b in 0..<blocks {
            let entry = index + b * TermDictionaryFormat.v1IndexEntrySize
            let keyStart = unsafe keys + Int(body.loadU32LE(at: entry + 8))
            let keyLength = unsafe Int(body.loadU32LE(at: entry + 12))
            guard layout.blockStart(b) < index, keyLength <= body.count - keyStart else {
                throw .malformed(offset: entry, reason: "term block \(b) points outside its section")
            }
        }
        return (field, layout)
    }

    private init(
        body: UnsafeRawBufferPointer, termCount: Int, blockCount: Int, sectionOffset: Int, indexOffset: Int,
        keysOffset: Int,
        limits: TermInfoLimits
    ) {
        self.limits = limits
        unsafe self.body = body
        self.termCount = termCount
        self.blockCount = blockCount
        self.sectionOffset = sectionOffset
        self.indexOffset = indexOffset
        self.keysOffset = keysOffset
    }

    private func blockStart(_ block: Int) -> Int {
        let entry = indexOffset + block * TermDictionaryFormat.v1IndexEntrySize
        return unsafe sectionOffset &+ Int(truncatingIfNeeded: body.loadU64LE(at: entry) & UInt64(Int.max))
    }

    func firstKey(_ block: Int) -> UnsafeRawBufferPointer {
        let entry = indexOffset + block * TermDictionaryFormat.v1IndexEntrySize
        let start = unsafe keysOffset + Int(body.loadU32LE(at: entry + 8))
        return unsafe UnsafeRawBufferPointer(rebasing: body[start..<(start + Int(body.loadU32LE(at: entry + 12)))])
    }

    func open(_ block: Int) throws(FormatError) -> TermBlockV1 {
        let start = blockStart(block)
        let end = block + 1 < blockCount ? blockStart(block + 1) : indexOffset
        guard let base = unsafe body.baseAddress, sectionOffset <= start, start <= end, end <= indexOffset else {
            throw .malformed(offset: start, reason: "term block \(block) has a negative length")
        }
        return unsafe TermBlockV1(base: base, start: start, end: end, count: terms(inBlock: block), limits: limits)
    }
}

/// A v1 block being decoded: every term's header and info deltas are VInts, read in order.
@safe
struct TermBlockV1: TermBlockDecoder {
    private let base: UnsafeRawPointer?
    private var at: Int
    private let end: Int
    private let count: Int
    private let limits: TermInfoLimits
    private var index = -1
    private var previousLength = 0
    private var current = TermInfo(docFreq: 0, postingsOffset: 0, positionsOffset: 0)
    /// Where `next()` found a damaged term, -1 if nowhere.
    private var damagedAt = -1
    private(set) var prefixLength = 0
    private(set) var suffix = unsafe UnsafeRawBufferPointer(start: nil, count: 0)

    init() {
        unsafe base = nil
        at = 0
        end = 0
        count = 0
        limits = TermInfoLimits(postings: 0, positions: 0)
    }

    fileprivate init(base: UnsafeRawPointer, start: Int, end: Int, count: Int, limits: TermInfoLimits) {
        self.limits = limits
        unsafe self.base = base
        at = start
        self.end = end
        self.count = count
    }

    mutating func next() -> Bool {
        guard index + 1 < count, let base = unsafe base else {
            index = count
            return false
        }
        index += 1
        let termStart = at
        guard let prefix = unsafe VInt.decode(base, at: &at, end: end),
            let length = unsafe VInt.decode(base, at: &at, end: end),
            prefix <= UInt64(previousLength), length <= UInt64(end - at)
        else { return stop(termStart) }
        unsafe suffix = UnsafeRawBufferPointer(start: base + at, count: Int(length))
        at += Int(length)
        guard let docFreq = unsafe VInt.decode(base, at: &at, end: end), docFreq <= UInt64(UInt32.max),
            let postings = unsafe VInt.decode(base, at: &at, end: end),
            let positions = unsafe VInt.decode(base, at: &at, end: end)
        else { return stop(termStart) }
        current.docFreq = UInt32(docFreq)
        current.postingsOffset &+= postings
        current.positionsOffset &+= positions
        prefixLength = Int(prefix)
        previousLength = Int(prefix) + Int(length)
        return true
    }

    private mutating func stop(_ offset: Int) -> Bool {
        damagedAt = offset
        index = count
        return false
    }

    var damage: FormatError? {
        guard damagedAt >= 0 else { return nil }
        return .malformed(offset: damagedAt, reason: "a term of its block runs past the block")
    }

    func info() throws(FormatError) -> TermInfo { try limits.check(current, at: at) }
}
