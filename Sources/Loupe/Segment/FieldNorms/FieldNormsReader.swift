import LoupeCodec

/// Reads norms straight from the mapped file: one byte load per document.
package struct FieldNormsReader: Sendable {
    /// One field's norms column.
    @safe
    package struct Column: @unchecked Sendable {
        /// `maxDoc` bytes; nil base when the segment is empty.
        package let codes: UnsafeRawBufferPointer
        package let totalTokens: UInt64

        /// The quantized norm of `doc`. `doc` must be < maxDoc (documents come from this segment's postings).
        @inline(__always) package func code(_ doc: DocID) -> UInt8 {
            unsafe codes.load(fromByteOffset: Int(doc), as: UInt8.self)
        }
    }

    private let file: FileSlice
    private let columns: [Int: Column]

    /// Validates the footer, the directory and that every column lies inside the file.
    package init(file: FileSlice, maxDoc: Int, verifyChecksum: Bool) throws(FormatError) {
        let (body, directoryOffset) = unsafe try SegmentComponent.fieldNorms.directory(file, verifyChecksum: verifyChecksum)
        var reader = unsafe ByteReader(body, offset: directoryOffset)
        let count = Int(try reader.readU32())
        var columns: [Int: Column] = [:]
        for _ in 0..<count {
            let field = Int(try reader.readU32())
            let offset = Int(clamping: try reader.readU64())
            let total = try reader.readU64()
            guard offset <= directoryOffset, maxDoc <= directoryOffset - offset else {
                throw .malformed(offset: reader.offset - 20, reason: "norms of field \(field) run past the directory")
            }
            columns[field] = unsafe Column(codes: UnsafeRawBufferPointer(rebasing: body[offset..<(offset + maxDoc)]), totalTokens: total)
        }
        self.file = file
        self.columns = columns
    }

    /// The column of an indexed field, nil if the field has no norms in this segment.
    package func column(_ field: Int) -> Column? { columns[field] }
}
