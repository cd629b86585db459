// Document store file (`<segment>.store`), format v1. Little-endian. Legend: Docs/Formats/LEGEND.md
//
// | block 0 (raw deflate) | … | block n-1 | index | docCount(u32) | indexOffset(u64) | footer (kind "STOR") |
//
// index: n × (firstDoc(u32) offset(u64) compressedLength(u32) rawLength(u32))
// raw block (before compression), holding documents firstDoc ..< next block's firstDoc:
//   | count(u32) | ends: count × u32 (end of each document, relative to the data start) | document data |
// document: valueCount(VInt), then per stored value: fieldOrdinal(VInt) and the value, typed by the schema:
//   text/string: length(VInt) + UTF-8 · u64: VInt · i64 and date (µs): zig-zag VInt · f64: 8 bytes · bool: u8
//
// Blocks close once their document data reaches 4 KiB: big enough for deflate to find redundancy across
// documents, small enough that fetching a hit inflates little (tantivy uses 16 KiB, but with LZ4; with zlib,
// 4 KiB made top-10 searches 1.6× faster on english-text for 3.5% more bytes).

/// Constants of the document store.
package enum DocStoreFormat {
    package static let blockTargetSize = 4 * 1024
    /// zlib level of the blocks: the fastest, 15% fewer instructions than level 6 to index movies, for 0.7% more bytes.
    package static let compressionLevel: Int32 = 1
    package static let indexEntrySize = 20
    /// Decompressed blocks kept per segment reader.
    package static let cachedBlocks = 16
}
