// Fast fields file (`<segment>.fast`), format v1. Little-endian. Legend: Docs/Formats/LEGEND.md
//
// | column of field A | column of field B | … | directory | directoryOffset(u64) | footer (kind "FAST") |
// directory: columnCount(u32), per column: fieldOrdinal(u32) offset(u64) length(u64)
// column:
//   | cardinality(u8) | min(u64) | gcd(u64) | valueWidth(u8) | valueCount(u64) | offsetWidth(u8) |
//   | offsets: BitpackedArray of maxDoc+1 starts, offsetWidth bits (only when cardinality = 1) |
//   | values: BitpackedArray of valueCount × valueWidth bits, each (value − min) / gcd |
// cardinality 0: every document has exactly one value, value i belongs to document i (no offsets);
// cardinality 1: document d owns values offsets[d] ..< offsets[d+1] (zero for a missing value, several
// for a multi-valued field).
// Values are NumericMapping-mapped u64s, so one codec serves u64, i64, f64, bool and date, and the
// order of mapped values is the order of the originals (ranges scan columns directly).

