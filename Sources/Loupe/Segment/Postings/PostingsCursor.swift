import LoupeCodec

/// Walks one term's postings in one segment: document ids, frequencies, and the block-max bounds in the skip
/// entries. Decodes a 128-document block at a time into owned scratch buffers; `seek` skips whole blocks by
/// their `lastDoc` without decoding them.
///
/// Assumptions: the postings file passed its footer check at open; offsets computed from skip entries are still
/// bounds-checked once per block, so a damaged file yields `terminatedDoc`, never a wild read.
@safe
package final class PostingsCursor {
    private let file: UnsafeRawBufferPointer
    private let skipBase: Int
    private let blocksBase: Int
    private let fullBlocks: Int
    private let docFreq: Int
    private let hasFreqs: Bool
    private let docs: UnsafeMutablePointer<UInt32>
    private let tfs: UnsafeMutablePointer<UInt32>
    /// Index of the decoded block; `fullBlocks` means the tail.
    // The cursor's state is touched on every document; these properties are only ever accessed from the
    // cursor's own methods, one call at a time, so Swift's dynamic exclusivity checks are switched off for them.
    @exclusivity(unchecked) private var blockIndex = -1
    @exclusivity(unchecked) private var blockCount = 0
    @exclusivity(unchecked) private var cursor = 0
    /// The current document, `terminatedDoc` when exhausted.
    @exclusivity(unchecked) package private(set) var doc: DocID = 0

    package init(file: UnsafeRawBufferPointer, info: TermInfo, hasFreqs: Bool) {
        unsafe self.file = unsafe file
        self.docFreq = Int(info.docFreq)
        self.fullBlocks = docFreq / PostingsFormat.blockLength
        self.skipBase = Int(clamping: info.postingsOffset)
        self.blocksBase = skipBase &+ fullBlocks &* PostingsFormat.skipEntrySize
        self.hasFreqs = hasFreqs
        unsafe docs = .allocate(capacity: PostingsFormat.blockLength)
        unsafe tfs = .allocate(capacity: PostingsFormat.blockLength)
        unsafe tfs.initialize(repeating: 1, count: PostingsFormat.blockLength)
        if docFreq == 0 || blocksBase > file.count {
            unsafe doc = terminatedDoc
        } else {
            load(block: 0)
        }
    }

    deinit {
        unsafe docs.deallocate()
        unsafe tfs.deallocate()
    }

    package var documentFrequency: Int { docFreq }

    /// Frequency of the term in the current document (1 when the field records no frequencies).
    @inline(__always) package var termFrequency: UInt32 { unsafe tfs[cursor] }

    /// Σ tf of the documents before the current one: the index of its first position in the term's positions stream.
    package var positionsBefore: UInt32 {
        var sum: UInt32 = unsafe blockIndex == 0 || fullBlocks == 0 ? 0 : skipField(blockIndex - 1, at: 8)
        for i in unsafe 0..<cursor { unsafe sum &+= tfs[i] }
        return sum
    }

    /// Moves to the next document and returns it.
    @inline(__always) package func advance() -> DocID {
        unsafe cursor += 1
        if unsafe cursor < blockCount {
            unsafe doc = unsafe docs[cursor]
            return unsafe doc
        }
        return nextBlock()
    }

    @inline(never)
    private func nextBlock() -> DocID {
        if unsafe blockIndex >= fullBlocks {
            unsafe doc = terminatedDoc
            return unsafe doc
        }
        unsafe load(block: blockIndex + 1)
        return unsafe doc
    }

    /// Moves to the first document ≥ `target` and returns it. `target` must be ≥ the current document.
    package func seek(_ target: DocID) -> DocID {
        if unsafe doc >= target { return unsafe doc }
        if unsafe blockIndex < fullBlocks && skipField(blockIndex, at: 0) < target {
            var b = unsafe blockIndex + 1
            while b < fullBlocks && skipField(b, at: 0) < target { b += 1 }
            load(block: b)
            if unsafe doc == terminatedDoc { return unsafe doc }
        }
        while unsafe doc < target {
            unsafe cursor += 1
            if unsafe cursor >= blockCount {
                if nextBlock() == terminatedDoc { return unsafe doc }
                continue
            }
            unsafe doc = unsafe docs[cursor]
        }
        return unsafe doc
    }

    /// Upper bounds of the current block for block-max pruning: the largest tf and the smallest norm code.
    package var blockBound: (maxTF: UInt32, minNorm: UInt8)? {
        guard unsafe blockIndex < fullBlocks else { return nil }
        let tf = unsafe file.load(fromByteOffset: skipBase + blockIndex * PostingsFormat.skipEntrySize + 15, as: UInt8.self)
        let norm = unsafe file.load(fromByteOffset: skipBase + blockIndex * PostingsFormat.skipEntrySize + 14, as: UInt8.self)
        return (tf == PostingsFormat.saturatedTF ? .max : UInt32(tf), norm)
    }

    @inline(__always) private func skipField(_ block: Int, at offset: Int) -> UInt32 {
        unsafe file.loadU32LE(at: skipBase + block * PostingsFormat.skipEntrySize + offset)
    }

    private func load(block b: Int) {
        unsafe blockIndex = b
        unsafe cursor = 0
        var previous: Int64
        if b < fullBlocks {
            previous = b == 0 ? -1 : Int64(skipField(b - 1, at: 0))
            let entry = skipBase + b * PostingsFormat.skipEntrySize
            let offset = unsafe blocksBase + Int(file.loadU32LE(at: entry + 4))
            let docBits = unsafe Int(file.load(fromByteOffset: entry + 12, as: UInt8.self))
            let tfBits = unsafe Int(file.load(fromByteOffset: entry + 13, as: UInt8.self))
            let size = BitPacker128.packedByteCount(width: docBits) + (hasFreqs ? BitPacker128.packedByteCount(width: tfBits) : 0)
            guard docBits <= 32, tfBits <= 32, unsafe offset + size <= file.count, let base = unsafe file.baseAddress else {
                return corrupt()
            }
            unsafe BitPacker128.unpack(base + offset, width: docBits, into: docs)
            for i in 0..<PostingsFormat.blockLength {
                unsafe previous += Int64(docs[i]) + 1
                unsafe docs[i] = UInt32(truncatingIfNeeded: previous)
            }
            if hasFreqs {
                unsafe BitPacker128.unpack(base + offset + BitPacker128.packedByteCount(width: docBits), width: tfBits, into: tfs)
                for i in 0..<PostingsFormat.blockLength { unsafe tfs[i] &+= 1 }
            }
            unsafe blockCount = PostingsFormat.blockLength
        } else {
            previous = fullBlocks == 0 ? -1 : Int64(skipField(fullBlocks - 1, at: 0))
            let tailStart = fullBlocks == 0 ? blocksBase : tailOffset()
            guard unsafe tailStart <= file.count else { return corrupt() }
            guard let base = unsafe file.baseAddress else { return corrupt() }
            let end = unsafe file.count
            var offset = tailStart
            let count = docFreq - fullBlocks * PostingsFormat.blockLength
            for i in 0..<count {
                guard let gap = unsafe VInt.decode(base, at: &offset, end: end), gap < UInt64(UInt32.max) else {
                    return corrupt()
                }
                previous += Int64(gap) + 1
                unsafe docs[i] = UInt32(truncatingIfNeeded: previous)
            }
            for i in 0..<count {
                if hasFreqs {
                    guard let tf = unsafe VInt.decode(base, at: &offset, end: end), tf < UInt64(UInt32.max) else {
                        return corrupt()
                    }
                    unsafe tfs[i] = UInt32(tf) + 1
                } else {
                    unsafe tfs[i] = 1
                }
            }
            unsafe blockCount = count
            if count == 0 { return corrupt() }
        }
        unsafe doc = unsafe docs[0]
    }

    private func tailOffset() -> Int {
        let last = skipBase + (fullBlocks - 1) * PostingsFormat.skipEntrySize
        let docBits = unsafe Int(file.load(fromByteOffset: last + 12, as: UInt8.self))
        let tfBits = unsafe Int(file.load(fromByteOffset: last + 13, as: UInt8.self))
        return unsafe blocksBase + Int(file.loadU32LE(at: last + 4)) + BitPacker128.packedByteCount(width: docBits)
            + (hasFreqs ? BitPacker128.packedByteCount(width: tfBits) : 0)
    }

    /// A damaged list ends here rather than reading out of bounds (footer checksums catch damage at open).
    private func corrupt() {
        unsafe blockCount = 0
        unsafe blockIndex = fullBlocks
        unsafe doc = terminatedDoc
    }
}
