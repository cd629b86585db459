// LoupeCodec — the byte layer under every Loupe file format.
//
// Layers, bottom to top:
//   1. Raw loads: `loadU32LE`/`loadU64LE` on raw pointers, unchecked, for hot paths whose bounds a reader
//      validated when it opened the file.
//   2. Cursors: `ByteWriter` (growable output) and `ByteReader` (checked cursor over borrowed bytes; every
//      read throws `FormatError.truncated` instead of trapping), plus `VInt` (LEB128).
//   3. Integer codecs: `BitPacker128` (128-value SIMD-BP128 blocks for postings) and `BitpackedArray`
//      (fixed-width random access for fast fields).
//   4. Integrity and compression: `CRC32` and `Footer` (the 16-byte trailer of every file) on system zlib through
//      `CZlib`; `LZ4Compressor` and `LZ4.decompress` (LZ4 blocks, in Swift: the document store's, format v2);
//      `Deflater` and `Inflater` (raw deflate on zlib: the store's blocks of format v1, still read).
//   5. Input: `LineReader`, plain or gzip text line by line, for JSONL corpora.
//
// Invariants:
//   - Everything on disk is little-endian; the module refuses to build on a big-endian host (see below), so
//     in-memory SIMD loads of packed words need no byte swaps.
//   - Bytes from disk never trap: checked APIs throw `FormatError` carrying the byte offset. Unchecked
//     APIs (`VInt.decode`, `BitPacker128.unpack`, `BitpackedArray.get`, `loadU32LE`) document the bounds
//     their caller must have validated.
//   - Readers borrow memory (`UnsafeRawBufferPointer`) and never own it; the owner (a mapped file, an
//     array) must outlive every view handed out.
//   - No Foundation: only Glibc and zlib, so the module stays a cheap leaf.
//
// Format specs: Docs/FORMAT.md, with the diagram glyphs in Docs/Formats/LEGEND.md.

#if !_endian(little)
#error("LoupeCodec assumes a little-endian host: packed blocks are loaded as native SIMD words")
#endif
