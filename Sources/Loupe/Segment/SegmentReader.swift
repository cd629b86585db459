import LoupeCodec

/// An open, immutable segment: every component file mapped and validated once, shared by all searches.
package final class SegmentReader: Sendable {
    package let id: SegmentID
    package let maxDoc: Int
    package let terms: TermDictionaryReader
    package let postings: FileSlice
    package let positions: FileSlice
    package let norms: FieldNormsReader
    package let store: DocStoreReader
    package let fast: ColumnarReader
    /// The segment's deleted documents as of the commit this reader was opened on; nil when none.
    package let deleted: DeletedDocs?
    /// The generation of `deleted`'s file, nil without one.
    package let deletesGeneration: UInt64?
    /// Bytes of the segment's files (the deleted-documents file included).
    package let byteCount: Int
    /// Bytes per file kind (`terms`, `postings`, …, `del`).
    package let bytesByKind: [String: Int]
    /// Every component file, for `verifyChecksums` and `check`.
    let files: [(component: SegmentComponent, file: FileSlice)]
    /// The deleted-documents file, for `verifyChecksums` and `check`.
    let deletesFile: (name: String, file: FileSlice)?
    /// The most frequent completions of one- and two-byte prefixes, per field, built when first used.
    let completions = CompletionTables()
    /// Where this reader counts itself open, for garbage collection; nil for the writer's short-lived readers.
    private let registry: OpenSegments?

    /// Documents not deleted.
    package var liveCount: Int { maxDoc - (deleted?.count ?? 0) }

    /// Opens the segment's files from `directory` and validates their footers (and checksums when asked).
    /// - Throws: `IndexError` `.corruption`/`.incompatibleFormat` naming the file and byte offset, or `.io`.
    /// - Parameters:
    ///   - storeCache: the index's cache of decoded store blocks, which this segment's store shares.
    ///   - registry: where to count the reader open while it lives (a searcher's readers), if anywhere.
    package init(
        directory: any Directory, meta: IndexMeta.SegmentMeta, schema: Schema, verifyChecksums: Bool,
        storeCache: DocStoreCache,
        registry: OpenSegments? = nil
    ) throws(IndexError) {
        id = meta.id
        maxDoc = meta.maxDoc
        func open(_ component: SegmentComponent) throws(IndexError) -> FileSlice {
            do {
                return try directory.open(component.fileName(meta.id))
            } catch {
                throw IndexError(storage: error, file: component.fileName(meta.id), segment: meta.id)
            }
        }
        var total = 0
        var files: [(component: SegmentComponent, file: FileSlice)] = []
        func validated<T>(
            _ component: SegmentComponent, _ body: (FileSlice) throws(FormatError) -> T
        ) throws(IndexError) -> T {
            let file = try open(component)
            total += file.count
            files.append((component, file))
            do {
                return try body(file)
            } catch {
                throw IndexError(format: error, file: component.fileName(meta.id), segment: meta.id)
            }
        }
        let postings = try validated(.postings) { (f) throws(FormatError) in
            try Self.body(f, .postings, verifyChecksums)
        }
        let positions = try validated(.positions) { (f) throws(FormatError) in
            try Self.body(f, .positions, verifyChecksums)
        }
        // The dictionary checks every term's offsets against the files they point into.
        terms = try validated(.terms) { (f) throws(FormatError) in
            try TermDictionaryReader(
                file: f, verifyChecksum: verifyChecksums, postingsLength: postings.count,
                positionsLength: positions.count)
        }
        self.postings = postings
        self.positions = positions
        let maxDoc = meta.maxDoc
        norms = try validated(.fieldNorms) { (f) throws(FormatError) in
            try FieldNormsReader(file: f, maxDoc: maxDoc, verifyChecksum: verifyChecksums)
        }
        store = try validated(.store) { (f) throws(FormatError) in
            try DocStoreReader(file: f, verifyChecksum: verifyChecksums, cache: storeCache)
        }
        fast = try validated(.fast) { (f) throws(FormatError) in
            try ColumnarReader(file: f, maxDoc: maxDoc, schema: schema, verifyChecksum: verifyChecksums)
        }
        var bytesByKind = Dictionary(uniqueKeysWithValues: files.map { ($0.component.fileExtension, $0.file.count) })
        if let deletes = meta.deletes {
            let name = DeletedDocsFormat.fileName(meta.id, generation: deletes.generation)
            let file: FileSlice
            do {
                file = try directory.open(name)
            } catch {
                throw IndexError(storage: error, file: name, segment: meta.id)
            }
            let reader: DeletedDocs
            do {
                reader = try DeletedDocs(file: file, maxDoc: maxDoc, verifyChecksum: verifyChecksums)
            } catch {
                throw IndexError(format: error, file: name, segment: meta.id)
            }
            guard reader.count == deletes.count else {
                throw IndexError(
                    .corruption, "\(name) deletes \(reader.count) documents, meta.json says \(deletes.count)",
                    context: .init(file: name, segment: meta.id.description))
            }
            deleted = reader
            deletesFile = (name, file)
            total += file.count
            bytesByKind["del"] = file.count
        } else {
            deleted = nil
            deletesFile = nil
        }
        deletesGeneration = meta.deletes?.generation
        byteCount = total
        self.bytesByKind = bytesByKind
        self.files = files
        self.registry = registry
        guard store.docCount == maxDoc else {
            throw IndexError(
                .corruption, "document store holds \(store.docCount) documents, meta.json says \(maxDoc)",
                context: .init(file: SegmentComponent.store.fileName(meta.id), segment: meta.id.description))
        }
        registry?.opened(id, generation: deletesGeneration)
    }

    deinit {
        registry?.closed(id, generation: deletesGeneration)
    }

    /// Reads every byte of every file of the segment and checks it against its footer's CRC.
    /// - Throws: `IndexError` `.corruption` naming the first damaged file.
    package func verifyChecksums() throws(IndexError) {
        if let (name, file) = deletesFile {
            do {
                _ = try unsafe Footer.validate(
                    file.bytes, kind: DeletedDocsFormat.kind, supportedVersion: DeletedDocsFormat.version,
                    verifyChecksum: true)
            } catch {
                throw IndexError(format: error, file: name, segment: id)
            }
        }
        for (component, file) in files {
            do {
                _ = try unsafe Footer.validate(
                    file.bytes, kind: component.kind, supportedVersion: component.formatVersion, verifyChecksum: true)
            } catch {
                throw IndexError(format: error, file: component.fileName(id), segment: id)
            }
        }
    }

    /// The file's bytes without the footer, as a slice that keeps the mapping alive.
    private static func body(
        _ file: FileSlice, _ component: SegmentComponent, _ verify: Bool
    ) throws(FormatError) -> FileSlice {
        let body = unsafe try Footer.validate(
            file.bytes, kind: component.kind, supportedVersion: component.formatVersion, verifyChecksum: verify)
        return file.slice(0..<body.count)
    }

}

extension IndexError {
    package init(format error: FormatError, file: String, segment: SegmentID?) {
        let code: Code
        switch error {
        case .unsupportedVersion: code = .incompatibleFormat
        default: code = .corruption
        }
        var offset: Int?
        switch error {
        case .truncated(let o, _, _), .malformed(let o, _), .decompression(let o, _): offset = o
        default: offset = nil
        }
        let advice =
            code == .incompatibleFormat
            ? "open it with the Loupe version that wrote it, or reindex"
            : "the file is damaged; restore the index from a backup or reindex"
        self.init(
            code, "\(file): \(error); \(advice)",
            context: .init(file: file, segment: segment?.description, byteOffset: offset))
    }

    package init(storage error: StorageError, file: String? = nil, segment: SegmentID? = nil) {
        switch error {
        case .system(let e):
            self.init(.io, e.description, context: .init(file: file ?? e.path, segment: segment?.description))
        case .notFound(let path):
            self.init(
                .notFound, "\(path) does not exist", context: .init(file: file ?? path, segment: segment?.description))
        case .locked(let path):
            self.init(
                .writerLocked,
                "another writer holds the index (lock \(path)); close it first — only one writer may run at a time",
                context: .init(file: path))
        }
    }
}
