import LoupeCodec

/// Merges segments into one, dropping deleted documents: a document keeps its place (segments in order, then
/// documents in order) and gets the next free id. Postings and positions are rewritten through a k-way merge of
/// the term dictionaries, norms by copying the live rows, fast columns by `ColumnarMerger`, and the store by copying every
/// compressed block without a deleted document as is (re-compressing those of older store formats) — so the result
/// is an ordinary segment, as if those documents had been indexed together. Every file streams to its `FileWriter`
/// as it is produced (`SegmentMerger+Write.swift`): postings term by term, the store block by block, fast fields
/// column by column, so a merge's memory does not grow with the size of its segments' files.
package struct SegmentMerger {
    let schema: Schema
    let segments: [SegmentReader]
    /// Per segment, each document's id in the merged segment, or -1 when deleted.
    package let newIDs: [[Int32]]
    package let maxDoc: Int

    package init(schema: Schema, segments: [SegmentReader]) {
        self.schema = schema
        self.segments = segments
        var next: Int32 = 0
        newIDs = segments.map { segment in
            (0..<DocID(segment.maxDoc)).map { doc in
                if segment.deleted?.contains(doc) == true { return -1 }
                defer { next += 1 }
                return next
            }
        }
        maxDoc = Int(next)
    }

    /// The live rows of every norms column (numeric fields get the constant code of the current format, whatever
    /// their inputs hold). A column's token total is exact when nothing is deleted; otherwise the deleted
    /// documents' quantized lengths are taken off.
    func mergedNorms() -> [(field: Int, norms: [UInt8], totalTokens: UInt64)] {
        var out: [(field: Int, norms: [UInt8], totalTokens: UInt64)] = []
        for field in schema.fields.indices where segments.contains(where: { $0.norms.column(field) != nil }) {
            var codes: [UInt8] = []
            codes.reserveCapacity(maxDoc)
            var total: UInt64 = 0
            for (s, segment) in segments.enumerated() {
                let column = segment.norms.column(field)
                var removed: UInt64 = 0
                for doc in 0..<DocID(segment.maxDoc) {
                    let code = column?.code(doc) ?? 0
                    if newIDs[s][Int(doc)] < 0 {
                        removed += UInt64(FieldNormCode.table[Int(code)])
                    } else {
                        codes.append(code)
                    }
                }
                total += (column?.totalTokens ?? 0) - min(removed, column?.totalTokens ?? 0)
            }
            let numeric = schema.fields[field].type.isNumeric
            out.append((field, numeric ? FieldNormCode.numericColumn(count: maxDoc) : codes, total))
        }
        return out
    }

    /// Writes the merged term dictionary, postings and positions files, term by term; finishes none of them.
    /// - Throws: `IndexError` `.corruption` naming an input's terms file when one of its blocks is damaged.
    func mergePostings(
        norms: [Int: [UInt8]], into dictionary: inout TermDictionaryWriter, _ serializer: inout PostingsSerializer
    ) throws(IndexError) {
        var docs: [UInt32] = []
        var tfs: [UInt32] = []
        var deltas: [UInt32] = []
        let noNorms = [UInt8](repeating: 0, count: maxDoc)
        for (field, entry) in schema.fields.enumerated()
        where segments.contains(where: { $0.terms.field(field) != nil }) {
            let hasFreqs = entry.record != .basic
            let hasPositions = entry.type == .text && entry.record == .position
            dictionary.startField(field)
            serializer.setField(recordsFreqs: hasFreqs)
            var cursors: [FieldTermDictionary.TermCursor?] = []
            for segment in segments {
                cursors.append(
                    try segment.readingTerms { (terms) throws(FormatError) in try terms.field(field)?.cursorAtFirst() })
            }
            let fieldNorms = norms[field] ?? noNorms
            while let key = Self.smallestKey(cursors) {
                docs.removeAll(keepingCapacity: true)
                tfs.removeAll(keepingCapacity: true)
                deltas.removeAll(keepingCapacity: true)
                for s in cursors.indices {
                    guard let cursor = cursors[s], cursor.isValid,
                        unsafe key.withUnsafeBytes({ unsafe cursor.compareKey(to: $0) }) == 0
                    else { continue }
                    append(
                        segment: s, info: cursor.info, hasFreqs: hasFreqs, hasPositions: hasPositions, &docs, &tfs,
                        &deltas)
                    _ = try segments[s].readingTerms { (_) throws(FormatError) in try cursors[s]?.next() }
                }
                guard !docs.isEmpty else { continue }
                let info = unsafe docs.withUnsafeBufferPointer { d in
                    unsafe tfs.withUnsafeBufferPointer { t in
                        unsafe deltas.withUnsafeBufferPointer { p in
                            unsafe fieldNorms.withUnsafeBufferPointer { n in
                                unsafe serializer.writeTerm(docs: d, tfs: t, positionDeltas: p, norms: n)
                            }
                        }
                    }
                }
                unsafe key.withUnsafeBufferPointer { unsafe dictionary.add($0, info) }
            }
            dictionary.finishField(documentCount: serializer.fieldDocumentCount)
        }
    }

    /// The smallest key among the valid cursors (compared in place; only the winner is copied).
    private static func smallestKey(_ cursors: [FieldTermDictionary.TermCursor?]) -> [UInt8]? {
        var best: Int?
        for (i, cursor) in cursors.enumerated() {
            guard let cursor, cursor.isValid else { continue }
            if let b = best, let leader = cursors[b] {
                let smaller = unsafe cursor.withKeyBytes { key in unsafe leader.compareKey(to: key) > 0 }
                if smaller { best = i }
            } else {
                best = i
            }
        }
        return best.flatMap { cursors[$0]?.keyBytes }
    }

    /// Appends one segment's live postings of a term, with ids remapped, to the merged term's lists.
    private func append(
        segment s: Int, info: TermInfo, hasFreqs: Bool, hasPositions: Bool, _ docs: inout [UInt32],
        _ tfs: inout [UInt32],
        _ deltas: inout [UInt32]
    ) {
        let segment = segments[s]
        let postings = unsafe PostingsCursor(
            file: segment.postings.bytes, info: info, hasFreqs: hasFreqs, maxDoc: segment.maxDoc)
        let positions = unsafe PositionsCursor(file: segment.positions.bytes, offset: info.positionsOffset)
        var buffer: [UInt32] = []
        var doc = postings.doc
        while doc != terminatedDoc {
            let id = newIDs[s][Int(doc)]
            if id >= 0 {
                let tf = postings.termFrequency
                docs.append(UInt32(id))
                tfs.append(tf)
                if hasPositions {
                    if buffer.count < Int(tf) { buffer = [UInt32](repeating: 0, count: Int(tf)) }
                    let read = unsafe buffer.withUnsafeMutableBufferPointer { out in
                        guard let start = out.baseAddress else { return false }
                        return unsafe positions.read(ordinal: postings.positionsBefore, count: Int(tf), into: start)
                    }
                    var previous: UInt32 = 0
                    for i in 0..<Int(tf) {
                        let position = read ? buffer[i] : previous
                        deltas.append(position - previous)
                        previous = position
                    }
                }
            }
            doc = postings.advance()
        }
    }

    /// Writes the merged document store to `file`, block by block, and finishes it: a block in this build's format
    /// with no deleted document is copied compressed, as is; the others (older formats included) give their live
    /// documents' encoded bytes to new blocks.
    /// - Throws: `IndexError` `.corruption` as `write(as:to:)`; the `StorageError` of the file as `.io`.
    func mergeStore(to file: consuming FileWriter, id: SegmentID) throws(IndexError) {
        var store = DocStoreWriter()
        for (s, segment) in segments.enumerated() {
            for block in segment.store.compressedBlocks {
                store.moveBlocks(to: &file)
                let docs = block.firstDoc..<(block.firstDoc + block.documents)
                if block.codec == DocStoreFormat.codec && docs.allSatisfy({ newIDs[s][$0] >= 0 }) {
                    store.append(compressedBlock: block)
                    continue
                }
                let encoded: [ArraySlice<UInt8>]
                do {
                    encoded = try segment.store.documents(ofBlock: block.index, schema: schema)
                } catch {
                    throw IndexError(
                        format: error, file: SegmentComponent.store.fileName(segment.id), segment: segment.id)
                }
                guard encoded.count == block.documents else {
                    throw IndexError(
                        .corruption,
                        "store block \(block.index) holds \(encoded.count) documents, its index says \(block.documents)",
                        context: .init(
                            file: SegmentComponent.store.fileName(segment.id), segment: segment.id.description))
                }
                for (local, document) in encoded.enumerated() where newIDs[s][block.firstDoc + local] >= 0 {
                    store.add(encoded: document)
                }
            }
        }
        do { try store.finish(to: file) } catch { throw IndexError(storage: error, segment: id) }
    }
}
