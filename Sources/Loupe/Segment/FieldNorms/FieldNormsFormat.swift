// Field norms file (`<segment>.norms`), format v2. Little-endian. Legend: Docs/Formats/LEGEND.md
//
// | packed codes of field A | packed codes of field B | … |
// | directory: fieldCount(u32), then per field (22 bytes):
// |   fieldOrdinal(u32) totalTokens(u64) codesOffset(u64) width(u8) baseCode(u8) |
// | directoryOffset(u64) | footer (16 bytes, kind "NORM", version 2) |
//
// One column per indexed field: maxDoc codes of `width` bits (0, 1, 2, 4 or 8; LSB first, so a code never
// straddles a byte), ceil(maxDoc × width / 8) bytes; document d's code is baseCode + packed[d]. Width 0 stores
// nothing: every document has baseCode. Width 8 has baseCode 0. totalTokens is exact (not the sum of decoded
// norms) and is BM25's numerator for the average field length. Numeric fields have the constant code 1, which is
// what tantivy scores them with (it keeps no norms for them); text and string fields keep their token counts.
//
// Format v1 (still read): every column maxDoc × u8, and a 20-byte directory entry fieldOrdinal(u32)
// normsOffset(u64) totalTokens(u64).

/// Constants of the field norms file.
package enum FieldNormsFormat {
    /// fieldOrdinal(u32) + totalTokens(u64) + codesOffset(u64) + width(u8) + baseCode(u8).
    package static let directoryEntrySize = 22
    /// The code widths a column may use: each divides 8, so a code is one shift and mask of one byte.
    package static let widths: [UInt8] = [0, 1, 2, 4, 8]
    /// The widths this build writes. Scoring reads a code per matching document, and a packed code costs a few
    /// instructions more than a whole byte (measured: a keyword term query 24% slower at width 4): packing is kept
    /// for the columns it shrinks by three quarters or more, constant ones first (keyword fields every document
    /// has once, numeric fields), and title-like text fields of a few tokens stay whole bytes.
    package static let writtenWidths: [UInt8] = [0, 1, 2, 8]
    /// The version that introduced packed columns.
    package static let packedVersion: UInt32 = 2
    /// Format v1: fieldOrdinal(u32) + normsOffset(u64) + totalTokens(u64).
    package static let v1DirectoryEntrySize = 20

    /// Bytes of a column of `count` codes at `width` bits.
    package static func byteCount(count: Int, width: Int) -> Int {
        (count * width + 7) / 8
    }
}
