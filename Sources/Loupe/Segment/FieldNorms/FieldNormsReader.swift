import LoupeCodec

/// Reads norms straight from the mapped file (format v1 or v2, by the footer's version): one byte load per
/// document, a shift and a mask when codes are packed.
package struct FieldNormsReader: Sendable {
    /// One field's norms column.
    @safe
    package struct Column: @unchecked Sendable {
        // @unchecked: `base` views the read-only mapping the reader's `FileSlice` keeps alive.
        /// The packed codes; for a column of width 0, any readable byte (the mask ignores it).
        private let base: UnsafeRawPointer
        /// Documents in the column (the segment's maxDoc).
        private let count: Int
        /// `count` when every code is a whole byte, else 0: one comparison then both bounds-checks a document and
        /// picks the byte path.
        private let wholeBytes: Int
        /// log2 of the codes per byte (0 when a code takes a byte; 63 for width 0, so every document reads byte 0).
        private let docShift: Int
        /// Codes per byte minus one.
        private let slotMask: Int
        /// log2 of the width in bits.
        private let widthShift: Int
        private let mask: UInt8
        private let baseCode: UInt8
        package let totalTokens: UInt64
        /// Bytes the column takes in the file.
        package let byteCount: Int

        fileprivate init(base: UnsafeRawPointer, count: Int, width: UInt8, baseCode: UInt8, totalTokens: UInt64) {
            unsafe self.base = base
            self.count = count
            wholeBytes = width == 8 ? count : 0
            byteCount = FieldNormsFormat.byteCount(count: count, width: Int(width))
            let widthShift = width.trailingZeroBitCount
            self.widthShift = width == 0 ? 0 : widthShift
            docShift = width == 0 ? 63 : 3 - widthShift
            slotMask = width == 0 ? 0 : (8 >> widthShift) - 1
            mask = width == 0 ? 0 : UInt8(truncatingIfNeeded: (1 << Int(width)) - 1)
            self.baseCode = baseCode
            self.totalTokens = totalTokens
        }

        /// The quantized norm of `doc`; for a document past the column (one a damaged postings list names), 0, or the
        /// constant of a constant column.
        ///
        /// Whole-byte columns (text fields) take the first branch, constant ones (keyword fields with one value
        /// everywhere, numeric fields) the next: a scoring loop predicts either every time.
        @inline(__always) package func code(_ doc: DocID) -> UInt8 {
            let d = Int(doc)
            if d < wholeBytes { return unsafe base.load(fromByteOffset: d, as: UInt8.self) }
            // A constant column reads no memory, so it needs no bounds check.
            if mask == 0 { return baseCode }
            guard d < count else { return 0 }
            let byte = unsafe base.load(fromByteOffset: d &>> docShift, as: UInt8.self)
            return baseCode &+ (byte &>> UInt8(truncatingIfNeeded: (d & slotMask) &<< widthShift)) & mask
        }
    }

    private let file: FileSlice
    private let columns: [Int: Column]

    /// Validates the footer, the directory and that every column lies inside the file.
    /// - Throws: `FormatError` with the offset of the first directory entry that does not fit.
    package init(file: FileSlice, maxDoc: Int, verifyChecksum: Bool) throws(FormatError) {
        let (body, directoryOffset, version) = unsafe try SegmentComponent.fieldNorms.versionedDirectory(
            file, verifyChecksum: verifyChecksum)
        guard let start = unsafe file.bytes.baseAddress else { throw .truncated(offset: 0, needed: 1, available: 0) }
        var reader = unsafe ByteReader(body, offset: directoryOffset)
        let count = Int(try reader.readU32())
        let packed = version >= FieldNormsFormat.packedVersion
        let entrySize = packed ? FieldNormsFormat.directoryEntrySize : FieldNormsFormat.v1DirectoryEntrySize
        guard count <= reader.remaining / entrySize else {
            throw .malformed(offset: directoryOffset, reason: "norms directory lists \(count) fields")
        }
        var columns: [Int: Column] = [:]
        for _ in 0..<count {
            let entry = reader.offset
            let field = Int(try reader.readU32())
            var offset: Int
            let total: UInt64
            var width: UInt8 = 8
            var baseCode: UInt8 = 0
            if packed {
                total = try reader.readU64()
                offset = Int(clamping: try reader.readU64())
                width = try reader.readU8()
                baseCode = try reader.readU8()
            } else {
                offset = Int(clamping: try reader.readU64())
                total = try reader.readU64()
            }
            guard FieldNormsFormat.widths.contains(width), width != 8 || baseCode == 0, offset <= directoryOffset,
                FieldNormsFormat.byteCount(count: maxDoc, width: Int(width)) <= directoryOffset - offset
            else {
                throw .malformed(offset: entry, reason: "norms of field \(field) do not fit before the directory")
            }
            if width == 0 { offset = 0 }
            columns[field] = unsafe Column(
                base: start + offset, count: maxDoc, width: width, baseCode: baseCode, totalTokens: total)
        }
        self.file = file
        self.columns = columns
    }

    /// The column of an indexed field, nil if the field has no norms in this segment.
    package func column(_ field: Int) -> Column? { columns[field] }
}
