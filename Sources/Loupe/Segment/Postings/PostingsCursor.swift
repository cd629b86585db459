import LoupeCodec

/// Walks one term's postings in one segment: document ids, frequencies, and the block-max bounds in the skip
/// entries. Decodes a 128-document block at a time into owned buffers, which scorers read in bulk; `seek`
/// skips whole blocks by their `lastDoc` without decoding them, and the shallow position (`regionEnd`) moves
/// over skip entries only, for pruning.
///
/// Assumptions: the postings file passed its footer check at open. Every block decode is checked — offsets and
/// widths inside the file, the decoded ids rising, below `maxDoc` and ending on the skip entry's `lastDoc` — so a
/// damaged list stops early and records `damage` (with the byte offset), never reads out of bounds and never
/// yields an id a segment's other structures cannot take.
@safe
package final class PostingsCursor {
    private let file: UnsafeRawBufferPointer
    private let skipBase: Int
    private let blocksBase: Int
    private let fullBlocks: Int
    private let docFreq: Int
    private let maxDoc: Int
    private let hasFreqs: Bool
    /// The decoded block's documents and frequencies (tf, at least 1); slots `0..<blockCount` are valid.
    package let docs: UnsafeMutablePointer<UInt32>
    package let tfs: UnsafeMutablePointer<UInt32>
    // The cursor's state is touched on every document; these properties are only ever accessed from the
    // cursor's own methods and its scorer's loops, one call at a time, so Swift's dynamic exclusivity checks are
    // switched off for them.
    /// Index of the decoded block; `fullBlocks` means the tail.
    @exclusivity(unchecked) private var blockIndex = -1
    @exclusivity(unchecked) private var decoded = 0
    @exclusivity(unchecked) private var slot = 0
    @exclusivity(unchecked) private var current: DocID = 0
    /// `positionsBefore`'s running sum: Σ tf before slot `summedSlot` of block `summedBlock`.
    @exclusivity(unchecked) private var summedBlock = -1
    @exclusivity(unchecked) private var summedSlot = 0
    @exclusivity(unchecked) private var summed: UInt32 = 0
    /// The skip entry the pruning bounds last stopped at.
    @exclusivity(unchecked) private var shallowMemo = 0
    /// The first inconsistency found while decoding; the slot is exhausted from there on.
    package private(set) var damage: SegmentDamage?

    /// - Parameters:
    ///   - info: where the term's list lives and how many documents it holds.
    ///   - maxDoc: the segment's document count; every decoded id must be below it.
    package init(file: UnsafeRawBufferPointer, info: TermInfo, hasFreqs: Bool, maxDoc: Int) {
        unsafe self.file = unsafe file
        self.docFreq = Int(info.docFreq)
        self.fullBlocks = docFreq / PostingsFormat.blockLength
        self.skipBase = Int(clamping: info.postingsOffset)
        self.blocksBase = skipBase &+ fullBlocks &* PostingsFormat.skipEntrySize
        self.hasFreqs = hasFreqs
        self.maxDoc = maxDoc
        unsafe docs = .allocate(capacity: PostingsFormat.blockLength)
        unsafe tfs = .allocate(capacity: PostingsFormat.blockLength)
        unsafe tfs.initialize(repeating: 1, count: PostingsFormat.blockLength)
        if docFreq == 0 {
            unsafe current = terminatedDoc
        } else if docFreq > maxDoc || skipBase > file.count || blocksBase > file.count {
            corrupt(at: skipBase, "a list of \(docFreq) documents at byte \(skipBase) does not fit the postings file")
        } else {
            load(block: 0)
        }
    }

    deinit {
        unsafe docs.deallocate()
        unsafe tfs.deallocate()
    }

    package var documentFrequency: Int { docFreq }

    /// The current document, `terminatedDoc` when exhausted.
    @inline(__always) package var doc: DocID { unsafe current }
    /// Valid slots of the decoded block.
    @inline(__always) package var blockCount: Int { unsafe decoded }
    /// Slot of the current document in the decoded block.
    @inline(__always) package var cursor: Int { unsafe slot }

    /// The decoded block's document in slot `i` (< `decoded`).
    @inline(__always) package func doc(at i: Int) -> DocID { unsafe docs[i] }

    /// The decoded block's term frequency in slot `i` (< `decoded`).
    @inline(__always) package func tf(at i: Int) -> UInt32 { unsafe tfs[i] }

    /// Frequency of the term in the current document (1 when the field records no frequencies).
    @inline(__always) package var termFrequency: UInt32 { unsafe tfs[slot] }

    /// Σ tf of the documents before the current one: the index of its first position in the term's positions stream.
    /// Sums forward from the last call's slot in the same block, so a block's calls add each tf once.
    package var positionsBefore: UInt32 {
        if unsafe summedBlock != blockIndex || summedSlot > slot {
            unsafe summedBlock = blockIndex
            unsafe summedSlot = 0
            unsafe summed =
                unsafe blockIndex == 0 || fullBlocks == 0
                ? 0 : skipField(blockIndex - 1, at: PostingsFormat.positionsUpToOffset)
        }
        while unsafe summedSlot < slot {
            unsafe summed &+= tfs[summedSlot]
            unsafe summedSlot += 1
        }
        return unsafe summed
    }

    /// Moves to the next document and returns it.
    @inline(__always) package func advance() -> DocID {
        unsafe slot += 1
        if unsafe slot < decoded {
            unsafe current = unsafe docs[slot]
            return unsafe current
        }
        return nextBlock()
    }

    /// Moves `n` documents forward inside the decoded block (`slot + n ≤ decoded`), decoding the next block
    /// when this one is used up.
    @inline(__always) package func consume(_ n: Int) {
        unsafe slot += n
        if unsafe slot < decoded {
            unsafe current = unsafe docs[slot]
        } else {
            _ = nextBlock()
        }
    }

    @inline(never)
    private func nextBlock() -> DocID {
        if unsafe blockIndex >= fullBlocks || damage != nil {
            unsafe current = terminatedDoc
            unsafe decoded = 0
            unsafe slot = 0
            return unsafe current
        }
        unsafe load(block: blockIndex + 1)
        return unsafe current
    }

    /// Moves to the first document ≥ `target` and returns it. `target` must be ≥ the current document.
    package func seek(_ target: DocID) -> DocID {
        if unsafe current >= target { return unsafe current }
        if unsafe blockIndex < fullBlocks && skipField(blockIndex, at: 0) < target {
            var b = unsafe blockIndex + 1
            while b < fullBlocks && skipField(b, at: 0) < target { b += 1 }
            load(block: b)
            if unsafe current == terminatedDoc { return unsafe current }
        }
        while unsafe current < target {
            unsafe slot += 1
            if unsafe slot >= decoded {
                if nextBlock() == terminatedDoc { return unsafe current }
                continue
            }
            unsafe current = unsafe docs[slot]
        }
        return unsafe current
    }

    // MARK: Pruning

    /// The last document of the block that holds `target` or follows it, read from the skip entries without
    /// decoding; `terminatedDoc - 1` in the tail (which has no skip entry).
    package func regionEnd(from target: DocID) -> DocID {
        let b = shallowBlock(holding: target)
        return b < fullBlocks ? max(skipField(b, at: 0), target) : terminatedDoc - 1
    }

    /// The largest tf and smallest norm code of the blocks overlapping `first...last`, nil when the tail is among
    /// them (its bounds are not stored).
    package func blockBounds(from first: DocID, through last: DocID) -> (maxTF: UInt32, minNorm: UInt8)? {
        var b = shallowBlock(holding: first)
        var maxTF: UInt32 = 0
        var minNorm: UInt8 = .max
        while true {
            guard b < fullBlocks else { return nil }
            let entry = skipBase + b * PostingsFormat.skipEntrySize
            let tf = unsafe file.load(fromByteOffset: entry + PostingsFormat.maxTFOffset, as: UInt8.self)
            maxTF = max(maxTF, tf == PostingsFormat.saturatedTF ? .max : UInt32(tf))
            minNorm = min(
                minNorm, unsafe file.load(fromByteOffset: entry + PostingsFormat.minNormOffset, as: UInt8.self))
            if skipField(b, at: 0) >= last { return (maxTF, minNorm) }
            b += 1
        }
    }

    /// The first block at or after the decoded one whose last document is ≥ `target` (`fullBlocks`: the tail),
    /// remembered so that rising targets walk each skip entry once.
    private func shallowBlock(holding target: DocID) -> Int {
        var b = unsafe max(shallowMemo, blockIndex)
        if b > 0 && b <= fullBlocks && skipField(b - 1, at: 0) >= target { b = unsafe max(blockIndex, 0) }
        while b < fullBlocks && skipField(b, at: 0) < target { b += 1 }
        unsafe shallowMemo = b
        return b
    }

    // MARK: Decoding

    @inline(__always) private func skipField(_ block: Int, at offset: Int) -> UInt32 {
        unsafe file.loadU32LE(at: skipBase + block * PostingsFormat.skipEntrySize + offset)
    }

    private func load(block b: Int) {
        unsafe blockIndex = b
        unsafe slot = 0
        var previous: Int64
        if b < fullBlocks {
            previous = b == 0 ? -1 : Int64(skipField(b - 1, at: 0))
            let entry = skipBase + b * PostingsFormat.skipEntrySize
            let offset = unsafe blocksBase &+ Int(file.loadU32LE(at: entry + PostingsFormat.blockOffsetOffset))
            let docBits = unsafe Int(file.load(fromByteOffset: entry + PostingsFormat.docBitsOffset, as: UInt8.self))
            let tfBits = unsafe Int(file.load(fromByteOffset: entry + PostingsFormat.tfBitsOffset, as: UInt8.self))
            guard docBits <= 32, tfBits <= 32 else {
                return corrupt(at: entry, "bit widths \(docBits)/\(tfBits) over 32")
            }
            let size =
                BitPacker128.packedByteCount(width: docBits)
                + (hasFreqs ? BitPacker128.packedByteCount(width: tfBits) : 0)
            guard unsafe offset + size <= file.count, let base = unsafe file.baseAddress else {
                return corrupt(at: entry, "block \(b) runs past the end of the file")
            }
            unsafe BitPacker128.unpack(base + offset, width: docBits, into: docs)
            for i in 0..<PostingsFormat.blockLength {
                unsafe previous += Int64(docs[i]) + 1
                unsafe docs[i] = UInt32(truncatingIfNeeded: previous)
            }
            let lastDoc = Int64(skipField(b, at: 0))
            guard previous == lastDoc, lastDoc < Int64(maxDoc) else {
                return corrupt(
                    at: offset, "block \(b) decodes to documents that do not end on its skip entry's \(lastDoc)")
            }
            if hasFreqs {
                unsafe BitPacker128.unpack(
                    base + offset + BitPacker128.packedByteCount(width: docBits), width: tfBits, into: tfs)
                for i in 0..<PostingsFormat.blockLength { unsafe tfs[i] &+= 1 }
            }
            unsafe decoded = PostingsFormat.blockLength
        } else {
            previous = fullBlocks == 0 ? -1 : Int64(skipField(fullBlocks - 1, at: 0))
            let count = docFreq - fullBlocks * PostingsFormat.blockLength
            guard count > 0 else {
                unsafe decoded = 0
                unsafe current = terminatedDoc
                return
            }
            let tailStart = fullBlocks == 0 ? blocksBase : tailOffset()
            guard let tailStart, unsafe tailStart <= file.count, let base = unsafe file.baseAddress else {
                return corrupt(at: skipBase, "the tail of the list starts past the end of the file")
            }
            let end = unsafe file.count
            var offset = tailStart
            for i in 0..<count {
                guard let gap = unsafe VInt.decode(base, at: &offset, end: end), gap < UInt64(UInt32.max) else {
                    return corrupt(at: offset, "unreadable document gap")
                }
                previous += Int64(gap) + 1
                unsafe docs[i] = UInt32(truncatingIfNeeded: previous)
            }
            guard previous < Int64(maxDoc) else {
                return corrupt(at: tailStart, "document \(previous) is past the segment's \(maxDoc)")
            }
            for i in 0..<count {
                if hasFreqs {
                    guard let tf = unsafe VInt.decode(base, at: &offset, end: end), tf < UInt64(UInt32.max) else {
                        return corrupt(at: offset, "unreadable term frequency")
                    }
                    unsafe tfs[i] = UInt32(tf) + 1
                } else {
                    unsafe tfs[i] = 1
                }
            }
            unsafe decoded = count
        }
        unsafe current = unsafe docs[0]
    }

    /// Where the tail starts: after the last full block (nil when its skip entry is damaged).
    private func tailOffset() -> Int? {
        let last = skipBase + (fullBlocks - 1) * PostingsFormat.skipEntrySize
        let docBits = unsafe Int(file.load(fromByteOffset: last + PostingsFormat.docBitsOffset, as: UInt8.self))
        let tfBits = unsafe Int(file.load(fromByteOffset: last + PostingsFormat.tfBitsOffset, as: UInt8.self))
        guard docBits <= 32, tfBits <= 32 else { return nil }
        return unsafe blocksBase + Int(file.loadU32LE(at: last + PostingsFormat.blockOffsetOffset))
            + BitPacker128.packedByteCount(width: docBits)
            + (hasFreqs ? BitPacker128.packedByteCount(width: tfBits) : 0)
    }

    /// Records the damage and ends the list here.
    @inline(never)
    private func corrupt(at offset: Int, _ reason: String) {
        if damage == nil { damage = SegmentDamage(.postings, .malformed(offset: offset, reason: reason)) }
        unsafe decoded = 0
        unsafe slot = 0
        unsafe blockIndex = fullBlocks
        unsafe current = terminatedDoc
    }
}
