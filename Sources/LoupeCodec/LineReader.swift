import CZlib

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a text file line by line, plain or gzip (zlib's `gzread` detects and inflates gzip transparently),
/// for JSONL corpora.
///
/// Lines are handed out as views into an internal buffer, so reading allocates only when a line is longer
/// than any before it. Not thread-safe; one reader per input.
@safe package final class LineReader {
    /// zlib's own read-ahead; larger than its 8 KiB default so gzip inflates in big steps.
    static let zlibBufferSize: UInt32 = 128 * 1024
    /// Initial size of the line buffer; it doubles whenever one line does not fit.
    static let initialCapacity = 64 * 1024

    private let file: gzFile?
    private let source: String
    /// Holds bytes `[lineStart, filled)` not yet returned as lines.
    private var storage: UnsafeMutableRawBufferPointer
    private var lineStart = 0
    private var filled = 0
    private var reachedEnd = false

    /// Number of the line last returned by `nextLine` (1-based; 0 before the first).
    package private(set) var lineNumber = 0
    /// Uncompressed bytes consumed so far, line terminators included (for MB/s reporting).
    package private(set) var bytesRead = 0

    /// Opens the file at `path`, plain or gzip.
    /// - Throws: `.malformed(offset: 0, reason: "cannot open PATH: <strerror>")` if it cannot be opened.
    package init(path: String) throws(FormatError) {
        errno = 0
        guard let file = unsafe gzopen(path, "rb") else {
            let reason = errno == 0 ? "out of memory" : unsafe String(cString: strerror(errno))
            throw .malformed(offset: 0, reason: "cannot open \(path): \(reason)")
        }
        unsafe self.file = file
        source = path
        unsafe storage = .allocate(byteCount: Self.initialCapacity, alignment: 16)
        unsafe gzbuffer(file, Self.zlibBufferSize)
    }

    /// Reads from an open descriptor (e.g. 0 for stdin), plain or gzip. The reader works on a duplicate, so
    /// the caller still owns — and closes — `fileDescriptor`; an invalid descriptor fails at the first `nextLine`.
    package init(fileDescriptor: Int32) {
        let duplicate = dup(fileDescriptor)
        unsafe file = duplicate < 0 ? nil : gzdopen(duplicate, "rb")
        if unsafe file == nil && duplicate >= 0 { close(duplicate) }
        source = "file descriptor \(fileDescriptor)"
        unsafe storage = .allocate(byteCount: Self.initialCapacity, alignment: 16)
        if let file = unsafe file { unsafe gzbuffer(file, Self.zlibBufferSize) }
    }

    deinit {
        if let file = unsafe file { unsafe gzclose(file) }
        unsafe storage.deallocate()
    }

    /// The next line without its "\n" (and without a trailing "\r"); nil at the end of input. A last line
    /// without a newline is still returned; an empty input has no lines.
    ///
    /// The view is valid only until the next call.
    /// - Throws: `.malformed` if the input cannot be read; `.decompression` if a gzip stream is corrupt or
    ///   truncated (offset = uncompressed bytes consumed before the bad line).
    package func nextLine() throws(FormatError) -> UnsafeRawBufferPointer? {
        var scanFrom = lineStart
        while true {
            if let newline = findNewline(from: scanFrom) {
                return unsafe takeLine(upTo: newline, terminatorLength: 1)
            }
            if reachedEnd {
                guard filled > lineStart else { return nil }
                return unsafe takeLine(upTo: filled, terminatorLength: 0)
            }
            scanFrom = filled - lineStart
            try refill()
            scanFrom += lineStart
        }
    }

    private func findNewline(from index: Int) -> Int? {
        guard index < filled, let base = unsafe storage.baseAddress else { return nil }
        guard let hit = unsafe memchr(base + index, 0x0A, filled - index) else { return nil }
        return unsafe base.distance(to: hit)
    }

    private func takeLine(upTo end: Int, terminatorLength: Int) -> UnsafeRawBufferPointer {
        var lineEnd = end
        if lineEnd > lineStart, unsafe storage[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        let line = unsafe UnsafeRawBufferPointer(rebasing: storage[lineStart..<lineEnd])
        bytesRead += end + terminatorLength - lineStart
        lineStart = end + terminatorLength
        lineNumber += 1
        return unsafe line
    }

    /// Moves the unreturned bytes to the front (growing the buffer if they fill it) and reads more after them.
    private func refill() throws(FormatError) {
        guard let file = unsafe file else {
            throw .malformed(offset: bytesRead, reason: "cannot read \(source)")
        }
        let pending = filled - lineStart
        if unsafe pending == storage.count {
            let grown = unsafe UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count * 2, alignment: 16)
            unsafe grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[lineStart..<filled]))
            unsafe storage.deallocate()
            unsafe storage = grown
        } else if lineStart > 0, let base = unsafe storage.baseAddress {
            unsafe memmove(base, base + lineStart, pending)
        }
        lineStart = 0
        filled = pending
        let room = min(unsafe storage.count - filled, Int(Int32.max))
        let count = unsafe gzread(file, storage.baseAddress.map { unsafe $0 + filled }, UInt32(room))
        if count > 0 {
            filled += Int(count)
            return
        }
        var code: Int32 = Z_OK
        let message = unsafe gzerror(file, &code)
        if count < 0 || code != Z_OK {
            let reason =
                code == Z_BUF_ERROR
                ? "gzip stream of \(source) ends unexpectedly"
                : "cannot read \(source): \(unsafe message.map { unsafe String(cString: $0) } ?? "error \(code)")"
            if code == Z_ERRNO {
                throw .malformed(offset: bytesRead, reason: reason)
            }
            throw .decompression(offset: bytesRead, reason: reason)
        }
        reachedEnd = true
    }
}
