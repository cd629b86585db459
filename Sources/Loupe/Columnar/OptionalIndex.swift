// Optional index: which documents of a single-valued column have a value, and each one's row (its rank among
// them). Little-endian. Legend: Docs/Formats/LEGEND.md; the whole file: ColumnarFormat.swift.
//
// | rowCount(u32) | blockCount(u32) | per block of 65,536 documents: kind(u8) rowStart(u32) dataOffset(u32) |
// | dataLength(u32) | block data |
// kind 0, dense:  1,024 words (u64) of presence bits, then 1,024 u16 ranks (rows before each word in the block)
// kind 1, sparse: the block's present documents as sorted u16s (their number is the next block's rowStart less
//                 this one's)
// A block is dense when it holds more than 5,120 documents, where the bits are smaller than the list (tantivy's
// rule). Lookups are O(1): a popcount in a dense block, a binary search of at most 5,120 entries in a sparse one.

import LoupeCodec

@safe
struct OptionalIndex: @unchecked Sendable {
    // @unchecked: `headers` and `data` view the read-only mapping the column's `FileSlice` keeps alive.
    static let blockDocs = 1 << 16
    static let denseThreshold = 5_120
    static let denseBytes = 1_024 * 8 + 1_024 * 2
    static let blockHeaderSize = 9

    let rowCount: Int
    private let blockCount: Int
    private let headers: UnsafeRawPointer
    private let data: UnsafeRawPointer

    /// - Throws: `FormatError` when a block's rows or data do not fit.
    init(_ bytes: UnsafeRawBufferPointer, maxDoc: Int, fileOffset: Int, consumed: inout Int) throws(FormatError) {
        var reader = unsafe ByteReader(bytes)
        rowCount = Int(try reader.readU32())
        blockCount = Int(try reader.readU32())
        guard blockCount == (maxDoc + Self.blockDocs - 1) / Self.blockDocs, rowCount <= maxDoc else {
            throw .malformed(
                offset: fileOffset,
                reason: "optional index of \(blockCount) blocks, \(rowCount) rows for \(maxDoc) documents")
        }
        let headerStart = reader.offset
        try reader.skip(blockCount * Self.blockHeaderSize)
        let dataLength = Int(try reader.readU32())
        let dataStart = reader.offset
        try reader.skip(dataLength)
        guard let base = bytes.baseAddress else { throw .truncated(offset: fileOffset, needed: 1, available: 0) }
        for b in 0..<blockCount {
            let header = headerStart + b * Self.blockHeaderSize
            let kind = unsafe bytes[header]
            let rowStart = unsafe Int(bytes.loadU32LE(at: header + 1))
            let offset = unsafe Int(bytes.loadU32LE(at: header + 5))
            let rowEnd =
                b + 1 < blockCount ? unsafe Int(bytes.loadU32LE(at: header + 1 + Self.blockHeaderSize)) : rowCount
            let docs = min(Self.blockDocs, maxDoc - b * Self.blockDocs)
            let size = kind == 0 ? Self.denseBytes : (rowEnd - rowStart) * 2
            guard kind <= 1, rowStart <= rowEnd, rowEnd - rowStart <= docs, offset <= dataLength,
                size <= dataLength - offset
            else {
                throw .malformed(offset: fileOffset + header, reason: "optional index block \(b) is inconsistent")
            }
        }
        unsafe headers = unsafe base + headerStart
        unsafe data = unsafe base + dataStart
        consumed = reader.offset
    }

    /// The row of `doc`, nil when it has no value.
    @inline(__always) func row(_ doc: DocID) -> Int? {
        let block = Int(doc &>> 16)
        guard block < blockCount else { return nil }
        let header = unsafe headers + block &* Self.blockHeaderSize
        let rowStart = unsafe Int(header.loadU32LE(at: 1))
        let blockData = unsafe data + Int(header.loadU32LE(at: 5))
        let rowEnd = block &+ 1 < blockCount ? unsafe Int(header.loadU32LE(at: 1 &+ Self.blockHeaderSize)) : rowCount
        let within = Int(doc & 0xFFFF)
        if unsafe header.load(as: UInt8.self) == 0 {
            let word = unsafe blockData.loadU64LE(at: (within &>> 6) &* 8)
            let bit = UInt64(1) &<< UInt64(within & 63)
            guard word & bit != 0 else { return nil }
            let rank = unsafe Int(
                blockData.loadUnaligned(fromByteOffset: 8_192 &+ (within &>> 6) &* 2, as: UInt16.self))
            let row = rowStart &+ rank &+ (word & (bit &- 1)).nonzeroBitCount
            return row < rowEnd ? row : nil
        }
        var (lo, hi) = (0, rowEnd &- rowStart)
        let target = UInt16(truncatingIfNeeded: within)
        while lo < hi {
            let mid = (lo &+ hi) &>> 1
            if unsafe blockData.loadUnaligned(fromByteOffset: mid &* 2, as: UInt16.self) < target {
                lo = mid &+ 1
            } else {
                hi = mid
            }
        }
        guard lo < rowEnd &- rowStart,
            unsafe blockData.loadUnaligned(fromByteOffset: lo &* 2, as: UInt16.self) == target
        else { return nil }
        return rowStart &+ lo
    }

    /// The rows of `count` increasing documents into `rows`, `missing` for a document without a value: the block
    /// read, decoding each 65,536-document block's header once for all the documents that fall in it.
    func rows(of docs: UnsafePointer<DocID>, count: Int, into rows: UnsafeMutablePointer<UInt32>, missing: UInt32) {
        var i = 0
        while i < count {
            let block = Int(unsafe docs[i] &>> 16)
            guard block < blockCount else {
                for j in i..<count { unsafe rows[j] = missing }
                return
            }
            let header = unsafe headers + block &* Self.blockHeaderSize
            guard unsafe header.load(as: UInt8.self) == 0 else {
                // Sparse: few documents, looked up one by one.
                while i < count && Int(unsafe docs[i] &>> 16) == block {
                    unsafe rows[i] = row(docs[i]).map { UInt32(truncatingIfNeeded: $0) } ?? missing
                    i &+= 1
                }
                continue
            }
            let rowStart = unsafe Int(header.loadU32LE(at: 1))
            let rowEnd =
                block &+ 1 < blockCount ? unsafe Int(header.loadU32LE(at: 1 &+ Self.blockHeaderSize)) : rowCount
            let blockData = unsafe data + Int(header.loadU32LE(at: 5))
            while i < count && Int(unsafe docs[i] &>> 16) == block {
                let within = Int(unsafe docs[i] & 0xFFFF)
                let word = unsafe blockData.loadU64LE(at: (within &>> 6) &* 8)
                let bit = UInt64(1) &<< UInt64(within & 63)
                if word & bit == 0 {
                    unsafe rows[i] = missing
                } else {
                    let rank = unsafe Int(
                        blockData.loadUnaligned(fromByteOffset: 8_192 &+ (within &>> 6) &* 2, as: UInt16.self))
                    let row = rowStart &+ rank &+ (word & (bit &- 1)).nonzeroBitCount
                    unsafe rows[i] = row < rowEnd ? UInt32(truncatingIfNeeded: row) : missing
                }
                i &+= 1
            }
        }
    }

    /// Appends the index of the documents `docs` (increasing) of a segment of `maxDoc` documents.
    static func write(_ docs: [UInt32], maxDoc: Int, into out: inout ByteWriter) {
        let blockCount = (maxDoc + blockDocs - 1) / blockDocs
        var data = ByteWriter()
        var headers = ByteWriter()
        var next = 0
        for b in 0..<blockCount {
            let start = next
            while next < docs.count && Int(docs[next]) >> 16 == b { next += 1 }
            let members = docs[start..<next]
            let dense = members.count > denseThreshold
            headers.writeU8(dense ? 0 : 1)
            headers.writeU32(UInt32(start))
            headers.writeU32(UInt32(data.count))
            if dense {
                var words = [UInt64](repeating: 0, count: 1_024)
                for doc in members { words[Int(doc & 0xFFFF) >> 6] |= 1 << UInt64(doc & 63) }
                for w in words { data.writeU64(w) }
                var rank = 0
                for w in words {
                    data.writeU16(UInt16(rank))
                    rank += w.nonzeroBitCount
                }
            } else {
                for doc in members { data.writeU16(UInt16(doc & 0xFFFF)) }
            }
        }
        out.writeU32(UInt32(docs.count))
        out.writeU32(UInt32(blockCount))
        out.writeBytes(headers.bytes)
        out.writeU32(UInt32(data.count))
        out.writeBytes(data.bytes)
    }
}
