/// Deletes are queries with an opstamp, run at commit over the committed and pending segments; each segment that
/// loses documents gets a new deleted-documents file (`Segment/DeletedDocs/`), and one that loses all of them is
/// dropped from the commit point.
extension SegmentUpdater {
    /// Runs the pending deletions over `segments` and writes a deleted-documents file (generation `generation`)
    /// for each segment that loses documents; returns the segments' new metas, without the segments left empty.
    /// A segment flushed in this batch loses only documents older than the deletion (a segment the indexing threads
    /// merged from several holds their documents in turn, so its opstamps do not increase throughout); committed
    /// segments are older than every pending deletion.
    func applyDeletes(
        to segments: [IndexMeta.SegmentMeta], generation: UInt64
    ) throws(IndexError)
        -> [IndexMeta.SegmentMeta]
    {
        let readers = try openReaders(segments)
        let searcher = Searcher(schema: committed.schema, segments: readers, analyzers: index.analyzers)
        var deleted = readers.map { $0.deleted?.bitSet(maxDoc: $0.maxDoc) ?? DocBitSet(maxDoc: $0.maxDoc) }
        for (stamp, query) in deletes {
            var matches = DocSetCollector()
            try searcher.collect(searcher.compile(query), into: &matches)
            for (i, reader) in readers.enumerated() {
                let docStamps = flushedOpstamps[reader.id]
                for doc in matches.documents[i] {
                    if let docStamps, docStamps[Int(doc)] > stamp { continue }
                    deleted[i].insert(doc)
                }
            }
        }
        var updated: [IndexMeta.SegmentMeta] = []
        for (i, meta) in segments.enumerated() {
            let count = deleted[i].count
            guard count != (meta.deletes?.count ?? 0) else {
                updated.append(meta)
                continue
            }
            if count == meta.maxDoc { continue }
            updated.append(try writeDeletes(deleted[i], of: meta, generation: generation))
        }
        return updated
    }

    /// Writes `deleted` as `segment`'s deleted-documents file of `generation`; returns the segment's meta naming it.
    func writeDeletes(
        _ deleted: DocBitSet, of segment: IndexMeta.SegmentMeta, generation: UInt64
    ) throws(IndexError)
        -> IndexMeta.SegmentMeta
    {
        let name = DeletedDocsFormat.fileName(segment.id, generation: generation)
        do {
            try index.directory.writeAtomically(name, DeletedDocsWriter.serialize(deleted))
        } catch {
            throw IndexError(storage: error, file: name, segment: segment.id)
        }
        var changed = segment
        changed.deletes = IndexMeta.Deletes(generation: generation, count: deleted.count)
        return changed
    }
}
