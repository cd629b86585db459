import LoupeCodec

extension DocStoreReader {
    /// One compressed block: its documents and bytes, for copying it into a merged store.
    @safe package struct Block {
        package var index: Int
        package var firstDoc: Int
        package var documents: Int
        package var compressed: UnsafeRawBufferPointer
        package var rawLength: Int
        package var codec: DocStoreFormat.Codec
    }

    /// Every block, in document order (views into the mapped file, valid while this reader lives).
    package var compressedBlocks: [Block] {
        (0..<blockCount).map { b in
            let block = entry(b)
            return unsafe Block(
                index: b, firstDoc: block.firstDoc, documents: block.documents, compressed: compressedBytes(block),
                rawLength: block.rawLength, codec: codec)
        }
    }

    /// The encoded documents of block `b`, decoded once without the cache (for merges re-packing a block and for
    /// `check`), each checked to decode.
    /// - Throws: `FormatError` when the block does not decompress or a document does not decode.
    package func documents(ofBlock b: Int, schema: Schema) throws(FormatError) -> [ArraySlice<UInt8>] {
        let block = entry(b)
        let decoded = try decode(b, block, through: nil, after: nil)
        var out: [ArraySlice<UInt8>] = []
        out.reserveCapacity(block.documents)
        for local in 0..<block.documents {
            switch locate(local, block, in: decoded.bytes) {
            case .document(let range):
                try validate(decoded.bytes[range], schema: schema, b, block, local)
                out.append(decoded.bytes[range])
            case .needs, .damaged:
                throw .malformed(offset: block.offset, reason: "store block \(b) lacks its document \(local)")
            }
        }
        return out
    }

    /// Block `b` decoded from the start through document `local` (all of it when nil). After a `previous` decode
    /// that fell short, the whole block is decoded: however its documents are fetched, a block is decoded at most
    /// twice (an LZ4 block resumes where `previous` stopped, so not even that).
    func decode(
        _ b: Int, _ block: Entry, through local: Int?, after previous: DocStoreCache.DecodedBlock?
    ) throws(FormatError) -> DocStoreCache.DecodedBlock {
        let target = previous == nil ? local : nil
        do {
            switch codec {
            case .lz4: return try decodeLZ4(block, through: target, after: previous)
            case .deflate: return try inflate(block, through: target)
            }
        } catch {
            switch error {
            case .decompression(let offset, let reason):
                throw .decompression(offset: block.offset + offset, reason: "store block \(b): \(reason)")
            default:
                throw error
            }
        }
    }

    private func compressedBytes(_ block: Entry) -> UnsafeRawBufferPointer {
        unsafe UnsafeRawBufferPointer(rebasing: body[block.offset..<(block.offset + block.compressedLength)])
    }

    /// Decodes into a fresh array of the block's raw length: it copies the bytes of `previous` and resumes where
    /// that stopped, then decodes until `local` is whole (or to the end).
    private func decodeLZ4(
        _ block: Entry, through local: Int?, after previous: DocStoreCache.DecodedBlock?
    ) throws(FormatError) -> DocStoreCache.DecodedBlock {
        let src = unsafe compressedBytes(block)
        var progress = LZ4.Progress.start
        var failure: FormatError?
        let bytes = unsafe [UInt8](unsafeUninitializedCapacity: block.rawLength) { buffer, initialized in
            let dst = unsafe UnsafeMutableRawBufferPointer(
                rebasing: UnsafeMutableRawBufferPointer(buffer)[..<block.rawLength])
            if let previous, let resume = previous.resume {
                unsafe previous.bytes.withUnsafeBytes { unsafe dst.copyMemory(from: $0) }
                progress = resume
            }
            do throws(FormatError) {
                if let local {
                    while case .needs(let n) = unsafe DocStoreFormat.locate(
                        local, count: block.documents, rawLength: block.rawLength, codec: .lz4,
                        in: UnsafeRawBufferPointer(rebasing: dst[..<progress.output])), !progress.isComplete
                    {
                        progress = unsafe try LZ4.decompress(src, into: dst, from: progress, atLeast: n)
                    }
                } else {
                    progress = unsafe try LZ4.decompress(src, into: dst, from: progress, atLeast: .max)
                }
                if progress.isComplete && progress.output != block.rawLength {
                    failure = .decompression(
                        offset: progress.input,
                        reason: "decodes to \(progress.output) bytes, its index entry says \(block.rawLength)")
                }
            } catch {
                failure = error
            }
            initialized = progress.output
        }
        if let failure { throw failure }
        return DocStoreCache.DecodedBlock(bytes: bytes, resume: progress.isComplete ? nil : progress)
    }

    /// Inflates a v1 block with a pooled inflater, stopping once document `local` is whole.
    private func inflate(_ block: Entry, through local: Int?) throws(FormatError) -> DocStoreCache.DecodedBlock {
        let inflater = inflaters.withLock { $0.popLast() } ?? Inflater()
        defer { inflaters.withLock { $0.append(inflater) } }
        let src = unsafe compressedBytes(block)
        let bytes = unsafe try inflater.decompressPrefix(src, decompressedSize: block.rawLength) { soFar in
            guard let local else { return block.rawLength }
            let location = unsafe DocStoreFormat.locate(
                local, count: block.documents, rawLength: block.rawLength, codec: .deflate, in: soFar)
            switch location {
            case .document(let range): return range.upperBound
            case .needs(let n): return n
            // The caller finds the damage again in what was inflated and reports it.
            case .damaged: return 0
            }
        }
        return DocStoreCache.DecodedBlock(bytes: bytes, resume: nil)
    }
}
