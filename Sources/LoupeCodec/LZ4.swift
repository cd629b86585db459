/// The LZ4 *block* format (no frame, no checksum, no stored size), for the document store's blocks.
///
/// A block is a run of sequences. Each sequence is a literal run followed by a match:
///
/// ```
/// | token(u8) | literalLength+(u8…) | literals | offset(u16) | matchLength+(u8…) |
/// ```
///
/// - `token`: high nibble = literal length, low nibble = match length − 4; a nibble of 15 is followed by extension
///   bytes, each added to the length, until one is below 255.
/// - `offset`: 1…65535, how far back in the *output* the match starts; it may be shorter than the match, which
///   then repeats the last `offset` bytes (run-length encoding).
/// - The last sequence has literals only: the block ends right after them. The spec also keeps the last 5 bytes
///   literals and starts no match within 12 bytes of the end; `LZ4Compressor` follows those rules, and
///   `LZ4.decompress` does not rely on them.
///
/// Readers store the decompressed size beside the block (the format does not), and the file footer's CRC covers
/// the block's bytes. Spec: https://github.com/lz4/lz4/blob/dev/doc/lz4_Block_format.md
package enum LZ4 {
    /// The shortest match a sequence encodes.
    package static let minMatch = 4
    /// The farthest a match may reach back.
    package static let maxOffset = 65_535
    /// The spec keeps the last 5 bytes of a block literals…
    static let lastLiterals = 5
    /// …and starts its last match at least 12 bytes before the end.
    static let matchFindLimit = 12

    /// The largest block `LZ4Compressor` writes for `count` input bytes: incompressible input costs one length
    /// byte per 255 literals, plus the token.
    package static func maxCompressedSize(_ count: Int) -> Int { count + count / 255 + 16 }

    /// The most bytes `count` compressed bytes can decode to. A match costs at least 3 bytes (token and offset) and
    /// at most 255 more output bytes per extension byte, so no block expands more than 255×; a declared size beyond
    /// that is damage, and rejecting it avoids allocating it.
    package static func maxDecompressedSize(_ count: Int) -> Int { count > Int.max / 255 ? Int.max : count * 255 }
}
