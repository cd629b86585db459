// Positions file (`<segment>.positions`), format v1. Little-endian. Legend: Docs/Formats/LEGEND.md
//
// One stream per term of a field recording positions, at TermInfo.positionsOffset:
//
// | total(VInt) | block 0: width(u8) + BitPacker128 block (16·width bytes) | … | tail: VInt × (total mod 128) |
//
// The stream is every document's positions in document order, each document's as deltas from the
// previous position of that document (the first from 0). A document with tf = k owns the next k values;
// the postings' skip entries give Σ tf before each block, so a reader can jump to any document's positions
// by skipping whole 128-value blocks (reading only their width bytes).

/// Constants of the positions file.
package enum PositionsFormat {
    package static let blockLength = 128
}
