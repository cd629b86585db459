import LoupeCodec

/// Serializes a segment's deleted documents.
package enum DeletedDocsWriter {
    /// The file holding `deleted` (document ids below `maxDoc`).
    package static func serialize(_ deleted: DocBitSet) -> [UInt8] {
        var out = ByteWriter()
        out.writeU32(UInt32(deleted.maxDoc))
        out.writeU32(UInt32(deleted.count))
        for word in deleted.words { out.writeU64(word) }
        Footer.append(kind: DeletedDocsFormat.kind, version: DeletedDocsFormat.version, to: &out)
        return out.bytes
    }
}
