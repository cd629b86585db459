import LoupeCodec

/// Fetches stored documents: finds the block by binary search over the index, takes its decoded bytes from the
/// index's shared `DocStoreCache` or decodes it (only through the wanted document), and slices out one document.
///
/// Reads format v2 (LZ4) and v1 (deflate) stores, by the version in the footer. Every index entry is checked when
/// the store opens, so a lookup never leaves the file; a block's own header is checked as it is decoded.
@safe
package final class DocStoreReader: @unchecked Sendable {
    // @unchecked: `body` views the read-only mapping `file` keeps alive; the only mutable state, the inflater pool,
    // is behind a lock.
    /// One index entry, with the number of documents the next entry implies.
    package struct Entry {
        package var firstDoc: Int
        package var documents: Int
        package var offset: Int
        package var compressedLength: Int
        package var rawLength: Int
    }

    /// Owns the mapping `body` views.
    private let file: FileSlice
    let body: UnsafeRawBufferPointer
    private let indexBase: Int
    package let blockCount: Int
    package let docCount: Int
    package let codec: DocStoreFormat.Codec
    private let cache: DocStoreCache
    private let cacheStore: UInt64
    /// Decompressors reused across fetches of a v1 store; one per thread fetching at the same time.
    let inflaters = Locked<[Inflater]>([])

    /// Opens a store and validates its footer, trailer and every index entry.
    /// - Parameter cache: where decoded blocks are kept, shared with the index's other stores.
    /// - Throws: `FormatError` naming the byte offset of the first inconsistency.
    package init(file: FileSlice, verifyChecksum: Bool, cache: DocStoreCache) throws(FormatError) {
        let body = unsafe try Footer.validate(
            file.bytes, kind: SegmentComponent.store.kind, supportedVersion: SegmentComponent.store.formatVersion,
            verifyChecksum: verifyChecksum)
        let codec = DocStoreFormat.Codec(version: unsafe try Footer.read(file.bytes).formatVersion)
        let trailer = DocStoreFormat.trailerSize
        guard body.count >= trailer else { throw .truncated(offset: 0, needed: trailer, available: body.count) }
        let indexOffset = unsafe Int(clamping: body.loadU64LE(at: body.count - 8))
        let docCount = unsafe Int(body.loadU32LE(at: body.count - trailer))
        let entrySize = DocStoreFormat.indexEntrySize
        guard indexOffset <= body.count - trailer, (body.count - trailer - indexOffset) % entrySize == 0 else {
            throw .malformed(offset: body.count - 8, reason: "store index offset \(indexOffset) is inconsistent")
        }
        let blockCount = (body.count - trailer - indexOffset) / entrySize
        guard (blockCount == 0) == (docCount == 0) else {
            throw .malformed(
                offset: body.count - trailer, reason: "store of \(docCount) documents has \(blockCount) blocks")
        }
        unsafe self.body = unsafe body
        self.file = file
        self.indexBase = indexOffset
        self.blockCount = blockCount
        self.docCount = docCount
        self.codec = codec
        self.cache = cache
        cacheStore = cache.register()
        for b in 0..<blockCount { try validate(b, dataEnd: indexOffset) }
    }

    deinit {
        cache.removeAll(store: cacheStore)
    }

    /// Block `b`'s index entry.
    /// - Precondition: `b < blockCount`; the entry was validated at open.
    package func entry(_ b: Int) -> Entry {
        let e = indexBase + b * DocStoreFormat.indexEntrySize
        let firstDoc = unsafe Int(body.loadU32LE(at: e))
        let next = b + 1 < blockCount ? unsafe Int(body.loadU32LE(at: e + DocStoreFormat.indexEntrySize)) : docCount
        return unsafe Entry(
            firstDoc: firstDoc, documents: next - firstDoc,
            offset: Int(clamping: body.loadU64LE(at: e + DocStoreFormat.entryOffsetField)),
            compressedLength: Int(body.loadU32LE(at: e + DocStoreFormat.entryCompressedLengthField)),
            rawLength: Int(body.loadU32LE(at: e + DocStoreFormat.entryRawLengthField)))
    }

    /// Checks block `b`'s entry: documents rising strictly from 0 and below `docCount`, bytes inside the data, and
    /// a raw length the codec can reach from the compressed length that still holds the block's header.
    private func validate(_ b: Int, dataEnd: Int) throws(FormatError) {
        let e = indexBase + b * DocStoreFormat.indexEntrySize
        let block = entry(b)
        guard b > 0 || block.firstDoc == 0 else {
            throw .malformed(offset: e, reason: "store block 0 starts at document \(block.firstDoc), not 0")
        }
        guard block.documents > 0 else {
            let next = b + 1 < blockCount ? "block \(b + 1)'s first document" : "the document count \(docCount)"
            throw .malformed(
                offset: e, reason: "store block \(b) starts at document \(block.firstDoc), not before \(next)")
        }
        guard block.offset <= dataEnd, block.compressedLength <= dataEnd - block.offset else {
            throw .malformed(offset: e + DocStoreFormat.entryOffsetField, reason: "store block \(b) runs past the data")
        }
        let (smallest, largest) =
            switch codec {
            case .deflate: (4 + 4 * block.documents, block.compressedLength * Inflater.maxExpansion)
            case .lz4: (1 + block.documents, LZ4.maxDecompressedSize(block.compressedLength))
            }
        guard block.rawLength >= smallest, block.rawLength <= largest else {
            throw .malformed(
                offset: e + DocStoreFormat.entryRawLengthField,
                reason: "store block \(b) of \(block.documents) documents claims \(block.rawLength) raw bytes "
                    + "from \(block.compressedLength)")
        }
    }

    /// The stored values of `doc`, as (field ordinal, value) pairs in the order they were stored.
    /// - Throws: `FormatError` when the block does not decompress or decode.
    package func document(
        _ doc: DocID, schema: Schema
    ) throws(FormatError) -> [(field: Int, value: PreparedDocument.Value)] {
        try StoredValueCoding.decode(documentBytes(doc, schema: schema), schema: schema)
    }

    /// The encoded stored values of `doc`: a slice of its (cached) decoded block, checked to decode against
    /// `schema` the first time (the cache remembers it, so every call must pass the index's schema).
    /// - Throws: `FormatError` with the file offset of the block when it does not decompress or the document does
    ///   not decode.
    /// - Complexity: O(log blocks) once its block is cached and the document was fetched before; a first fetch also
    ///   walks the document's values, and a block not cached is decoded through the document.
    package func documentBytes(_ doc: DocID, schema: Schema) throws(FormatError) -> ArraySlice<UInt8> {
        guard Int(doc) < docCount else { throw .malformed(offset: 0, reason: "document \(doc) is not in the store") }
        let b = blockIndex(of: doc)
        let block = entry(b)
        let local = Int(doc) - block.firstDoc
        let key = DocStoreCache.Key(store: cacheStore, block: b)
        let cached = cache.block(key, document: local)
        if let cached, case .document(let range) = locate(local, block, in: cached.block.bytes) {
            let slice = cached.block.bytes[range]
            if !cached.validated {
                try validate(slice, schema: schema, b, block, local)
                cache.markValidated(key, document: local)
            }
            return slice
        }
        let decoded = try decode(b, block, through: local, after: cached?.block)
        switch locate(local, block, in: decoded.bytes) {
        case .document(let range):
            let slice = decoded.bytes[range]
            try validate(slice, schema: schema, b, block, local)
            cache.insert(decoded, documents: block.documents, validated: local, for: key)
            return slice
        case .needs(let n):
            throw .malformed(
                offset: block.offset,
                reason: "store block \(b) ends \(n - decoded.bytes.count) bytes before its document \(local)")
        case .damaged(let reason):
            throw .malformed(offset: block.offset, reason: "store block \(b) \(reason)")
        }
    }

    /// Checks that document `local` of block `b` decodes.
    func validate(
        _ document: ArraySlice<UInt8>, schema: Schema, _ b: Int, _ block: Entry, _ local: Int
    ) throws(FormatError) {
        do {
            try StoredValueCoding.validate(document, schema: schema)
        } catch {
            throw .malformed(offset: block.offset, reason: "store block \(b), document \(local): \(error)")
        }
    }

    func locate(_ local: Int, _ block: Entry, in bytes: [UInt8]) -> DocStoreFormat.Location {
        unsafe bytes.withUnsafeBytes { decoded in
            unsafe DocStoreFormat.locate(
                local, count: block.documents, rawLength: block.rawLength, codec: codec, in: decoded)
        }
    }

    private func blockIndex(of doc: DocID) -> Int {
        var lo = 0
        var hi = blockCount - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if unsafe body.loadU32LE(at: indexBase + mid * DocStoreFormat.indexEntrySize) <= doc {
                lo = mid
            } else {
                hi = mid - 1
            }
        }
        return lo
    }
}
