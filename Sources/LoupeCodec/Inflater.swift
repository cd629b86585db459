import CZlib

/// A reusable raw-inflate decompressor for the streams `Deflater` writes (zlib window bits −15: no zlib or gzip
/// header and no trailer checksum — the caller stores the uncompressed size, and file footers carry the CRC), the
/// blocks of v1 document stores. One zlib stream is reset between inputs: `inflateInit2` allocates the stream state
/// and, on first use, a 32 KiB window, which a reader fetching a few hits per query would otherwise pay per block.
/// Not thread-safe: one thread uses it at a time (it may move between threads, as in a pool).
@safe
package final class Inflater: @unchecked Sendable {
    // @unchecked: the z_stream is mutated by every call, so an inflater must have one user at a time; it crosses
    // threads only through a lock-protected pool (`DocStoreReader.inflaters`).
    /// Deflate's worst case expands 1 compressed byte into at most 1032 output bytes (a 258-byte match per
    /// 2 bits); a declared size beyond that is corrupt, and rejecting it avoids allocating it.
    package static let maxExpansion = 1032

    private let stream: UnsafeMutablePointer<z_stream>

    package init() {
        unsafe stream = .allocate(capacity: 1)
        unsafe stream.initialize(to: z_stream())
        let status = unsafe inflateInit2_(stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "inflateInit2 failed (\(status)): out of memory")
    }

    deinit {
        unsafe _ = inflateEnd(stream)
        unsafe stream.deallocate()
    }

    /// Inflates the raw deflate stream `src`, which must decompress to exactly `decompressedSize` bytes.
    /// - Throws: `.decompression` if the stream is corrupt, ends early, or has another size.
    package func decompress(_ src: UnsafeRawBufferPointer, decompressedSize: Int) throws(FormatError) -> [UInt8] {
        guard decompressedSize >= 0, decompressedSize <= src.count * Self.maxExpansion, src.count <= Int(UInt32.max)
        else {
            throw .decompression(
                offset: 0, reason: "declared size \(decompressedSize) impossible for \(src.count) compressed bytes")
        }
        unsafe _ = inflateReset(stream)
        // One spare byte: zlib rejects an empty output buffer, and it reveals streams longer than declared.
        var out = [UInt8](repeating: 0, count: decompressedSize + 1)
        let result = unsafe out.withUnsafeMutableBytes { buffer in
            unsafe stream.pointee.next_in = src.baseAddress.map {
                unsafe UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self))
            }
            unsafe stream.pointee.avail_in = UInt32(src.count)
            unsafe stream.pointee.next_out = buffer.baseAddress.map { unsafe $0.assumingMemoryBound(to: Bytef.self) }
            unsafe stream.pointee.avail_out = UInt32(buffer.count)
            return unsafe inflate(stream, Z_FINISH)
        }
        let produced = Int(unsafe stream.pointee.total_out)
        guard result == Z_STREAM_END, produced == decompressedSize else {
            throw .decompression(
                offset: Int(unsafe stream.pointee.total_in),
                reason: result == Z_STREAM_END
                    ? "inflated to \(produced) bytes, expected \(decompressedSize)"
                    : "corrupt or truncated stream (zlib \(result))")
        }
        out.removeLast()
        return out
    }

    /// Inflates only the beginning of the stream `src` that the caller needs: after each step, `needed` sees the
    /// bytes inflated so far and answers how many it wants in all (at most `decompressedSize`); inflating stops
    /// once that many exist. A stored block whose wanted document sits early costs only its prefix.
    /// - Throws: `.decompression` if the stream is corrupt or ends before the wanted bytes.
    package func decompressPrefix(
        _ src: UnsafeRawBufferPointer, decompressedSize: Int, needed: (UnsafeRawBufferPointer) -> Int
    ) throws(FormatError) -> [UInt8] {
        guard decompressedSize >= 0, decompressedSize <= src.count * Self.maxExpansion, src.count <= Int(UInt32.max)
        else {
            throw .decompression(
                offset: 0, reason: "declared size \(decompressedSize) impossible for \(src.count) compressed bytes")
        }
        unsafe _ = inflateReset(stream)
        var out = [UInt8](repeating: 0, count: max(decompressedSize, 1))
        var produced = 0
        var failure: Int32?
        unsafe out.withUnsafeMutableBytes { buffer in
            unsafe stream.pointee.next_in = src.baseAddress.map {
                unsafe UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self))
            }
            unsafe stream.pointee.avail_in = UInt32(src.count)
            while true {
                let want = unsafe min(
                    max(needed(unsafe UnsafeRawBufferPointer(rebasing: buffer[..<produced])), produced),
                    decompressedSize)
                if want <= produced { return }
                unsafe stream.pointee.next_out = buffer.baseAddress.map {
                    unsafe $0.assumingMemoryBound(to: Bytef.self) + produced
                }
                unsafe stream.pointee.avail_out = UInt32(want - produced)
                let result = unsafe inflate(stream, Z_NO_FLUSH)
                produced = Int(unsafe stream.pointee.total_out)
                let inputLeft = Int(unsafe stream.pointee.avail_in)
                if result == Z_STREAM_END && produced < want || result != Z_OK && result != Z_STREAM_END
                    || produced < want && inputLeft == 0
                {
                    failure = result
                    return
                }
            }
        }
        if let failure {
            throw .decompression(
                offset: Int(unsafe stream.pointee.total_in), reason: "corrupt or truncated stream (zlib \(failure))")
        }
        out.removeLast(out.count - produced)
        return out
    }
}
