#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes an in-memory segment out as the six segment files, each streamed through a `FileWriter` as it is
/// produced: the postings, positions and terms files term by term, then the store's compressed blocks (those its
/// `StoreSpill` has not written already), then the fast columns one by one. Beyond the segment writer itself,
/// memory holds one term's lists, one dictionary block and one fast column, plus a buffer per open file.
package enum SegmentSerializer {
    /// Writes the segment's files under its id (`SegmentWriter.id`). The segment is part of no commit until one
    /// lists it.
    /// - Parameter directory: the folder the writer was made to spill its store to, if it was.
    /// - Throws: `IndexError` `.io` naming the file that could not be written; files not finished are removed.
    package static func write(_ writer: consuming SegmentWriter, to directory: any Directory) throws(IndexError) {
        let id = writer.id
        do {
            try write(writer, id: id, directory: directory)
        } catch {
            throw IndexError(storage: error, segment: id)
        }
    }

    private static func write(
        _ writer: consuming SegmentWriter, id: SegmentID, directory: any Directory
    )
        throws(StorageError)
    {
        writer.closeAllDocuments()
        var normColumns: [(field: Int, norms: [UInt8], totalTokens: UInt64)] = []
        for index in writer.fields {
            let codes =
                writer.schema.fields[index.field].type.isNumeric
                ? FieldNormCode.numericColumn(count: index.norms.count) : index.norms.map(FieldNormCode.encode)
            normColumns.append((index.field, codes, index.totalTokens))
        }
        try FieldNormsSerializer.write(normColumns, to: directory.createFile(SegmentComponent.fieldNorms.fileName(id)))

        var dictionary = TermDictionaryWriter(try directory.createFile(SegmentComponent.terms.fileName(id)))
        var postings = PostingsSerializer(
            recordsFreqs: false, postings: try directory.createFile(SegmentComponent.postings.fileName(id)),
            positions: try directory.createFile(SegmentComponent.positions.fileName(id)))
        var docs: [UInt32] = []
        var tfs: [UInt32] = []
        var positions: [UInt32] = []
        for (slot, index) in writer.fields.enumerated() {
            dictionary.startField(index.field)
            postings.setField(recordsFreqs: index.record != .basic)
            let norms = normColumns[slot].norms
            for id in sortedTermIDs(index.terms) {
                decode(
                    index.states[id].stream, record: index.record, arena: writer.arena, docs: &docs, tfs: &tfs,
                    positions: &positions)
                let info = unsafe docs.withUnsafeBufferPointer { d in
                    unsafe tfs.withUnsafeBufferPointer { t in
                        unsafe positions.withUnsafeBufferPointer { p in
                            unsafe norms.withUnsafeBufferPointer { n in
                                unsafe postings.writeTerm(docs: d, tfs: t, positionDeltas: p, norms: n)
                            }
                        }
                    }
                }
                unsafe index.terms.keys.withUnsafeBufferPointer { keys in
                    let range = Int(index.terms.keyStarts[id])..<Int(index.terms.keyStarts[id + 1])
                    unsafe dictionary.add(UnsafeBufferPointer(rebasing: keys[range]), info)
                }
            }
            dictionary.finishField(documentCount: postings.fieldDocumentCount)
        }
        try dictionary.finish()
        try postings.finish()
        if let spill = writer.storeSpill {
            try spill.finish(writer.store)
        } else {
            try writer.store.finish(to: directory.createFile(SegmentComponent.store.fileName(id)))
        }
        try writer.fast.write(maxDoc: Int(writer.maxDoc), to: directory.createFile(SegmentComponent.fast.fileName(id)))
    }

    /// Term ids in byte order of their keys. Each id is sorted with its key's first 8 bytes as one big-endian
    /// integer (zero-padded), so most comparisons are one integer comparison; keys whose first 8 bytes agree are
    /// compared whole from the ninth byte on.
    private static func sortedTermIDs(_ terms: TermHashMap) -> [Int] {
        unsafe terms.keys.withUnsafeBufferPointer { keys in
            unsafe terms.keyStarts.withUnsafeBufferPointer { starts in
                var entries = (0..<terms.count).map { id in
                    let start = unsafe Int(starts[id])
                    let length = unsafe Int(starts[id + 1]) - start
                    var prefix: UInt64 = 0
                    for i in 0..<8 { prefix = prefix << 8 | UInt64(i < length ? unsafe keys[start + i] : 0) }
                    return (prefix: prefix, id: id)
                }
                entries.sort { a, b in
                    if a.prefix != b.prefix { return a.prefix < b.prefix }
                    let sa = unsafe Int(starts[a.id])
                    let sb = unsafe Int(starts[b.id])
                    let la = unsafe Int(starts[a.id + 1]) - sa
                    let lb = unsafe Int(starts[b.id + 1]) - sb
                    let n = min(la, lb) - 8
                    if n > 0 {
                        let c = unsafe memcmp(keys.baseAddress! + sa + 8, keys.baseAddress! + sb + 8, n)
                        if c != 0 { return c < 0 }
                    }
                    return la < lb
                }
                return entries.map(\.id)
            }
        }
    }

    /// Decodes one term's stream (see Indexer.swift) into documents, frequencies and position deltas.
    private static func decode(
        _ stream: ByteStreamArena.Stream, record: IndexRecordOption, arena: ByteStreamArena,
        docs: inout [UInt32], tfs: inout [UInt32], positions: inout [UInt32]
    ) {
        docs.removeAll(keepingCapacity: true)
        tfs.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
        var reader = ByteStreamArena.Reader(stream)
        var doc: UInt32 = 0
        while !reader.isAtEnd {
            doc += reader.readVInt(arena)
            docs.append(doc)
            switch record {
            case .basic:
                tfs.append(1)
            case .freq:
                tfs.append(reader.readVInt(arena))
            case .position:
                var tf: UInt32 = 0
                while true {
                    let v = reader.readVInt(arena)
                    if v == 0 { break }
                    positions.append(v - 1)
                    tf += 1
                }
                tfs.append(tf)
            }
        }
    }
}
