import LoupeCodec

/// Encodes one term's postings (and positions) at a time into the segment's postings and positions files.
///
/// The caller hands over a term's documents, frequencies and position deltas, already decoded from the
/// in-memory indexer, in increasing document order. Scratch buffers are reused from term to term; the two files
/// stream to their `FileWriter`s as they grow, so memory holds one term's lists, never a file.
package struct PostingsSerializer: ~Copyable {
    private var postings: FileWriter
    private var positions: FileWriter
    private var recordsFreqs: Bool
    private var block = [UInt32](repeating: 0, count: PostingsFormat.blockLength)
    private var blocks = ByteWriter(capacity: 1 << 12)
    /// The documents the current field's terms were written for, as bits, and how many.
    private var fieldDocuments: [UInt64] = []
    package private(set) var fieldDocumentCount = 0

    package init(recordsFreqs: Bool, postings: consuming FileWriter, positions: consuming FileWriter) {
        self.recordsFreqs = recordsFreqs
        self.postings = postings
        self.positions = positions
    }

    /// Starts a new field: the files continue, only the frequency mode changes.
    package mutating func setField(recordsFreqs: Bool) {
        self.recordsFreqs = recordsFreqs
        for i in fieldDocuments.indices { fieldDocuments[i] = 0 }
        fieldDocumentCount = 0
    }

    /// Appends one term's list.
    /// - Parameters:
    ///   - docs: increasing document ids (at least one).
    ///   - tfs: frequency of each document (ignored when the field records no freqs).
    ///   - positionDeltas: per document, its positions as deltas (first from 0); empty when positions are not recorded.
    ///   - norms: the field's norm code of each document of the segment, for the block-max bounds.
    package mutating func writeTerm(
        docs: UnsafeBufferPointer<UInt32>, tfs: UnsafeBufferPointer<UInt32>,
        positionDeltas: UnsafeBufferPointer<UInt32>,
        norms: UnsafeBufferPointer<UInt8>
    ) -> TermInfo {
        let info = TermInfo(
            docFreq: UInt32(docs.count), postingsOffset: UInt64(postings.count),
            positionsOffset: positionDeltas.isEmpty ? 0 : UInt64(positions.count))
        let words = (norms.count + 63) / 64
        if fieldDocuments.count < words {
            fieldDocuments += [UInt64](repeating: 0, count: words - fieldDocuments.count)
        }
        for i in docs.indices {
            let doc = unsafe docs[i]
            let (w, bit) = (Int(doc >> 6), UInt64(1) << UInt64(doc & 63))
            if fieldDocuments[w] & bit == 0 {
                fieldDocuments[w] |= bit
                fieldDocumentCount += 1
            }
        }
        let blockLength = PostingsFormat.blockLength
        let fullBlocks = docs.count / blockLength
        blocks.removeAll()
        var previous: Int64 = -1
        var positionsUpTo: UInt32 = 0
        for b in 0..<fullBlocks {
            let start = b * blockLength
            var minNorm: UInt8 = .max
            var maxTF: UInt32 = 0
            for i in 0..<blockLength {
                let doc = unsafe docs[start + i]
                block[i] = UInt32(Int64(doc) - previous - 1)
                previous = Int64(doc)
                minNorm = unsafe min(minNorm, norms[Int(doc)])
                maxTF = unsafe max(maxTF, recordsFreqs ? tfs[start + i] : 1)
            }
            let blockOffset = UInt32(blocks.count)
            let docBits = unsafe block.withUnsafeBufferPointer { unsafe BitPacker128.requiredWidth($0) }
            unsafe block.withUnsafeBufferPointer { unsafe BitPacker128.pack($0, width: docBits, into: &blocks) }
            var tfBits = 0
            if recordsFreqs {
                for i in 0..<blockLength { block[i] = unsafe tfs[start + i] - 1 }
                tfBits = unsafe block.withUnsafeBufferPointer { unsafe BitPacker128.requiredWidth($0) }
                unsafe block.withUnsafeBufferPointer { unsafe BitPacker128.pack($0, width: tfBits, into: &blocks) }
            }
            unsafe postings.writeU32(docs[start + blockLength - 1])
            postings.writeU32(blockOffset)
            if recordsFreqs {
                for i in 0..<blockLength { unsafe positionsUpTo &+= tfs[start + i] }
            }
            postings.writeU32(positionsUpTo)
            postings.writeU8(UInt8(docBits))
            postings.writeU8(UInt8(tfBits))
            postings.writeU8(minNorm)
            postings.writeU8(UInt8(min(maxTF, UInt32(PostingsFormat.saturatedTF))))
        }
        unsafe blocks.bytes.withUnsafeBytes { unsafe postings.writeBytes($0) }
        for i in (fullBlocks * blockLength)..<docs.count {
            unsafe postings.writeVInt(UInt64(Int64(docs[i]) - previous - 1))
            previous = unsafe Int64(docs[i])
        }
        if recordsFreqs {
            for i in (fullBlocks * blockLength)..<docs.count { unsafe postings.writeVInt(UInt64(tfs[i] - 1)) }
        }
        if !positionDeltas.isEmpty { unsafe writePositions(positionDeltas) }
        return info
    }

    private mutating func writePositions(_ deltas: UnsafeBufferPointer<UInt32>) {
        let blockLength = PositionsFormat.blockLength
        positions.writeVInt(UInt64(deltas.count))
        let full = deltas.count / blockLength
        for b in 0..<full {
            let chunk = unsafe UnsafeBufferPointer(rebasing: deltas[(b * blockLength)..<((b + 1) * blockLength)])
            let width = unsafe BitPacker128.requiredWidth(chunk)
            positions.writeU8(UInt8(width))
            positions.appending { out in unsafe BitPacker128.pack(chunk, width: width, into: &out) }
        }
        for i in (full * blockLength)..<deltas.count { unsafe positions.writeVInt(UInt64(deltas[i])) }
    }

    /// Ends both files with their footers and finishes them (durable, under their final names).
    /// - Throws: the `StorageError` of the first file that could not be written (its path names it).
    package consuming func finish() throws(StorageError) {
        postings.writeFooter(kind: SegmentComponent.postings.kind, version: SegmentComponent.postings.formatVersion)
        positions.writeFooter(
            kind: SegmentComponent.positions.kind, version: SegmentComponent.positions.formatVersion)
        try postings.finish()
        try positions.finish()
    }
}
