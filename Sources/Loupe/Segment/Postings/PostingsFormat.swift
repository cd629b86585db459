// Postings file (`<segment>.postings`), format v1. Little-endian. Legend: Docs/Formats/LEGEND.md
//
// One list per term, at the offset its TermInfo gives; docFreq (also in TermInfo) fixes its shape:
// n = docFreq / 128 full blocks, then a tail of docFreq % 128 documents.
//
// | skip entries: n × 16 bytes | full block 0 | … | full block n-1 | tail |
//
// skip entry (16 bytes):
//   lastDoc(u32)       last document of the block — seek() skips blocks by these
//   blockOffset(u32)   where the block starts, counted from the end of the skip entries
//   positionsUpTo(u32) Σ tf of the documents up to and including this block: where the next block's
//                      positions start in the term's positions stream
//   docBits(u8) tfBits(u8)  bit widths of the block's two bitpacked parts
//   minNorm(u8)        smallest field-norm code in the block   } block-max bound: BM25 grows with tf
//   maxTF(u8)          largest tf in the block, 255 = ≥ 255    } and shrinks with the norm
// full block: docGaps as a BitPacker128 block of docBits (16·docBits bytes),
//             then tf−1 as a BitPacker128 block of tfBits (absent when the field records no freqs)
// tail: docGap as VInt for each document, then tf−1 as VInt for each (absent without freqs)
//
// docGap = doc − previousDoc − 1, previousDoc starting at −1: strictly increasing ids make it ≥ 0.

/// Constants of the postings file.
package enum PostingsFormat {
    /// Documents per bitpacked block: tantivy's and Lucene ≤ 9's choice, the unit of SIMD unpacking and skipping.
    package static let blockLength = 128
    package static let skipEntrySize = 16
    /// Offsets of the fields inside a skip entry.
    package static let blockOffsetOffset = 4
    package static let positionsUpToOffset = 8
    package static let docBitsOffset = 12
    package static let tfBitsOffset = 13
    package static let minNormOffset = 14
    package static let maxTFOffset = 15
    /// maxTF saturates here; a saturated bound is treated as unbounded tf.
    package static let saturatedTF: UInt8 = 255
}

/// Where a term's data lives and how many documents hold it; stored in the term dictionary.
package struct TermInfo: Sendable, Equatable {
    package var docFreq: UInt32
    package var postingsOffset: UInt64
    /// Meaningful only for fields that record positions.
    package var positionsOffset: UInt64

    package init(docFreq: UInt32, postingsOffset: UInt64, positionsOffset: UInt64) {
        self.docFreq = docFreq
        self.postingsOffset = postingsOffset
        self.positionsOffset = positionsOffset
    }
}
