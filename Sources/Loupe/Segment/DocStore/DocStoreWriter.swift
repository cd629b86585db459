import LoupeCodec

/// Appends documents to the store as they are indexed, compressing each 4 KiB block as soon as it fills,
/// so only compressed bytes wait in memory until the segment is flushed.
package struct DocStoreWriter {
    private var compressed = ByteWriter(capacity: 1 << 16)
    private var index = ByteWriter(capacity: 1 << 10)
    private var ends: [UInt32] = []
    private var data = ByteWriter(capacity: DocStoreFormat.blockTargetSize * 2)
    private var raw = ByteWriter(capacity: DocStoreFormat.blockTargetSize * 2 + 512)
    private var blockFirstDoc: UInt32 = 0
    private let deflater = Deflater(level: DocStoreFormat.compressionLevel)
    package private(set) var docCount: UInt32 = 0

    package init() {}

    /// Bytes held in memory, for the writer's budget.
    package var memoryUsage: Int { compressed.bytes.capacity + data.bytes.capacity + raw.bytes.capacity + index.count }

    /// Stores the stored-flagged values of the next document (document ids are consecutive from 0).
    package mutating func add(_ document: PreparedDocument, schema: Schema) {
        var count = 0
        for v in document.values where schema.fields[v.field].stored { count += 1 }
        data.writeVInt(UInt64(count))
        for v in document.values where schema.fields[v.field].stored {
            data.writeVInt(UInt64(v.field))
            StoredValueCoding.write(v.value, type: schema.fields[v.field].type, into: &data)
        }
        ends.append(UInt32(data.count))
        docCount += 1
        if data.count >= DocStoreFormat.blockTargetSize { closeBlock() }
    }

    /// Stores the next document as already-encoded values (a document's bytes from another store of the same
    /// schema).
    package mutating func add(encoded document: ArraySlice<UInt8>) {
        unsafe document.withUnsafeBytes { unsafe data.writeBytes($0) }
        ends.append(UInt32(data.count))
        docCount += 1
        if data.count >= DocStoreFormat.blockTargetSize { closeBlock() }
    }

    /// Appends a compressed block of another store as is (its documents become the next `documents` ids); the
    /// block being filled is closed first.
    package mutating func append(compressedBlock block: UnsafeRawBufferPointer, documents: Int, rawLength: Int) {
        closeBlock()
        index.writeU32(docCount)
        index.writeU64(UInt64(compressed.count))
        index.writeU32(UInt32(block.count))
        index.writeU32(UInt32(rawLength))
        unsafe compressed.writeBytes(block)
        docCount += UInt32(documents)
        blockFirstDoc = docCount
    }

    private mutating func closeBlock() {
        guard !ends.isEmpty else { return }
        raw.removeAll()
        raw.writeU32(UInt32(ends.count))
        for end in ends { raw.writeU32(end) }
        unsafe data.bytes.withUnsafeBytes { unsafe raw.writeBytes($0) }
        let block = unsafe raw.bytes.withUnsafeBytes { unsafe deflater.compress($0) }
        index.writeU32(blockFirstDoc)
        index.writeU64(UInt64(compressed.count))
        index.writeU32(UInt32(block.count))
        index.writeU32(UInt32(raw.count))
        compressed.writeBytes(block)
        blockFirstDoc = docCount
        ends.removeAll(keepingCapacity: true)
        data.removeAll()
    }

    package consuming func finish() -> [UInt8] {
        closeBlock()
        let indexOffset = UInt64(compressed.count)
        unsafe index.bytes.withUnsafeBytes { unsafe compressed.writeBytes($0) }
        compressed.writeU32(docCount)
        compressed.writeU64(indexOffset)
        Footer.append(kind: SegmentComponent.store.kind, version: SegmentComponent.store.formatVersion, to: &compressed)
        return compressed.bytes
    }
}
