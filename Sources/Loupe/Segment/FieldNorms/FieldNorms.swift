// Field norms: one code per document per indexed field, the document's token count in that field quantized with
// Lucene's SmallFloat `intToByte4` table (the one tantivy uses), packed at 0, 1 or 2 bits when the column's codes
// allow (none for a constant column, such as every numeric field's), plus each field's exact total token count for
// BM25's average document length. Layout: FieldNormsFormat.swift, Docs/FORMAT.md §3.4.

/// Lucene's `SmallFloat.intToByte4` / `byte4ToInt` quantization of token counts to one byte.
///
/// Counts 0...40 are exact; above, each byte value covers a range whose width doubles every 8 steps
/// (42, 44 … 56, 60 … 88, 96 …), up to 2,013,265,944 for byte 255. Encoding takes the floor.
package enum FieldNormCode {
    /// 24 = 255 − intToInt4(Int32.max): the first codes are the counts themselves.
    private static let freeValues: UInt32 = 24

    /// Token count of each byte value: tantivy's `FIELD_NORMS_TABLE`.
    package static let table: [UInt32] = (0...255).map { decode(UInt32($0)) }

    private static func decode(_ b: UInt32) -> UInt32 {
        if b < freeValues { return b }
        let i = b - freeValues
        let bits = i & 0x07
        let shift = Int(i >> 3) - 1
        return freeValues + (shift == -1 ? bits : (bits | 0x08) << UInt32(shift))
    }

    /// The codes of a numeric field: 1 for every document, the constant norm tantivy scores numeric terms with
    /// (it keeps no norms for them), so a norms file spends no bytes on them.
    package static func numericColumn(count: Int) -> [UInt8] {
        [UInt8](repeating: 1, count: count)
    }

    /// The largest code whose count is ≤ `count`.
    package static func encode(_ count: UInt32) -> UInt8 {
        var lo = 0
        var hi = 255
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if table[mid] <= count { lo = mid } else { hi = mid - 1 }
        }
        return UInt8(lo)
    }
}
