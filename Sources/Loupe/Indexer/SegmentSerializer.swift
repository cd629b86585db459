#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes an in-memory segment out as the six segment files.
package enum SegmentSerializer {
    /// The bytes of every component file of the segment.
    package static func serialize(_ writer: consuming SegmentWriter) -> [SegmentComponent: [UInt8]] {
        writer.closeAllDocuments()
        var files: [SegmentComponent: [UInt8]] = [:]

        var normColumns: [(field: Int, norms: [UInt8], totalTokens: UInt64)] = []
        for index in writer.fields {
            let codes =
                writer.schema.fields[index.field].type.isNumeric
                ? FieldNormCode.numericColumn(count: index.norms.count) : index.norms.map(FieldNormCode.encode)
            normColumns.append((index.field, codes, index.totalTokens))
        }
        files[.fieldNorms] = FieldNormsSerializer.serialize(normColumns)

        var dictionary = TermDictionaryWriter()
        var postings = PostingsSerializer(recordsFreqs: false)
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
        files[.terms] = dictionary.finish()
        let (postingsBytes, positionsBytes) = postings.finish()
        files[.postings] = postingsBytes
        files[.positions] = positionsBytes
        files[.store] = writer.store.finish()
        files[.fast] = writer.fast.serialize(maxDoc: Int(writer.maxDoc))
        return files
    }

    /// Term ids in byte order of their keys.
    private static func sortedTermIDs(_ terms: TermHashMap) -> [Int] {
        unsafe terms.keys.withUnsafeBufferPointer { keys in
            unsafe terms.keyStarts.withUnsafeBufferPointer { starts in
                (0..<terms.count).sorted { a, b in
                    let la = unsafe Int(starts[a + 1] - starts[a])
                    let lb = unsafe Int(starts[b + 1] - starts[b])
                    let n = min(la, lb)
                    if n > 0 {
                        let c = unsafe memcmp(keys.baseAddress! + Int(starts[a]), keys.baseAddress! + Int(starts[b]), n)
                        if c != 0 { return c < 0 }
                    }
                    return la < lb
                }
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
