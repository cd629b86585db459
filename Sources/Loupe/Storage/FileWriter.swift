import LoupeCodec

/// The directory's side of a file being written: bytes go to a temporary file, which `commit()` makes durable and
/// renames to the final name. One per `FileWriter`, used from one thread.
package protocol FileSink: AnyObject {
    /// Appends `bytes` to the temporary file.
    func write(_ bytes: UnsafeRawBufferPointer) throws(StorageError)
    /// Makes the file durable (fsync) and gives it its final name, replacing any file of that name atomically.
    /// The directory entry itself becomes durable at the commit protocol's `syncDirectory()`.
    func commit() throws(StorageError)
    /// Removes the temporary file, leaving the final name as it was. Never called after a successful `commit()`.
    func abort()
}

/// A file written front to back through a fixed buffer, with its CRC32 kept as it goes, so a serializer can write
/// a file of any size in constant memory and end it with its footer (`writeFooter`) without reading it back.
///
/// Writes never throw, so a serializer's inner loops carry no error paths: the first failure of the sink is kept,
/// the bytes after it are dropped (offsets still advance), and `finish()` throws it — as a C `FILE` keeps its
/// error for `ferror`. A writer dropped without `finish()` (an error elsewhere, a thrown merge) removes its
/// temporary file, so a failed write leaves only the files of the last commit and those written before it.
///
/// Obtained from `Directory.createFile(_:)`.
package struct FileWriter: ~Copyable {
    /// Bytes buffered before they go to the sink: large enough that a write costs one system call per 256 KiB,
    /// small enough that the six files of a segment being written stay well under the memory budget.
    package static let defaultBufferSize = 256 << 10

    /// The file's final name, for error messages.
    package let name: String
    private let sink: any FileSink
    private let bufferSize: Int
    private var buffer: ByteWriter
    /// Bytes already handed to the sink (or dropped after a failure).
    private var drained = 0
    /// CRC32 of the drained bytes.
    private var drainedChecksum: UInt32 = 0
    private var failure: StorageError?
    private var isClosed = false

    /// A writer sending its bytes to `sink` every `bufferSize` bytes.
    package init(name: String, sink: any FileSink, bufferSize: Int = FileWriter.defaultBufferSize) {
        precondition(bufferSize > 0, "a file writer needs a buffer")
        self.name = name
        self.sink = sink
        self.bufferSize = bufferSize
        buffer = ByteWriter(capacity: bufferSize + 64)
    }

    deinit {
        if !isClosed { sink.abort() }
    }

    /// Bytes written so far: the offset the next write lands at.
    package var count: Int { drained + buffer.count }

    /// CRC32 of every byte written so far.
    /// - Complexity: O(buffered bytes).
    package var checksum: UInt32 {
        unsafe buffer.bytes.withUnsafeBytes { unsafe CRC32.checksum($0, seed: drainedChecksum) }
    }

    /// Appends one byte.
    @inline(__always) package mutating func writeU8(_ v: UInt8) {
        buffer.writeU8(v)
        drainIfFull()
    }

    /// Appends `v` little-endian.
    @inline(__always) package mutating func writeU16(_ v: UInt16) {
        buffer.writeU16(v)
        drainIfFull()
    }

    /// Appends `v` little-endian.
    @inline(__always) package mutating func writeU32(_ v: UInt32) {
        buffer.writeU32(v)
        drainIfFull()
    }

    /// Appends `v` little-endian.
    @inline(__always) package mutating func writeU64(_ v: UInt64) {
        buffer.writeU64(v)
        drainIfFull()
    }

    /// Appends `v` as a LEB128 varint (`ByteWriter.writeVInt`).
    @inline(__always) package mutating func writeVInt(_ v: UInt64) {
        buffer.writeVInt(v)
        drainIfFull()
    }

    /// Appends the bytes of `b` unchanged; a run larger than the buffer goes to the sink without being copied.
    package mutating func writeBytes(_ b: UnsafeRawBufferPointer) {
        if b.count >= bufferSize {
            drain()
            unsafe send(b)
            return
        }
        unsafe buffer.writeBytes(b)
        drainIfFull()
    }

    /// Appends the bytes of `b` unchanged.
    package mutating func writeBytes(_ b: [UInt8]) {
        unsafe b.withUnsafeBytes { unsafe writeBytes($0) }
    }

    /// Lets `body` append to the buffer directly (a bit packer writing into a `ByteWriter`); whatever it appends
    /// is part of the file. Keep each call's output small next to the buffer: it is drained only afterwards.
    package mutating func appending<R>(_ body: (inout ByteWriter) -> R) -> R {
        let result = body(&buffer)
        drainIfFull()
        return result
    }

    /// Ends the file with its footer (`Footer`: kind, version, the CRC32 of every byte before it, magic); the
    /// file is complete afterwards.
    package mutating func writeFooter(kind: UInt32, version: UInt32) {
        buffer.writeU32(kind)
        buffer.writeU32(version)
        buffer.writeU32(checksum)
        buffer.writeU32(Footer.magic)
        drainIfFull()
    }

    /// Sends what is buffered, makes the file durable and gives it its final name.
    /// - Throws: the first `StorageError` of any write, or the sink's fsync or rename failure; the temporary file
    ///   is removed in both cases.
    package consuming func finish() throws(StorageError) {
        drain()
        isClosed = true
        if let failure {
            sink.abort()
            throw failure
        }
        do {
            try sink.commit()
        } catch {
            sink.abort()
            throw error
        }
    }

    @inline(__always) private mutating func drainIfFull() {
        if buffer.count >= bufferSize { drain() }
    }

    @inline(never) private mutating func drain() {
        guard buffer.count > 0 else { return }
        unsafe buffer.bytes.withUnsafeBytes { unsafe send($0) }
        buffer.removeAll()
    }

    /// Checksums `bytes` and hands them to the sink, unless a write already failed.
    private mutating func send(_ bytes: UnsafeRawBufferPointer) {
        drainedChecksum = unsafe CRC32.checksum(bytes, seed: drainedChecksum)
        drained += bytes.count
        guard failure == nil else { return }
        do {
            try unsafe sink.write(bytes)
        } catch {
            failure = error
        }
    }
}

extension Directory {
    /// A new file `name` through a buffer of `FileWriter.defaultBufferSize`.
    /// - Throws: `StorageError` when the temporary file cannot be created.
    package func createFile(_ name: String) throws(StorageError) -> FileWriter {
        FileWriter(name: name, sink: try createSink(name))
    }

    /// Writes a whole file durably; replaces any file of that name atomically.
    package func writeAtomically(_ name: String, _ bytes: [UInt8]) throws(StorageError) {
        let sink = try createSink(name)
        do {
            let written = unsafe bytes.withUnsafeBytes { raw in
                Result { () throws(StorageError) in unsafe try sink.write(raw) }
            }
            try written.get()
            try sink.commit()
        } catch {
            sink.abort()
            throw error
        }
    }
}
