import LoupeCodec

/// The fast-field columns of a segment, read in O(1) per value straight from the mapped file.
package struct FastFieldsReader: Sendable {
    private let file: FileSlice
    private let columns: [Int: FastColumn]
    /// Bytes of each field's column.
    package let columnBytes: [Int: Int]

    package init(file: FileSlice, maxDoc: Int, verifyChecksum: Bool) throws(FormatError) {
        let (body, directoryOffset) = unsafe try SegmentComponent.fast.directory(file, verifyChecksum: verifyChecksum)
        var reader = unsafe ByteReader(body, offset: directoryOffset)
        var columns: [Int: FastColumn] = [:]
        var columnBytes: [Int: Int] = [:]
        for _ in 0..<Int(try reader.readU32()) {
            let field = Int(try reader.readU32())
            let offset = Int(clamping: try reader.readU64())
            let length = Int(clamping: try reader.readU64())
            guard offset <= directoryOffset, length <= directoryOffset - offset else {
                throw .malformed(offset: reader.offset - 20, reason: "fast column of field \(field) runs past the directory")
            }
            columnBytes[field] = length
            columns[field] = unsafe try FastColumn(
                bytes: UnsafeRawBufferPointer(rebasing: body[offset..<(offset + length)]), maxDoc: maxDoc, fileOffset: offset)
        }
        self.file = file
        self.columns = columns
        self.columnBytes = columnBytes
    }

    package func column(_ field: Int) -> FastColumn? { columns[field] }
}

/// One fast field: the mapped values of each document.
@safe
package struct FastColumn: @unchecked Sendable {
    private let base: UnsafeRawPointer
    private let single: Bool
    private let minValue: UInt64
    private let gcd: UInt64
    private let valueWidth: Int
    private let offsetWidth: Int
    private let valuesBase: UnsafeRawPointer
    package let valueCount: Int

    fileprivate init(bytes: UnsafeRawBufferPointer, maxDoc: Int, fileOffset: Int) throws(FormatError) {
        var reader = unsafe ByteReader(bytes)
        let cardinality = try reader.readU8()
        minValue = try reader.readU64()
        gcd = try reader.readU64()
        valueWidth = Int(try reader.readU8())
        valueCount = Int(clamping: try reader.readU64())
        offsetWidth = Int(try reader.readU8())
        single = cardinality == 0
        guard cardinality <= 1, valueWidth <= 64, offsetWidth <= 64, gcd > 0, !single || valueCount == maxDoc,
            let start = bytes.baseAddress
        else {
            throw .malformed(offset: fileOffset, reason: "fast column header is inconsistent")
        }
        let offsetsSize = single ? 0 : BitpackedArray.byteCount(count: maxDoc + 1, width: offsetWidth)
        let needed = reader.offset + offsetsSize + BitpackedArray.byteCount(count: valueCount, width: valueWidth)
        guard needed <= bytes.count else { throw .truncated(offset: fileOffset, needed: needed, available: bytes.count) }
        unsafe base = unsafe start + reader.offset
        unsafe valuesBase = unsafe base + offsetsSize
    }

    /// Indexes into the column's values owned by `doc`.
    @inline(__always) package func range(_ doc: DocID) -> Range<Int> {
        if single { return Int(doc)..<(Int(doc) + 1) }
        let lo = unsafe Int(BitpackedArray.get(base, width: offsetWidth, index: Int(doc)))
        let hi = unsafe Int(BitpackedArray.get(base, width: offsetWidth, index: Int(doc) + 1))
        return lo..<max(lo, min(hi, valueCount))
    }

    /// The mapped value at index `i` of the column.
    @inline(__always) package func value(at i: Int) -> UInt64 {
        unsafe minValue &+ BitpackedArray.get(valuesBase, width: valueWidth, index: i) &* gcd
    }

    /// The first value of `doc`, nil when it has none.
    package func first(_ doc: DocID) -> UInt64? {
        let r = range(doc)
        return r.isEmpty ? nil : value(at: r.lowerBound)
    }

    /// Every value of `doc`.
    package func values(_ doc: DocID) -> [UInt64] { range(doc).map(value(at:)) }
}
