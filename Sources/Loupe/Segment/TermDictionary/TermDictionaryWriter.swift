import LoupeCodec

/// Builds the term dictionary file from terms added in byte order, field by field.
package struct TermDictionaryWriter {
    private var out = ByteWriter(capacity: 1 << 16)
    private var directory: [(field: Int, terms: UInt64, section: UInt64, index: UInt64, blocks: UInt32, keys: UInt64)] = []
    private var field = -1
    private var sectionStart = 0
    private var termCount: UInt64 = 0
    private var blockStarts: [UInt64] = []
    private var firstKeys: [UInt8] = []
    private var firstKeyRanges: [(UInt32, UInt32)] = []
    private var previousKey: [UInt8] = []
    private var previousInfo = TermInfo(docFreq: 0, postingsOffset: 0, positionsOffset: 0)

    package init() {}

    package mutating func startField(_ ordinal: Int) {
        field = ordinal
        sectionStart = out.count
        termCount = 0
        blockStarts.removeAll(keepingCapacity: true)
        firstKeys.removeAll(keepingCapacity: true)
        firstKeyRanges.removeAll(keepingCapacity: true)
    }

    /// Adds the next term of the current field; keys must arrive strictly increasing.
    package mutating func add(_ key: UnsafeBufferPointer<UInt8>, _ info: TermInfo) {
        let startsBlock = termCount % UInt64(TermDictionaryFormat.blockSize) == 0
        var prefix = 0
        if startsBlock {
            blockStarts.append(UInt64(out.count - sectionStart))
            firstKeyRanges.append((UInt32(firstKeys.count), UInt32(key.count)))
            unsafe firstKeys.append(contentsOf: key)
            previousInfo = TermInfo(docFreq: 0, postingsOffset: 0, positionsOffset: 0)
        } else {
            let limit = min(key.count, previousKey.count)
            while unsafe prefix < limit && key[prefix] == previousKey[prefix] { prefix += 1 }
        }
        out.writeVInt(UInt64(prefix))
        out.writeVInt(UInt64(key.count - prefix))
        unsafe out.writeBytes(UnsafeBufferPointer(rebasing: key[prefix...]))
        out.writeVInt(UInt64(info.docFreq))
        out.writeVInt(info.postingsOffset - previousInfo.postingsOffset)
        out.writeVInt(info.positionsOffset &- previousInfo.positionsOffset)
        previousKey.removeAll(keepingCapacity: true)
        unsafe previousKey.append(contentsOf: key)
        previousInfo = info
        termCount += 1
    }

    package mutating func finishField() {
        let indexOffset = UInt64(out.count)
        for (start, key) in zip(blockStarts, firstKeyRanges) {
            out.writeU64(start)
            out.writeU32(key.0)
            out.writeU32(key.1)
        }
        let keysOffset = UInt64(out.count)
        out.writeBytes(firstKeys)
        directory.append((field, termCount, UInt64(sectionStart), indexOffset, UInt32(blockStarts.count), keysOffset))
    }

    package consuming func finish() -> [UInt8] {
        let directoryOffset = UInt64(out.count)
        out.writeU32(UInt32(directory.count))
        for entry in directory {
            out.writeU32(UInt32(entry.field))
            out.writeU64(entry.terms)
            out.writeU64(entry.section)
            out.writeU64(entry.index)
            out.writeU32(entry.blocks)
            out.writeU64(entry.keys)
        }
        out.writeU64(directoryOffset)
        Footer.append(kind: SegmentComponent.terms.kind, version: SegmentComponent.terms.formatVersion, to: &out)
        return out.bytes
    }
}
