import LoupeCodec

/// The fast-field columns of a segment, each read in O(1) per value straight from the mapped file.
package struct ColumnarReader: Sendable {
    /// Keeps the mapping the columns point into alive.
    private let file: FileSlice
    private let columns: [Int: Column]

    /// Opens the file and validates every column's header and extent.
    /// - Throws: `FormatError` with the byte offset of the first inconsistency.
    package init(file: FileSlice, maxDoc: Int, schema: Schema, verifyChecksum: Bool) throws(FormatError) {
        let (body, directoryOffset, version) = unsafe try SegmentComponent.fast.versionedDirectory(
            file, verifyChecksum: verifyChecksum)
        var reader = unsafe ByteReader(body, offset: directoryOffset)
        var columns: [Int: Column] = [:]
        for _ in 0..<Int(try reader.readU32()) {
            let field = Int(try reader.readU32())
            let offset = Int(clamping: try reader.readU64())
            let length = Int(clamping: try reader.readU64())
            guard offset <= directoryOffset, length <= directoryOffset - offset else {
                throw .malformed(
                    offset: reader.offset - 20, reason: "fast column of field \(field) runs past the directory")
            }
            let bytes = unsafe UnsafeRawBufferPointer(rebasing: body[offset..<(offset + length)])
            if version >= 2 {
                columns[field] = unsafe try Column(bytes, maxDoc: maxDoc, fileOffset: offset)
            } else {
                guard field < schema.fields.count, schema.fields[field].type.isNumeric else {
                    throw .malformed(
                        offset: reader.offset - 20, reason: "v1 fast column of field \(field), not a numeric field")
                }
                columns[field] = unsafe try Column(
                    v1: bytes, kind: ColumnKind(schema.fields[field].type), maxDoc: maxDoc, fileOffset: offset)
            }
        }
        self.file = file
        self.columns = columns
    }

    /// The column of schema field `field`, nil when the segment has none.
    package func column(_ field: Int) -> Column? { columns[field] }
}

extension Column {
    /// A column of format v1 (ColumnarFormat.swift): bitpacked values, with bitpacked offsets when not one value per
    /// document.
    init(v1 bytes: UnsafeRawBufferPointer, kind: ColumnKind, maxDoc: Int, fileOffset: Int) throws(FormatError) {
        var reader = unsafe ByteReader(bytes)
        let cardinality = try reader.readU8()
        let minValue = try reader.readU64()
        let gcd = try reader.readU64()
        let valueWidth = Int(try reader.readU8())
        let valueCount = Int(clamping: try reader.readU64())
        let offsetWidth = Int(try reader.readU8())
        let single = cardinality == 0
        guard cardinality <= 1, valueWidth <= 64, offsetWidth <= 64, gcd > 0, !single || valueCount == maxDoc,
            let start = bytes.baseAddress
        else {
            throw .malformed(offset: fileOffset, reason: "fast column header is inconsistent")
        }
        let offsetsSize = single ? 0 : BitpackedArray.byteCount(count: maxDoc + 1, width: offsetWidth)
        let needed = reader.offset + offsetsSize + BitpackedArray.byteCount(count: valueCount, width: valueWidth)
        guard needed <= bytes.count else {
            throw .truncated(offset: fileOffset, needed: needed, available: bytes.count)
        }
        let offsets = unsafe start + reader.offset
        let values = unsafe NumericValues(
            bitpacked: offsets + offsetsSize, count: valueCount, min: minValue, gcd: gcd, width: valueWidth)
        let layout: Layout =
            single
            ? .full
            : .multi(
                offsets: unsafe NumericValues(bitpacked: offsets, count: maxDoc + 1, min: 0, gcd: 1, width: offsetWidth)
            )
        self.init(kind: kind, layout: layout, values: values, dictionary: nil, byteCount: bytes.count)
    }
}
