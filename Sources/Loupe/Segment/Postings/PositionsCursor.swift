import LoupeCodec

/// Reads one term's positions stream forward, one document's positions at a time.
///
/// Whole blocks before the wanted one are skipped by reading only their width byte. Positions are requested
/// by ordinal (`PostingsCursor.positionsBefore`), so the phrase scorer never decodes positions of documents
/// that failed the document-level intersection, except those sharing a decoded block.
@safe
package final class PositionsCursor {
    private let file: UnsafeRawBufferPointer
    /// Positions in the stream: Σ tf over the term's documents.
    package let total: Int
    private let fullBlocks: Int
    private let buffer: UnsafeMutablePointer<UInt32>
    /// Block held in `buffer` (-1: none; `fullBlocks`: the tail).
    // Touched for every position read; only ever accessed from the cursor's own methods, one call at a time, so
    // Swift's dynamic exclusivity checks are switched off for them.
    @exclusivity(unchecked) private var decodedBlock = -1
    /// Block whose header is at `nextOffset`.
    @exclusivity(unchecked) private var nextBlock = 0
    @exclusivity(unchecked) private var nextOffset: Int
    /// The first inconsistency found while decoding; no read succeeds after it.
    package private(set) var damage: SegmentDamage?

    package init(file: UnsafeRawBufferPointer, offset: UInt64) {
        unsafe self.file = unsafe file
        let start = Int(clamping: offset)
        var count: Int?
        var next = start
        if start <= file.count {
            var reader = unsafe ByteReader(file, offset: start)
            count = (try? reader.readVInt()).map { Int(clamping: $0) }
            next = reader.offset
        }
        total = count ?? 0
        fullBlocks = total / PositionsFormat.blockLength
        unsafe nextOffset = next
        unsafe buffer = .allocate(capacity: PositionsFormat.blockLength)
        if count == nil {
            damage = SegmentDamage(
                .positions, .malformed(offset: start, reason: "no positions stream at byte \(start)"))
        }
    }

    deinit { unsafe buffer.deallocate() }

    /// Whether the stream holds at least `count` positions (a document's tf, before buffers are sized for it);
    /// records `damage` when it does not.
    package func canHold(_ count: Int) -> Bool {
        unsafe count <= total || fail(at: nextOffset, "a document's \(count) positions exceed the stream's \(total)")
    }

    /// Writes the `count` absolute positions starting at stream ordinal `ordinal` into `out`.
    /// Ordinals must not decrease between calls. Returns false (and records `damage`) if the stream is damaged or
    /// shorter than asked.
    package func read(ordinal: UInt32, count: Int, into out: UnsafeMutablePointer<UInt32>) -> Bool {
        guard Int(ordinal) + count <= total else {
            return unsafe fail(at: nextOffset, "a document's positions run past the stream's \(total)")
        }
        var position: UInt32 = 0
        var o = Int(ordinal)
        var i = 0
        // A block's worth at a time: one block check per run, then a plain prefix-sum loop.
        while i < count {
            let block = o / PositionsFormat.blockLength
            if unsafe block != decodedBlock && !decode(block) { return false }
            let inBlock = o % PositionsFormat.blockLength
            let run = min(count - i, PositionsFormat.blockLength - inBlock)
            for j in 0..<run {
                unsafe position &+= buffer[inBlock + j]
                unsafe out[i + j] = position
            }
            i += run
            o += run
        }
        return true
    }

    private func decode(_ block: Int) -> Bool {
        guard damage == nil, let base = unsafe file.baseAddress else { return false }
        guard unsafe block >= nextBlock, block <= fullBlocks else {
            return unsafe fail(at: nextOffset, "positions read out of order")
        }
        while unsafe nextBlock < block {
            guard unsafe nextOffset < file.count else {
                return unsafe fail(at: nextOffset, "block \(nextBlock) is past the end")
            }
            unsafe nextOffset +=
                1 + BitPacker128.packedByteCount(width: Int(file.load(fromByteOffset: nextOffset, as: UInt8.self)))
            unsafe nextBlock += 1
        }
        guard unsafe nextOffset < file.count || block == fullBlocks else {
            return unsafe fail(at: nextOffset, "block \(block) is past the end")
        }
        if block < fullBlocks {
            let width = unsafe Int(file.load(fromByteOffset: nextOffset, as: UInt8.self))
            guard width <= 32, unsafe nextOffset + 1 + BitPacker128.packedByteCount(width: width) <= file.count else {
                return unsafe fail(at: nextOffset, "block \(block) runs past the end")
            }
            unsafe BitPacker128.unpack(base + nextOffset + 1, width: width, into: buffer)
            unsafe nextOffset += 1 + BitPacker128.packedByteCount(width: width)
        } else {
            guard unsafe nextOffset <= file.count else {
                return unsafe fail(at: nextOffset, "the tail is past the end")
            }
            var reader = unsafe ByteReader(file, offset: nextOffset)
            for i in 0..<(total - fullBlocks * PositionsFormat.blockLength) {
                guard let v = try? reader.readVInt32() else {
                    return fail(at: reader.offset, "unreadable tail position")
                }
                unsafe buffer[i] = v
            }
            unsafe nextOffset = reader.offset
        }
        unsafe nextBlock = block + 1
        unsafe decodedBlock = block
        return true
    }

    @inline(never)
    private func fail(at offset: Int, _ reason: String) -> Bool {
        if damage == nil { damage = SegmentDamage(.positions, .malformed(offset: offset, reason: reason)) }
        return false
    }
}
