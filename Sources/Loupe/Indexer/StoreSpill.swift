/// The store file of a segment being indexed, written while documents arrive: once the store's compressed blocks
/// pass `threshold`, they move to the file, so the memory budget buffers postings rather than stored documents
/// (tantivy's segment writer streams its store the same way). A small segment never opens its file before the
/// flush.
///
/// The file is a `FileWriter`'s temporary file until the flush finishes it: a writer dropped without a flush (a
/// rollback) removes it, and the one a crash leaves is removed by the next garbage collection. A write that fails
/// is kept and thrown by the flush, as `FileWriter` does.
package final class StoreSpill {
    /// Compressed bytes the store holds before they move to the file.
    package static let threshold = 1 << 20

    private let directory: any Directory
    private let name: String
    private var file: FileWriter?
    private var failure: StorageError?

    init(directory: any Directory, segment: SegmentID) {
        self.directory = directory
        name = SegmentComponent.store.fileName(segment)
    }

    /// Moves the compressed blocks `store` holds to the file, opening it the first time. When it cannot be
    /// opened, the blocks stay in memory and `finish` throws why.
    func move(_ store: inout DocStoreWriter) {
        if file == nil && failure == nil {
            do throws(StorageError) {
                file = try directory.createFile(name)
            } catch {
                failure = error
            }
        }
        guard var out = file.take() else { return }
        store.moveBlocks(to: &out)
        file = consume out
    }

    /// Writes the rest of `store` and finishes the file.
    /// - Throws: the `StorageError` of the file's creation, a write, the fsync or the rename.
    func finish(_ store: consuming DocStoreWriter) throws(StorageError) {
        if let failure { throw failure }
        if let out = file.take() {
            try store.finish(to: out)
        } else {
            try store.finish(to: directory.createFile(name))
        }
    }
}
