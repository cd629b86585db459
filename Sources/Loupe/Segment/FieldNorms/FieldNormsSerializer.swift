import LoupeCodec

/// Writes the field norms file from the in-memory per-field columns.
package enum FieldNormsSerializer {
    /// - Parameter columns: per indexed field, its ordinal, one code per document (`maxDoc` long) and the exact token total.
    package static func serialize(_ columns: [(field: Int, norms: [UInt8], totalTokens: UInt64)]) -> [UInt8] {
        var out = ByteWriter(capacity: columns.reduce(64) { $0 + $1.norms.count + FieldNormsFormat.directoryEntrySize })
        var offsets: [UInt64] = []
        for column in columns {
            offsets.append(UInt64(out.count))
            out.writeBytes(column.norms)
        }
        let directoryOffset = UInt64(out.count)
        out.writeU32(UInt32(columns.count))
        for (column, offset) in zip(columns, offsets) {
            out.writeU32(UInt32(column.field))
            out.writeU64(offset)
            out.writeU64(column.totalTokens)
        }
        out.writeU64(directoryOffset)
        Footer.append(kind: SegmentComponent.fieldNorms.kind, version: SegmentComponent.fieldNorms.formatVersion, to: &out)
        return out.bytes
    }
}
