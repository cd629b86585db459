// Term dictionary file (`<segment>.terms`), format v2. Little-endian. Legend: Docs/Formats/LEGEND.md
//
// | section of field A | section of field B | … | directory | directoryOffset(u64) | footer (kind "TERM", v2) |
//
// section: the field's terms in byte order, in blocks of `blockSize` (the last may be shorter), then the block index:
//   | block 0 | … | block n-1 | blockStarts | firstKeyStarts | first keys |
//   blockStarts: BitpackedArray of n+1 values at startWidth bits: block b is bytes
//                [blockStarts[b], blockStarts[b+1]) of the section; blockStarts[n] is where the index begins.
//   firstKeyStarts: BitpackedArray of n+1 values at keyWidth bits: block b's first key is
//                first keys[firstKeyStarts[b] ..< firstKeyStarts[b+1]].
//   block: | keysLength(VInt) | keys of terms 1..<n | infos |
//     key: | lengths(u8): prefix << 4 | suffix | [prefix − 15 (VInt) if prefix nibble is 15]
//          | [suffix − 15 (VInt) if suffix nibble is 15] | suffix(bytes) |
//          front-coded against the previous key of the block; term 0's key is the block's first key.
//     infos: | docFreqMin(VInt) docFreqWidth(u8) | postingsStart(VInt) postingsGapMin(VInt) postingsWidth(u8)
//            | positionsStart(VInt) positionsGapMin(VInt) positionsWidth(u8)
//            | docFreq − docFreqMin: n values | postings gap − postingsGapMin: n−1 values | the same for positions |
//            each run of values bitpacked LSB first, padded to a whole byte. Term i's postings offset is
//            postingsStart plus the gaps of terms 1…i (positions likewise).
// directory: fieldCount(u32), per field (48 bytes): fieldOrdinal(u32) termCount(u64) sectionOffset(u64)
//            indexOffset(u64) blockSize(u16) startWidth(u8) keyWidth(u8) documentCount(u64) postingsCount(u64)
//            (offsets absolute in the file; documentCount: documents holding a term of the field; postingsCount:
//            Σ docFreq of its terms — equal when no document holds two, so that a range's count is the sum of its
//            terms' docFreqs, Lucene's single-valued shortcut)
//
// Lookup binary-searches the first keys (contiguous, compared in place), then scans one block's keys, reading
// only a header byte for the terms it passes, and decodes the one info it needs. Automaton walks step the DFA
// over each key's new bytes only and never decode the info of a term they reject.
//
// Format v1 (still read): blocks of 32 terms, each term prefixLength(VInt) suffixLength(VInt) suffix docFreq(VInt)
// postingsDelta(VInt) positionsDelta(VInt); a 16-byte index entry per block (blockOffset(u64) firstKeyOffset(u32)
// firstKeyLength(u32)) and the first keys; a 40-byte directory entry (fieldOrdinal(u32) termCount(u64)
// sectionOffset(u64) indexOffset(u64) blockCount(u32) keysOffset(u64)).

/// Constants of the term dictionary file.
package enum TermDictionaryFormat {
    /// Terms per block written by this build. Measured against 64: a lookup scans and sums half as much (about a
    /// quarter fewer instructions per lookup) and automaton walks cost the same, for a file 2% larger on movies,
    /// english-text and debian-packages and 8% on words (more first keys and block headers).
    package static let blockSize = 32
    package static let maximumBlockSize = 4096
    /// A length nibble of 15 means "15 plus a VInt that follows".
    package static let nibbleEscape = 15
    /// Bitpacked values are read with one unaligned 8-byte load, so a width stays ≤ 56 (shift ≤ 7).
    package static let maximumWidth = 56
    /// Bytes of a v2 directory entry.
    package static let directoryEntrySize = 48
    /// The version that introduced front-coded blocks with bitpacked infos.
    package static let blockedInfosVersion: UInt32 = 2

    /// Format v1: terms per block, bytes of a block index entry and of a directory entry.
    package static let v1BlockSize = 32
    package static let v1IndexEntrySize = 16
    package static let v1DirectoryEntrySize = 40
}
