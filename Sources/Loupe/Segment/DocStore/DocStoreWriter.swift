import LoupeCodec

/// Appends documents to the store as they are indexed, compressing each block (LZ4, format v2) as soon as it
/// fills, so only compressed bytes wait in memory until the segment is flushed.
package struct DocStoreWriter {
    private var compressed = ByteWriter(capacity: 1 << 16)
    private var index = ByteWriter(capacity: 1 << 10)
    private var ends: [UInt32] = []
    private var data: ByteWriter
    private var raw: ByteWriter
    private var blockFirstDoc: UInt32 = 0
    private var compressor = LZ4Compressor()
    private let blockTargetSize: Int
    package private(set) var docCount: UInt32 = 0

    /// - Parameter blockTargetSize: document bytes after which a block closes (tests make small blocks).
    package init(blockTargetSize: Int = DocStoreFormat.blockTargetSize) {
        self.blockTargetSize = blockTargetSize
        data = ByteWriter(capacity: blockTargetSize * 2)
        raw = ByteWriter(capacity: blockTargetSize * 2 + 1024)
    }

    /// Bytes held in memory, for the writer's budget.
    package var memoryUsage: Int {
        compressed.bytes.capacity + data.bytes.capacity + raw.bytes.capacity + index.count + ends.capacity * 4
            + LZ4Compressor.memoryUsage
    }

    /// Stores the stored-flagged values of the next document (document ids are consecutive from 0).
    /// - Throws: `IndexError` `.limitExceeded` (`.storedDocumentBytes`) when they encode to more than
    ///   `limits.storedDocumentBytes`; the store is then as it was before the call.
    package mutating func add(
        _ document: PreparedDocument, schema: Schema, limits: IndexLimits = .default
    ) throws(IndexError) {
        let start = data.count
        var count = 0
        for v in document.values where schema.fields[v.field].stored { count += 1 }
        data.writeVInt(UInt64(count))
        for v in document.values where schema.fields[v.field].stored {
            data.writeVInt(UInt64(v.field))
            StoredValueCoding.write(v.value, type: schema.fields[v.field].type, into: &data)
        }
        guard data.count - start <= limits.storedDocumentBytes else {
            let size = data.count - start
            data.bytes.removeSubrange(start...)
            throw limits.storedDocumentTooLarge(size, largestField: Self.largestStoredField(document, schema: schema))
        }
        ends.append(UInt32(data.count))
        docCount += 1
        if data.count >= blockTargetSize { closeBlock() }
    }

    /// The stored field holding most of `document`'s stored bytes, for the error that names it.
    private static func largestStoredField(_ document: PreparedDocument, schema: Schema) -> String? {
        var bytes = [Int](repeating: 0, count: schema.fields.count)
        for v in document.values where schema.fields[v.field].stored {
            if case .bytes(let value) = v.value { bytes[v.field] += value.count } else { bytes[v.field] += 8 }
        }
        return bytes.indices.max { bytes[$0] < bytes[$1] }.map { schema.fields[$0].name }
    }

    /// Stores the next document as already-encoded values (a document's bytes from another store of the same
    /// schema).
    package mutating func add(encoded document: ArraySlice<UInt8>) {
        unsafe document.withUnsafeBytes { unsafe data.writeBytes($0) }
        ends.append(UInt32(data.count))
        docCount += 1
        if data.count >= blockTargetSize { closeBlock() }
    }

    /// Appends a compressed block of another store as is (its documents become the next `documents` ids); the
    /// block being filled is closed first.
    /// - Precondition: the block is in this writer's format (`DocStoreFormat.codec`): merges re-pack older blocks.
    package mutating func append(compressedBlock block: DocStoreReader.Block) {
        precondition(block.codec == DocStoreFormat.codec, "a store block of another format cannot be copied")
        closeBlock()
        index.writeU32(docCount)
        index.writeU64(UInt64(compressed.count))
        index.writeU32(UInt32(unsafe block.compressed.count))
        index.writeU32(UInt32(block.rawLength))
        unsafe compressed.writeBytes(block.compressed)
        docCount += UInt32(block.documents)
        blockFirstDoc = docCount
    }

    private mutating func closeBlock() {
        guard let dataLength = ends.last else { return }
        let width = dataLength < 1 << 8 ? 1 : dataLength < 1 << 16 ? 2 : dataLength < 1 << 24 ? 3 : 4
        raw.removeAll()
        raw.writeU8(UInt8(width))
        for k in 0..<width {
            let shift = UInt32(8 * k)
            for end in ends { raw.writeU8(UInt8(truncatingIfNeeded: end &>> shift)) }
        }
        unsafe data.bytes.withUnsafeBytes { unsafe raw.writeBytes($0) }
        index.writeU32(blockFirstDoc)
        index.writeU64(UInt64(compressed.count))
        let start = compressed.count
        unsafe raw.bytes.withUnsafeBytes { unsafe compressor.compress($0, appendingTo: &compressed.bytes) }
        index.writeU32(UInt32(compressed.count - start))
        index.writeU32(UInt32(raw.count))
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
