// Fast fields file (`<segment>.fast`), the columnar store of a segment. Little-endian. Legend:
// Docs/Formats/LEGEND.md; described in Docs/FORMAT.md §3.6.
//
// Format v2 (this build):
// | column of field A | column of field B | … | directory | directoryOffset(u64) | footer (kind "FAST", version 2) |
// directory: columnCount(u32), per column: fieldOrdinal(u32) offset(u64) length(u64), in field order
// column: Column.swift — kind, layout (full, optional, multi), values (NumericValues.swift: bitpacked, linear or
// blockwise linear, the smallest), the optional index (OptionalIndex.swift) and, for strings, the sorted dictionary
// (ColumnDictionary.swift).
//
// Format v1 (read only): the same directory; each column is
// | cardinality(u8) | min(u64) | gcd(u64) | valueWidth(u8) | valueCount(u64) | offsetWidth(u8) |
// | offsets: BitpackedArray of maxDoc+1 starts (cardinality 1 only) | values: BitpackedArray of (value − min) / gcd |
// cardinality 0: one value per document; 1: document d owns values offsets[d] ..< offsets[d+1]. Numbers only, so a
// v1 column's kind comes from the schema.
