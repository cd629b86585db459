import LoupeAnalysis

/// Reading the commit point and opening searchers over it: what `Index.init` and `Index.reload()` run.
extension Index {
    /// The commit point in `directory`: the latest (`meta.json`), or the one before it.
    /// - Throws: `IndexError` `.notFound`/`.io` when the file cannot be read, `.corruption` when it fails its
    ///   checksum or does not decode.
    package static func readMeta(
        _ directory: any Directory, name: String = IndexMeta.fileName
    ) throws(IndexError) -> IndexMeta {
        let file: FileSlice
        do {
            file = try directory.open(name)
        } catch {
            throw IndexError(storage: error, file: name)
        }
        // The slice keeps the file mapped: it must outlive the decode of its bytes.
        return try withExtendedLifetime(file) { () throws(IndexError) in
            unsafe try IndexMeta.decode(file.bytes, name: name, location: directory.location + "/" + name)
        }
    }

    /// A searcher over the segments `meta` lists: the readers of `open` where the same segment (and deletes
    /// generation) is already open, new ones for the rest.
    static func openSearcher(
        directory: any Directory, meta: IndexMeta, reusing open: [SegmentReader], analyzers: AnalyzerRegistry,
        verifyChecksums: Bool, storeCache: DocStoreCache, registry: OpenSegments
    ) throws(IndexError) -> Searcher {
        var readers: [SegmentReader] = []
        for segment in meta.segments {
            if let existing = open.first(where: {
                $0.id == segment.id && $0.deletesGeneration == segment.deletes?.generation
            }) {
                readers.append(existing)
            } else {
                readers.append(
                    try SegmentReader(
                        directory: directory, meta: segment, schema: meta.schema, verifyChecksums: verifyChecksums,
                        storeCache: storeCache,
                        registry: registry))
            }
        }
        return Searcher(schema: meta.schema, segments: readers, analyzers: analyzers)
    }
}
