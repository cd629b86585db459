extension BackgroundMerges.Finished {
    /// The merged segment's documents deleted by the commits made while the merge ran, mapped through `newIDs`:
    /// the deletes `committed` (the commit point's segments now) holds for the sources beyond those the sources had
    /// when the merge started, which were already left out of it.
    /// - Throws: `IndexError` `.io` or `.corruption` naming a deleted-documents file that cannot be read.
    package func laterDeletes(
        committed: [IndexMeta.SegmentMeta], in directory: any Directory
    ) throws(IndexError)
        -> DocBitSet
    {
        var bits = DocBitSet(maxDoc: merged?.maxDoc ?? 0)
        for (s, source) in sources.enumerated() {
            guard let current = committed.first(where: { $0.id == source.id })?.deletes,
                current.generation != source.deletes?.generation
            else { continue }
            let name = DeletedDocsFormat.fileName(source.id, generation: current.generation)
            let deleted: DeletedDocs
            do {
                deleted = try DeletedDocs(file: directory.open(name), maxDoc: source.maxDoc, verifyChecksum: false)
            } catch let error as StorageError {
                throw IndexError(storage: error, file: name, segment: source.id)
            } catch {
                throw IndexError(
                    .corruption, "\(name): \(error)", context: .init(file: name, segment: source.id.description))
            }
            for doc in 0..<DocID(source.maxDoc) where deleted.contains(doc) && newIDs[s][Int(doc)] >= 0 {
                bits.insert(DocID(newIDs[s][Int(doc)]))
            }
        }
        return bits
    }
}
