// Document store file (`<segment>.store`), format v2. Little-endian. Legend: Docs/Formats/LEGEND.md
//
// | block 0 (LZ4) | … | block n-1 | index | docCount(u32) | indexOffset(u64) | footer (kind "STOR", version 2) |
//
// index: n × (firstDoc(u32) offset(u64) compressedLength(u32) rawLength(u32)). firstDoc rises strictly from 0 and
// stays below docCount: block b holds documents firstDoc(b) ..< firstDoc(b + 1) (docCount for the last block).
// raw block (before compression), for its `count` documents:
//   | endWidth(u8) | ends: endWidth byte planes × count bytes | document data |
//   end(i) = Σₖ plane[k][i] << 8k is the end of document i relative to the data start; document i starts at
//   end(i − 1), or 0. endWidth (1…4) is the fewest bytes holding the data length. Planes (every end's low byte,
//   then every second byte, …) leave LZ4 runs to find: as u32 words the rising ends do not compress at all, and
//   id-only stores, whose documents are a dozen bytes, would be 55% larger.
// document: valueCount(VInt), then per stored value: fieldOrdinal(VInt) and the value, typed by the schema:
//   text/string: length(VInt) + UTF-8 · u64: VInt · i64 and date (µs): zig-zag VInt · f64: 8 bytes · bool: u8
//
// Format v1, still read: each block is a raw deflate stream (zlib, window bits −15) of
//   | count(u32) | ends: count × u32 | document data |
// with 4 KiB blocks; everything else is as in v2.
//
// Blocks close once their document data reaches 16 KiB, as tantivy's LZ4 blocks do. On movies with every field
// stored, the store takes 6.28 MB at 16 KiB against 6.51 MB at 8 KiB and 6.76 MB at 4 KiB, while a fetch that
// misses every cache costs 3.6 µs against 2.1 and 1.3 µs (it decodes half a block on average); the shared block
// cache (`DocStoreCache`) makes repeated fetches from a block free of decoding, so bytes won. Docs/FORMAT.md §3.5.
import LoupeCodec

/// Constants of the document store.
package enum DocStoreFormat {
    /// How a store's blocks are compressed, by format version.
    package enum Codec: Sendable {
        /// Format v1: raw deflate, `count(u32)` and `u32` ends.
        case deflate
        /// Format v2: LZ4 blocks, `endWidth(u8)` and byte-plane ends.
        case lz4

        /// The codec of a store written with format `version` (1 or 2).
        package init(version: UInt32) { self = version == 1 ? .deflate : .lz4 }
    }

    /// What this build writes.
    package static let codec = Codec.lz4
    package static let blockTargetSize = 16 * 1024
    package static let indexEntrySize = 20
    /// Where the fields of an index entry lie within it.
    package static let entryOffsetField = 4
    package static let entryCompressedLengthField = 12
    package static let entryRawLengthField = 16
    /// `docCount(u32) indexOffset(u64)` before the footer.
    package static let trailerSize = 12
}

extension DocStoreFormat {
    /// Where a document lies in a raw block of which only a prefix may be decoded.
    package enum Location {
        /// The document's bytes, all decoded.
        case document(Range<Int>)
        /// Telling (or reaching the end of the document) needs this many decoded bytes.
        case needs(Int)
        /// The block's header contradicts its index entry or itself.
        case damaged(String)
    }

    /// Where document `local` of a block of `count` documents and `rawLength` raw bytes lies, from the `decoded`
    /// prefix of its raw bytes.
    /// - Complexity: O(1).
    package static func locate(
        _ local: Int, count: Int, rawLength: Int, codec: Codec, in decoded: UnsafeRawBufferPointer
    ) -> Location {
        switch codec {
        case .deflate: unsafe locateDeflate(local, count: count, rawLength: rawLength, in: decoded)
        case .lz4: unsafe locateLZ4(local, count: count, rawLength: rawLength, in: decoded)
        }
    }

    private static func locateLZ4(
        _ local: Int, count: Int, rawLength: Int, in decoded: UnsafeRawBufferPointer
    ) -> Location {
        guard decoded.count >= 1 else { return .needs(1) }
        let width = Int(unsafe decoded[0])
        guard (1...4).contains(width) else { return .damaged("end width \(width) is not 1 to 4") }
        let dataStart = 1 + width * count
        guard dataStart <= rawLength else {
            return .damaged("\(count) ends of \(width) bytes overrun \(rawLength) raw bytes")
        }
        guard decoded.count >= dataStart else { return .needs(dataStart) }
        func end(_ i: Int) -> Int {
            var value = 0
            for k in 0..<width { value |= Int(unsafe decoded[1 + k * count + i]) << (8 * k) }
            return value
        }
        let start = local == 0 ? 0 : end(local - 1)
        return range(start, end(local), dataStart: dataStart, rawLength: rawLength, decoded: decoded.count)
    }

    private static func locateDeflate(
        _ local: Int, count: Int, rawLength: Int, in decoded: UnsafeRawBufferPointer
    ) -> Location {
        guard decoded.count >= 4 else { return .needs(4) }
        let stored = Int(unsafe decoded.loadU32LE(at: 0))
        guard stored == count else { return .damaged("holds \(stored) documents, its index entry says \(count)") }
        let dataStart = 4 + 4 * count
        guard dataStart <= rawLength else { return .damaged("\(count) ends overrun \(rawLength) raw bytes") }
        guard decoded.count >= dataStart else { return .needs(dataStart) }
        let start = local == 0 ? 0 : Int(unsafe decoded.loadU32LE(at: 4 + 4 * (local - 1)))
        let end = Int(unsafe decoded.loadU32LE(at: 4 + 4 * local))
        return range(start, end, dataStart: dataStart, rawLength: rawLength, decoded: decoded.count)
    }

    private static func range(_ start: Int, _ end: Int, dataStart: Int, rawLength: Int, decoded: Int) -> Location {
        guard start <= end, end <= rawLength - dataStart else {
            return .damaged("a document spans \(start)..<\(end) of \(rawLength - dataStart) data bytes")
        }
        return decoded >= dataStart + end ? .document((dataStart + start)..<(dataStart + end)) : .needs(dataStart + end)
    }
}
