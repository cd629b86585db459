extension SegmentMerger {
    /// Writes the merged segment's files under `id`, each atomically, and returns its meta; writes nothing and
    /// returns nil when every input document is deleted. The segment is part of no commit until one lists it.
    /// - Throws: `IndexError` `.io` naming the file that could not be written, `.corruption` as `merge()`.
    package func write(as id: SegmentID, to directory: any Directory) throws(IndexError) -> IndexMeta.SegmentMeta? {
        guard maxDoc > 0 else { return nil }
        for (component, bytes) in try merge() {
            do {
                try directory.writeAtomically(component.fileName(id), bytes)
            } catch {
                throw IndexError(storage: error, file: component.fileName(id), segment: id)
            }
        }
        return IndexMeta.SegmentMeta(id: id, maxDoc: maxDoc)
    }
}
