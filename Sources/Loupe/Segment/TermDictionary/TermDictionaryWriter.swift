import LoupeCodec

/// Builds the term dictionary file (format v2, see TermDictionaryFormat.swift) from terms added in byte order,
/// field by field. A block is buffered until it is full, then written: its keys, then its infos bitpacked. The file
/// streams to its `FileWriter`; memory holds one block and the current field's block index.
package struct TermDictionaryWriter: ~Copyable {
    private var out: FileWriter
    private var directory:
        [(
            field: Int, terms: UInt64, section: UInt64, index: UInt64, startWidth: UInt8, keyWidth: UInt8,
            documents: UInt64, postings: UInt64
        )] = []
    private let blockSize: Int
    private var field = -1
    private var sectionStart = 0
    private var termCount: UInt64 = 0
    /// Σ docFreq of the field's terms so far.
    private var postingsCount: UInt64 = 0
    /// Per finished block of the field: its start relative to the section, and the end of its first key.
    private var blockStarts: [UInt64] = []
    private var firstKeyEnds: [UInt64] = []
    private var firstKeys: [UInt8] = []
    /// The block being filled: keys of its terms after the first, and every term's info.
    private var keys = ByteWriter(capacity: 1 << 12)
    private var infos: [TermInfo] = []
    private var previousKey: [UInt8] = []
    /// Scratch for a block's three runs, reused from block to block.
    private var docFreqs: [UInt64] = []
    private var postingsGaps: [UInt64] = []
    private var positionsGaps: [UInt64] = []

    /// A writer with `blockSize` terms per block (tests use small blocks to cross block edges often).
    package init(_ out: consuming FileWriter, blockSize: Int = TermDictionaryFormat.blockSize) {
        precondition((1...TermDictionaryFormat.maximumBlockSize).contains(blockSize), "block size out of range")
        self.out = out
        self.blockSize = blockSize
    }

    package mutating func startField(_ ordinal: Int) {
        field = ordinal
        sectionStart = out.count
        termCount = 0
        postingsCount = 0
        blockStarts.removeAll(keepingCapacity: true)
        firstKeyEnds.removeAll(keepingCapacity: true)
        firstKeys.removeAll(keepingCapacity: true)
    }

    /// Adds the next term of the current field; keys must arrive strictly increasing.
    package mutating func add(_ key: UnsafeBufferPointer<UInt8>, _ info: TermInfo) {
        if infos.isEmpty {
            unsafe firstKeys.append(contentsOf: key)
            firstKeyEnds.append(UInt64(firstKeys.count))
        } else {
            var prefix = 0
            let limit = min(key.count, previousKey.count)
            while unsafe prefix < limit && key[prefix] == previousKey[prefix] { prefix += 1 }
            let suffix = key.count - prefix
            let escape = TermDictionaryFormat.nibbleEscape
            keys.writeU8(UInt8(min(prefix, escape) << 4 | min(suffix, escape)))
            if prefix >= escape { keys.writeVInt(UInt64(prefix - escape)) }
            if suffix >= escape { keys.writeVInt(UInt64(suffix - escape)) }
            unsafe keys.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: key[prefix...])))
        }
        previousKey.removeAll(keepingCapacity: true)
        unsafe previousKey.append(contentsOf: key)
        infos.append(info)
        termCount += 1
        postingsCount += UInt64(info.docFreq)
        if infos.count == blockSize { flushBlock() }
    }

    /// Writes the pending block: keys, then the infos as three frame-of-reference bitpacked runs.
    private mutating func flushBlock() {
        guard !infos.isEmpty else { return }
        blockStarts.append(UInt64(out.count - sectionStart))
        out.writeVInt(UInt64(keys.count))
        out.writeBytes(keys.bytes)
        docFreqs.removeAll(keepingCapacity: true)
        postingsGaps.removeAll(keepingCapacity: true)
        positionsGaps.removeAll(keepingCapacity: true)
        for (i, info) in infos.enumerated() {
            docFreqs.append(UInt64(info.docFreq))
            guard i > 0 else { continue }
            postingsGaps.append(info.postingsOffset &- infos[i - 1].postingsOffset)
            positionsGaps.append(info.positionsOffset &- infos[i - 1].positionsOffset)
        }
        let docFreqMin = docFreqs.min() ?? 0
        let postingsMin = postingsGaps.min() ?? 0
        let positionsMin = positionsGaps.min() ?? 0
        let docFreqWidth = Self.width(docFreqs, minus: docFreqMin)
        let postingsWidth = Self.width(postingsGaps, minus: postingsMin)
        let positionsWidth = Self.width(positionsGaps, minus: positionsMin)
        out.writeVInt(docFreqMin)
        out.writeU8(UInt8(docFreqWidth))
        out.writeVInt(infos[0].postingsOffset)
        out.writeVInt(postingsMin)
        out.writeU8(UInt8(postingsWidth))
        out.writeVInt(infos[0].positionsOffset)
        out.writeVInt(positionsMin)
        out.writeU8(UInt8(positionsWidth))
        Self.appendBits(docFreqs, minus: docFreqMin, width: docFreqWidth, to: &out)
        Self.appendBits(postingsGaps, minus: postingsMin, width: postingsWidth, to: &out)
        Self.appendBits(positionsGaps, minus: positionsMin, width: positionsWidth, to: &out)
        keys.removeAll()
        infos.removeAll(keepingCapacity: true)
    }

    private static func width(_ values: [UInt64], minus base: UInt64) -> Int {
        let width = BitpackedArray.requiredWidth(values.reduce(0) { max($0, $1 - base) })
        precondition(width <= TermDictionaryFormat.maximumWidth, "term info value too large to bitpack")
        return width
    }

    /// Appends `values − base` at `width` bits each, least significant bit first, padded to a whole byte.
    private static func appendBits(_ source: [UInt64], minus base: UInt64, width: Int, to out: inout FileWriter) {
        guard width > 0 else { return }
        var pending: UInt64 = 0
        var pendingBits = 0
        for value in source {
            let v = value - base
            pending |= v << UInt64(pendingBits)
            pendingBits += width
            while pendingBits >= 8 {
                out.writeU8(UInt8(truncatingIfNeeded: pending))
                pending >>= 8
                pendingBits -= 8
            }
            // `pending` holds under 8 bits here, so the next value (≤ 56 bits) fits beside them.
        }
        if pendingBits > 0 { out.writeU8(UInt8(truncatingIfNeeded: pending)) }
    }

    /// Ends the current field. `documentCount`: the documents holding at least one of its terms (with the sum of
    /// the terms' document frequencies it tells whether any document has two terms of the field).
    package mutating func finishField(documentCount: Int) {
        flushBlock()
        let indexOffset = out.count
        blockStarts.append(UInt64(indexOffset - sectionStart))
        let startWidth = BitpackedArray.requiredWidth(blockStarts.last ?? 0)
        let keyWidth = BitpackedArray.requiredWidth(UInt64(firstKeys.count))
        out.appending { BitpackedArray.write(blockStarts, width: startWidth, into: &$0) }
        out.appending { BitpackedArray.write([0] + firstKeyEnds, width: keyWidth, into: &$0) }
        out.writeBytes(firstKeys)
        directory.append(
            (
                field, termCount, UInt64(sectionStart), UInt64(indexOffset), UInt8(startWidth), UInt8(keyWidth),
                UInt64(documentCount), postingsCount
            ))
    }

    /// Writes the field directory and the footer, and finishes the file.
    /// - Throws: the `StorageError` of a write, the fsync or the rename.
    package consuming func finish() throws(StorageError) {
        let directoryOffset = UInt64(out.count)
        out.writeU32(UInt32(directory.count))
        for entry in directory {
            out.writeU32(UInt32(entry.field))
            out.writeU64(entry.terms)
            out.writeU64(entry.section)
            out.writeU64(entry.index)
            out.writeU16(UInt16(blockSize))
            out.writeU8(entry.startWidth)
            out.writeU8(entry.keyWidth)
            out.writeU64(entry.documents)
            out.writeU64(entry.postings)
        }
        out.writeU64(directoryOffset)
        out.writeFooter(kind: SegmentComponent.terms.kind, version: SegmentComponent.terms.formatVersion)
        try out.finish()
    }
}
