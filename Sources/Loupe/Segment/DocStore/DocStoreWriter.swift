import LoupeCodec

/// Appends documents to the store as they are indexed, compressing each block (LZ4, format v2) as soon as it
/// fills, so only compressed bytes wait in memory. A merge moves them to the file as it goes (`moveBlocks(to:)`),
/// so it holds one block and the block index, never the store; so does an indexing segment writer once they pass
/// `StoreSpill.threshold`.
package struct DocStoreWriter {
    private var compressed = ByteWriter(capacity: 1 << 16)
    /// Compressed bytes already moved to the file: `compressed` starts at this offset of it.
    private var movedCount = 0
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

    /// Compressed bytes not yet moved to the file.
    package var pendingCount: Int { compressed.count }

    /// Stores the stored-flagged values of the next document (document ids are consecutive from 0).
    package mutating func add(_ document: PreparedDocument, schema: Schema) {
        var count = 0
        for v in document.items where schema.fields[v.field].stored { count += 1 }
        data.writeVInt(UInt64(count))
        for v in document.items where schema.fields[v.field].stored {
            data.writeVInt(UInt64(v.field))
            switch v.value {
            case .bytes(let range): data.writeLengthPrefixed(document.bytes[range])
            case .mapped(let value):
                StoredValueCoding.write(.mapped(value), type: schema.fields[v.field].type, into: &data)
            }
        }
        ends.append(UInt32(data.count))
        docCount += 1
        if data.count >= blockTargetSize { closeBlock() }
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
        index.writeU64(UInt64(movedCount + compressed.count))
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
        index.writeU64(UInt64(movedCount + compressed.count))
        let start = compressed.count
        unsafe raw.bytes.withUnsafeBytes { unsafe compressor.compress($0, appendingTo: &compressed.bytes) }
        index.writeU32(UInt32(compressed.count - start))
        index.writeU32(UInt32(raw.count))
        blockFirstDoc = docCount
        ends.removeAll(keepingCapacity: true)
        data.removeAll()
    }

    /// Moves the compressed blocks closed so far to `out`, the store file this writer's `finish(to:)` ends.
    package mutating func moveBlocks(to out: inout FileWriter) {
        unsafe compressed.bytes.withUnsafeBytes { unsafe out.writeBytes($0) }
        movedCount += compressed.count
        compressed.removeAll()
    }

    /// Writes the rest of the store (the last block, the block index, the footer) to `out` and finishes it.
    /// - Parameter out: the file `moveBlocks(to:)` wrote to, if it was called.
    /// - Throws: the `StorageError` of a write, the fsync or the rename.
    package consuming func finish(to out: consuming FileWriter) throws(StorageError) {
        closeBlock()
        moveBlocks(to: &out)
        let indexOffset = UInt64(out.count)
        unsafe index.bytes.withUnsafeBytes { unsafe out.writeBytes($0) }
        out.writeU32(docCount)
        out.writeU64(indexOffset)
        out.writeFooter(kind: SegmentComponent.store.kind, version: SegmentComponent.store.formatVersion)
        try out.finish()
    }
}
