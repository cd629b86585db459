extension SegmentMerger {
    /// Writes the merged segment's files under `id`, each streamed as it is produced and finished (fsync'd and
    /// renamed) once complete, and returns its meta; writes nothing and returns nil when every input document is
    /// deleted. The segment is part of no commit until one lists it.
    /// - Throws: `IndexError` `.io` naming the file that could not be written (files not finished are removed),
    ///   `.corruption` when a block or a stored document of an input cannot be read.
    package func write(as id: SegmentID, to directory: any Directory) throws(IndexError) -> IndexMeta.SegmentMeta? {
        guard maxDoc > 0 else { return nil }
        let norms = mergedNorms()
        try storing(id) { () throws(StorageError) in
            try FieldNormsSerializer.write(norms, to: directory.createFile(SegmentComponent.fieldNorms.fileName(id)))
        }
        var dictionary = try storing(id) { () throws(StorageError) in
            TermDictionaryWriter(try directory.createFile(SegmentComponent.terms.fileName(id)))
        }
        var postings = try storing(id) { () throws(StorageError) in
            PostingsSerializer(
                recordsFreqs: false, postings: try directory.createFile(SegmentComponent.postings.fileName(id)),
                positions: try directory.createFile(SegmentComponent.positions.fileName(id)))
        }
        try mergePostings(
            norms: Dictionary(uniqueKeysWithValues: norms.map { ($0.field, $0.norms) }), into: &dictionary, &postings)
        try finish(dictionary, postings, id: id)
        let store = try storing(id) { () throws(StorageError) in
            try directory.createFile(SegmentComponent.store.fileName(id))
        }
        try mergeStore(to: store, id: id)
        try storing(id) { () throws(StorageError) in
            try ColumnarMerger.merge(
                schema: schema, segments: segments, newIDs: newIDs, maxDoc: maxDoc,
                to: directory.createFile(SegmentComponent.fast.fileName(id)))
        }
        return IndexMeta.SegmentMeta(id: id, maxDoc: maxDoc)
    }

    private func finish(
        _ dictionary: consuming TermDictionaryWriter, _ postings: consuming PostingsSerializer, id: SegmentID
    ) throws(IndexError) {
        do {
            try dictionary.finish()
            try postings.finish()
        } catch {
            throw IndexError(storage: error, segment: id)
        }
    }

    /// Runs `body`, turning its storage error into an `IndexError` of segment `id`.
    private func storing<R: ~Copyable>(_ id: SegmentID, _ body: () throws(StorageError) -> R) throws(IndexError) -> R {
        do { return try body() } catch { throw IndexError(storage: error, segment: id) }
    }
}
