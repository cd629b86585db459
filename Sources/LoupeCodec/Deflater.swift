import CZlib

/// A reusable raw-deflate compressor: one zlib stream reset between inputs, instead of a fresh stream per call.
///
/// `deflateInit2` allocates and clears about 256 KiB of hash tables; a writer compressing a 4 KiB block at a
/// time would spend more on that than on compressing. Not thread-safe: one per writer.
@safe
package final class Deflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var output: [UInt8] = []

    /// - Parameter level: 0 = store, 1 = fastest … 9 = smallest.
    package init(level: Int32) {
        unsafe stream = .allocate(capacity: 1)
        unsafe stream.initialize(to: z_stream())
        let status = unsafe deflateInit2_(
            stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "deflateInit2 failed (\(status)): bad level \(level) or out of memory")
    }

    deinit {
        unsafe _ = deflateEnd(stream)
        unsafe stream.deallocate()
    }

    /// The raw deflate stream of `src`, readable by `Inflater.decompress`.
    /// - Precondition: `src.count` fits zlib's 32-bit counters (blocks are far smaller).
    package func compress(_ src: UnsafeRawBufferPointer) -> [UInt8] {
        precondition(src.count <= Int(UInt32.max), "Deflater input too large")
        unsafe _ = deflateReset(stream)
        let bound = Int(unsafe deflateBound(stream, UInt(src.count))) + 16
        if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
        var result: Int32 = Z_OK
        unsafe output.withUnsafeMutableBytes { out in
            unsafe stream.pointee.next_in = src.baseAddress.map {
                unsafe UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self))
            }
            unsafe stream.pointee.avail_in = UInt32(src.count)
            unsafe stream.pointee.next_out = out.baseAddress.map { unsafe $0.assumingMemoryBound(to: Bytef.self) }
            unsafe stream.pointee.avail_out = UInt32(out.count)
            result = unsafe deflate(stream, Z_FINISH)
        }
        // deflateBound guarantees a single Z_FINISH call completes.
        precondition(result == Z_STREAM_END, "deflate did not finish within deflateBound (\(result))")
        return Array(output[..<Int(unsafe stream.pointee.total_out)])
    }
}
