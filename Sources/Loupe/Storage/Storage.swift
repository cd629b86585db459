// Storage: where segment files live and how their bytes are reached.
//
// A `Directory` hands out immutable `FileSlice`s (an owner that keeps the bytes alive plus a raw view) and writes
// each new file through a `FileWriter` (FileWriter.swift): buffered, checksummed as it goes, under a temporary name
// until `finish()` fsyncs it and renames it into place. Two implementations: `MmapDirectory` (files on disk, read
// through mmap, fsync'd) and `RAMDirectory` (an in-memory index). Readers validate a file's footer once, at open,
// and then read the raw view without further checks. Format and commit protocol: Docs/FORMAT.md.
//
// Invariants:
// - files are written once and never modified; `meta.json` is the only file replaced, by rename;
// - a `FileSlice` stays valid as long as any copy of it exists (its owner unmaps or frees on deinit).

/// Keeps the memory behind a `FileSlice` alive.
package protocol FileOwner: AnyObject, Sendable {}

/// An immutable view of a file's bytes plus the object that owns them.
///
/// Mirrors tantivy's `OwnedBytes`: copying the slice retains the owner, never the bytes.
@safe
package struct FileSlice: @unchecked Sendable {
    // @unchecked: `bytes` is never written through, and `owner` keeps it mapped (or allocated) while any copy lives.
    package let owner: any FileOwner
    package let bytes: UnsafeRawBufferPointer

    package init(owner: any FileOwner, bytes: UnsafeRawBufferPointer) {
        self.owner = owner
        unsafe self.bytes = unsafe bytes
    }

    package var count: Int { unsafe bytes.count }

    /// A sub-view sharing the same owner. The range must lie within the slice (checked by the caller at open).
    package func slice(_ range: Range<Int>) -> FileSlice {
        unsafe precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "slice out of bounds")
        return unsafe FileSlice(owner: owner, bytes: UnsafeRawBufferPointer(rebasing: bytes[range]))
    }
}

/// Heap memory owned by a slice: the in-memory directory's files and test buffers.
@safe
package final class HeapBytes: FileOwner, @unchecked Sendable {
    // @unchecked: `buffer` is written only in init, read-only after, and freed only in deinit.
    package let buffer: UnsafeMutableRawBufferPointer

    package init(_ bytes: [UInt8]) {
        // Never zero-sized, so `baseAddress` is non-nil even for an empty file.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        unsafe bytes.withUnsafeBytes { src in
            if let base = src.baseAddress { unsafe buffer.baseAddress!.copyMemory(from: base, byteCount: src.count) }
        }
        unsafe self.buffer = unsafe buffer
        count = bytes.count
    }

    package let count: Int

    package var slice: FileSlice {
        unsafe FileSlice(
            owner: self, bytes: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<count]))
    }

    deinit { unsafe buffer.deallocate() }
}

/// A held writer lock; released when the value is dropped.
package protocol DirectoryLock: AnyObject, Sendable {}

/// The file system seam of the engine.
package protocol Directory: AnyObject, Sendable {
    /// A human-readable location for error messages ("/data/idx" or "in-memory").
    var location: String { get }
    /// Opens a whole file for reading.
    func open(_ name: String) throws(StorageError) -> FileSlice
    /// Starts writing a new file `name` under a temporary name (`createFile(_:)` wraps it in a `FileWriter`).
    func createSink(_ name: String) throws(StorageError) -> any FileSink
    /// A new file `name`, written through a `FileWriter`; it appears under its name at `finish()` only. The
    /// default wraps `createSink(_:)` with the standard buffer; a test directory may pick a smaller one.
    func createFile(_ name: String) throws(StorageError) -> FileWriter
    /// Makes the renames and creations done so far durable (fsync of the directory).
    func syncDirectory() throws(StorageError)
    func exists(_ name: String) -> Bool
    func delete(_ name: String) throws(StorageError)
    func list() throws(StorageError) -> [String]
    /// Takes the single-writer lock, or throws `StorageError.locked`.
    func lockWriter() throws(StorageError) -> any DirectoryLock
}

/// Errors of the storage layer.
package enum StorageError: Error, Sendable {
    case system(SystemCallError)
    case notFound(String)
    case locked(String)
}
