import LoupeCodec

/// Writes the field norms file (format v2) from the in-memory per-field columns.
package enum FieldNormsSerializer {
    /// - Parameters:
    ///   - columns: per indexed field, its ordinal, one code per document (`maxDoc` long) and the exact token total.
    ///   - widths: the widths to choose from (tests write every width the format allows); each column is packed at
    ///     the smallest that holds its codes minus the smallest, or at 8 bits.
    ///   - out: the file, finished here.
    /// - Throws: the `StorageError` of a write, the fsync or the rename.
    package static func write(
        _ columns: [(field: Int, norms: [UInt8], totalTokens: UInt64)],
        widths: [UInt8] = FieldNormsFormat.writtenWidths,
        to out: consuming FileWriter
    ) throws(StorageError) {
        var placed: [(offset: UInt64, width: UInt8, base: UInt8)] = []
        for column in columns {
            let low = column.norms.min() ?? 0
            let high = column.norms.max() ?? 0
            let width = widths.first { $0 == 8 || Int(high - low) < 1 << Int($0) } ?? 8
            let base = width == 8 ? 0 : low
            placed.append((UInt64(out.count), width, base))
            pack(column.norms, minus: base, width: Int(width), into: &out)
        }
        let directoryOffset = UInt64(out.count)
        out.writeU32(UInt32(columns.count))
        for (column, place) in zip(columns, placed) {
            out.writeU32(UInt32(column.field))
            out.writeU64(column.totalTokens)
            out.writeU64(place.offset)
            out.writeU8(place.width)
            out.writeU8(place.base)
        }
        out.writeU64(directoryOffset)
        out.writeFooter(kind: SegmentComponent.fieldNorms.kind, version: SegmentComponent.fieldNorms.formatVersion)
        try out.finish()
    }

    /// Appends `codes − base` at `width` bits each, least significant bits first.
    private static func pack(_ codes: [UInt8], minus base: UInt8, width: Int, into out: inout FileWriter) {
        guard width > 0 else { return }
        if width == 8 {
            out.writeBytes(codes)
            return
        }
        let perByte = 8 / width
        var i = 0
        while i < codes.count {
            var byte: UInt8 = 0
            for slot in 0..<min(perByte, codes.count - i) { byte |= (codes[i + slot] - base) << UInt8(slot * width) }
            out.writeU8(byte)
            i += perByte
        }
    }
}
