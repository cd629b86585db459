import LoupeCodec

/// A segment's deleted documents, read straight from the mapped file: one bit test per document.
@safe
package struct DeletedDocs: @unchecked Sendable {
    // @unchecked: `words` views the read-only mapping `file` keeps alive.
    /// Keeps the mapping alive.
    private let file: FileSlice
    private let words: UnsafeRawBufferPointer
    package let count: Int

    /// Validates the footer (and checksum when asked) and that the bitset covers `maxDoc` documents.
    package init(file: FileSlice, maxDoc: Int, verifyChecksum: Bool) throws(FormatError) {
        let body = unsafe try Footer.validate(
            file.bytes, kind: DeletedDocsFormat.kind, supportedVersion: DeletedDocsFormat.version,
            verifyChecksum: verifyChecksum)
        var reader = unsafe ByteReader(body)
        let storedMaxDoc = Int(try reader.readU32())
        let count = Int(try reader.readU32())
        let wordCount = (maxDoc + 63) / 64
        guard storedMaxDoc == maxDoc, count <= maxDoc, body.count == DeletedDocsFormat.headerSize + wordCount * 8 else {
            throw .malformed(offset: 0, reason: "deleted-documents file does not fit a segment of \(maxDoc) documents")
        }
        self.file = file
        unsafe words = unsafe UnsafeRawBufferPointer(rebasing: body[DeletedDocsFormat.headerSize...])
        self.count = count
    }

    /// Whether `doc` is deleted.
    @inline(__always) package func contains(_ doc: DocID) -> Bool {
        unsafe words.loadU64LE(at: Int(doc >> 6) << 3) & (1 << UInt64(doc & 63)) != 0
    }

    /// The 64 deletion bits of documents `64 × index ..< 64 × (index + 1)`.
    @inline(__always) package func word(_ index: Int) -> UInt64 {
        unsafe index << 3 < words.count ? words.loadU64LE(at: index << 3) : 0
    }

    /// Every deleted document as a bit set.
    package func bitSet(maxDoc: Int) -> DocBitSet {
        var bits = DocBitSet(maxDoc: maxDoc)
        for w in 0..<((maxDoc + 63) / 64) { bits.words[w] = word(w) }
        return bits
    }
}
