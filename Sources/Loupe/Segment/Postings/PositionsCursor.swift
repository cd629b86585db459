import LoupeCodec

/// Reads one term's positions stream forward, one document's positions at a time.
///
/// Whole blocks before the wanted one are skipped by reading only their width byte. Positions are requested
/// by ordinal (`PostingsCursor.positionsBefore`), so the phrase scorer never decodes positions of documents
/// that failed the document-level intersection, except those sharing a decoded block.
@safe
package final class PositionsCursor {
    private let file: UnsafeRawBufferPointer
    private let total: Int
    private let fullBlocks: Int
    private let buffer: UnsafeMutablePointer<UInt32>
    /// Block held in `buffer` (-1: none; `fullBlocks`: the tail).
    private var decodedBlock = -1
    /// Block whose header is at `nextOffset`.
    private var nextBlock = 0
    private var nextOffset: Int
    private var damaged = false

    package init(file: UnsafeRawBufferPointer, offset: UInt64) {
        unsafe self.file = unsafe file
        var reader = unsafe ByteReader(file, offset: Int(clamping: offset))
        let count = (try? reader.readVInt()).map { Int(clamping: $0) }
        total = count ?? 0
        damaged = count == nil
        fullBlocks = total / PositionsFormat.blockLength
        nextOffset = reader.offset
        unsafe buffer = .allocate(capacity: max(PositionsFormat.blockLength, total % PositionsFormat.blockLength))
    }

    deinit { unsafe buffer.deallocate() }

    /// Writes the `count` absolute positions starting at stream ordinal `ordinal` into `out`.
    /// Ordinals must not decrease between calls. Returns false if the stream is damaged.
    package func read(ordinal: UInt32, count: Int, into out: UnsafeMutablePointer<UInt32>) -> Bool {
        var position: UInt32 = 0
        var o = Int(ordinal)
        for i in 0..<count {
            let block = o / PositionsFormat.blockLength
            if block != decodedBlock && !decode(block) { return false }
            unsafe position &+= buffer[o % PositionsFormat.blockLength]
            unsafe out[i] = position
            o += 1
        }
        return true
    }

    private func decode(_ block: Int) -> Bool {
        guard !damaged, block >= nextBlock, block <= fullBlocks, let base = unsafe file.baseAddress else { return false }
        while nextBlock < block {
            guard unsafe nextOffset < file.count else { return fail() }
            unsafe nextOffset += 1 + BitPacker128.packedByteCount(width: Int(file.load(fromByteOffset: nextOffset, as: UInt8.self)))
            nextBlock += 1
        }
        guard unsafe nextOffset < file.count || block == fullBlocks else { return fail() }
        if block < fullBlocks {
            let width = unsafe Int(file.load(fromByteOffset: nextOffset, as: UInt8.self))
            guard width <= 32, unsafe nextOffset + 1 + BitPacker128.packedByteCount(width: width) <= file.count else { return fail() }
            unsafe BitPacker128.unpack(base + nextOffset + 1, width: width, into: buffer)
            nextOffset += 1 + BitPacker128.packedByteCount(width: width)
        } else {
            var reader = unsafe ByteReader(file, offset: nextOffset)
            for i in 0..<(total - fullBlocks * PositionsFormat.blockLength) {
                guard let v = try? reader.readVInt32() else { return fail() }
                unsafe buffer[i] = v
            }
            nextOffset = reader.offset
        }
        nextBlock = block + 1
        decodedBlock = block
        return true
    }

    private func fail() -> Bool {
        damaged = true
        return false
    }
}
