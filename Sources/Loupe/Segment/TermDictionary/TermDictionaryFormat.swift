// Term dictionary file (`<segment>.terms`), format v1. Little-endian. Legend: Docs/Formats/LEGEND.md
//
// | section of field A | section of field B | … | directory | directoryOffset(u64) | footer (kind "TERM") |
//
// section: the field's terms in byte order, in blocks of up to 32, then the block index:
//   | block 0 | … | block n-1 | index: n × (blockOffset(u64) firstKeyOffset(u32) firstKeyLength(u32)) | first keys |
//   block: per term: prefixLength(VInt) suffixLength(VInt) suffix(bytes) docFreq(VInt)
//          postingsDelta(VInt) positionsDelta(VInt)
//   Keys are front-coded against the previous key of the same block (the first has prefixLength 0); offsets
//   are deltas from the previous term's (the first term's from 0), so a block decodes on its own.
//   blockOffset is relative to the section start; firstKeyOffset to the first-keys area.
// directory: fieldCount(u32), per field: fieldOrdinal(u32) termCount(u64) sectionOffset(u64) indexOffset(u64)
//            blockCount(u32) keysOffset(u64)   (offsets absolute in the file)
//
// Lookup binary-searches the first keys, then scans one block. Ordered iteration starts at any key the same
// way, which is what prefix/range scans and automaton intersection (seek to the next candidate key) need.

/// Constants of the term dictionary file.
package enum TermDictionaryFormat {
    /// Terms per block: small enough that a lookup decodes little, large enough that front coding pays.
    package static let blockSize = 32
    package static let indexEntrySize = 16
}
