// Field norms file (`<segment>.norms`), format v1. Little-endian. Legend: Docs/Formats/LEGEND.md
//
// | norms of field A: maxDoc × u8 | norms of field B: maxDoc × u8 | … |
// | directory: fieldCount(u32), then per field: fieldOrdinal(u32) normsOffset(u64) totalTokens(u64) |
// | directoryOffset(u64) | footer (16 bytes, kind "NORM") |
//
// One column per indexed field. A document without the field has norm 0. totalTokens is exact
// (not the sum of decoded norms) and is BM25's numerator for the average field length.

/// Constants of the field norms file.
package enum FieldNormsFormat {
    /// fieldOrdinal(u32) + normsOffset(u64) + totalTokens(u64).
    package static let directoryEntrySize = 20
}
