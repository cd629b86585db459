import LoupeCodec
import Synchronization

/// Fetches stored documents: finds the block by binary search over the index, decompresses it (or takes it
/// from a small cache shared by all threads searching this segment) and decodes one document.
@safe
package final class DocStoreReader: @unchecked Sendable {
    private let file: FileSlice
    private let blocks: UnsafeRawBufferPointer
    private let indexBase: Int
    private let blockCount: Int
    package let docCount: Int
    private let cache = Mutex<[(block: Int, bytes: [UInt8])]>([])
    /// Decompressors reused across fetches; one per thread fetching at the same time.
    private let inflaters = Mutex<[Inflater]>([])

    package init(file: FileSlice, verifyChecksum: Bool) throws(FormatError) {
        let body = unsafe try Footer.validate(
            file.bytes, kind: SegmentComponent.store.kind, supportedVersion: SegmentComponent.store.formatVersion,
            verifyChecksum: verifyChecksum)
        guard body.count >= 12 else { throw .truncated(offset: 0, needed: 12, available: body.count) }
        let indexOffset = unsafe Int(clamping: body.loadU64LE(at: body.count - 8))
        docCount = unsafe Int(body.loadU32LE(at: body.count - 12))
        guard indexOffset <= body.count - 12, (body.count - 12 - indexOffset) % DocStoreFormat.indexEntrySize == 0 else {
            throw .malformed(offset: body.count - 8, reason: "store index offset \(indexOffset) is inconsistent")
        }
        blockCount = (body.count - 12 - indexOffset) / DocStoreFormat.indexEntrySize
        indexBase = indexOffset
        unsafe blocks = unsafe body
        self.file = file
        for b in 0..<blockCount {
            let e = indexBase + b * DocStoreFormat.indexEntrySize
            let offset = unsafe Int(clamping: body.loadU64LE(at: e + 4))
            guard unsafe offset + Int(body.loadU32LE(at: e + 12)) <= indexOffset else {
                throw .malformed(offset: e, reason: "store block \(b) runs past the data")
            }
        }
    }

    /// The stored values of `doc`, as (field ordinal, value) pairs in the order they were stored.
    /// - Throws: `FormatError` when the block does not decompress or decode.
    package func document(_ doc: DocID, schema: Schema) throws(FormatError) -> [(field: Int, value: PreparedDocument.Value)] {
        try StoredValueCoding.decode(documentBytes(doc, schema: schema), schema: schema)
    }

    /// The encoded stored values of `doc`: a slice of its (cached) decompressed block, checked to decode.
    /// - Throws: `FormatError` when the block does not decompress or the document does not decode.
    package func documentBytes(_ doc: DocID, schema: Schema) throws(FormatError) -> ArraySlice<UInt8> {
        guard Int(doc) < docCount else { throw .malformed(offset: 0, reason: "document \(doc) is not in the store") }
        let b = blockIndex(of: doc)
        let firstDoc = unsafe Int(blocks.loadU32LE(at: indexBase + b * DocStoreFormat.indexEntrySize))
        let local = Int(doc) - firstDoc
        let raw = try block(b, through: local)
        guard let range = unsafe raw.withUnsafeBytes({ unsafe Self.documentRange(in: $0, local: local) }),
            range.upperBound <= raw.count
        else { throw .malformed(offset: 0, reason: "store block \(b) lacks document \(doc)") }
        let slice = raw[range]
        try StoredValueCoding.validate(slice, schema: schema)
        return slice
    }

    /// Where document `local` of a block lies in the block's raw bytes, read from the block's header; nil when
    /// the header is not all there yet (or is damaged). The range may end past `bytes` if only a prefix is.
    private static func documentRange(in bytes: UnsafeRawBufferPointer, local: Int) -> Range<Int>? {
        guard bytes.count >= 4 else { return nil }
        let count = unsafe Int(bytes.loadU32LE(at: 0))
        let dataStart = 4 + 4 * count
        guard local < count, bytes.count >= dataStart else { return nil }
        let start = unsafe dataStart + (local == 0 ? 0 : Int(bytes.loadU32LE(at: 4 + 4 * (local - 1))))
        let end = unsafe dataStart + Int(bytes.loadU32LE(at: 4 + 4 * local))
        return start <= end ? start..<end : nil
    }

    /// The inflated bytes of block `b`, at least through document `local`: from the cache when it holds enough,
    /// otherwise inflating only up to that document's end.
    private func block(_ b: Int, through local: Int) throws(FormatError) -> [UInt8] {
        let covers = { (bytes: [UInt8]) -> Bool in
            unsafe bytes.withUnsafeBytes { unsafe Self.documentRange(in: $0, local: local) }.map { $0.upperBound <= bytes.count }
                ?? false
        }
        if let hit = cache.withLock({ $0.first(where: { $0.block == b })?.bytes }), covers(hit) { return hit }
        let out = unsafe try inflate(b) { soFar, rawLength in
            // The count, then the end offsets, then the document itself.
            guard soFar.count >= 4 else { return 4 }
            let count = unsafe Int(soFar.loadU32LE(at: 0))
            guard soFar.count >= 4 + 4 * count else { return 4 + 4 * count }
            return unsafe Self.documentRange(in: soFar, local: local)?.upperBound ?? rawLength
        }
        cache.withLock { cache in
            cache.removeAll { $0.block == b }
            if cache.count >= DocStoreFormat.cachedBlocks { cache.removeFirst() }
            cache.append((b, out))
        }
        return out
    }

    /// One compressed block: its documents and bytes, for copying it into a merged store.
    @safe package struct Block {
        package var index: Int
        package var firstDoc: Int
        package var documents: Int
        package var compressed: UnsafeRawBufferPointer
        package var rawLength: Int
    }

    /// Every block, in document order (views into the mapped file, valid while this reader lives).
    package var compressedBlocks: [Block] {
        (0..<blockCount).map { b in
            let block = entry(b)
            let next = b + 1 < blockCount ? entry(b + 1).firstDoc : docCount
            return unsafe Block(
                index: b, firstDoc: block.firstDoc, documents: max(0, next - block.firstDoc),
                compressed: UnsafeRawBufferPointer(rebasing: blocks[block.offset..<(block.offset + block.length)]),
                rawLength: block.rawLength)
        }
    }

    /// Block `b`'s index entry.
    private func entry(_ b: Int) -> (firstDoc: Int, offset: Int, length: Int, rawLength: Int) {
        let e = indexBase + b * DocStoreFormat.indexEntrySize
        return unsafe (
            Int(blocks.loadU32LE(at: e)), Int(clamping: blocks.loadU64LE(at: e + 4)), Int(blocks.loadU32LE(at: e + 12)),
            Int(blocks.loadU32LE(at: e + 16))
        )
    }

    /// Inflates block `b` with a pooled inflater, up to the length `needed` asks for given the bytes so far and the
    /// block's raw length.
    private func inflate(_ b: Int, needed: (UnsafeRawBufferPointer, Int) -> Int) throws(FormatError) -> [UInt8] {
        let block = entry(b)
        let inflater = inflaters.withLock { $0.popLast() } ?? Inflater()
        defer { inflaters.withLock { $0.append(inflater) } }
        return unsafe try inflater.decompressPrefix(
            UnsafeRawBufferPointer(rebasing: blocks[block.offset..<(block.offset + block.length)]),
            decompressedSize: block.rawLength
        ) { unsafe needed($0, block.rawLength) }
    }

    /// The encoded documents of block `b`, inflated once (for re-packing a block some of whose documents are
    /// dropped), each checked to decode.
    /// - Throws: `FormatError` when the block does not decompress or a document does not decode.
    package func documents(ofBlock b: Int, schema: Schema) throws(FormatError) -> [ArraySlice<UInt8>] {
        let raw = unsafe try inflate(b) { _, rawLength in rawLength }
        let offset = entry(b).offset
        let count = raw.count >= 4 ? unsafe raw.withUnsafeBytes { unsafe Int($0.loadU32LE(at: 0)) } : 0
        var out: [ArraySlice<UInt8>] = []
        for local in 0..<count {
            guard let range = unsafe raw.withUnsafeBytes({ unsafe Self.documentRange(in: $0, local: local) }),
                range.upperBound <= raw.count
            else { throw .malformed(offset: offset, reason: "store block \(b) lacks its document \(local)") }
            try StoredValueCoding.validate(raw[range], schema: schema)
            out.append(raw[range])
        }
        return out
    }

    private func blockIndex(of doc: DocID) -> Int {
        var lo = 0
        var hi = blockCount - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if unsafe blocks.loadU32LE(at: indexBase + mid * DocStoreFormat.indexEntrySize) <= doc { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

}
