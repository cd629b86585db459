import CZlib

/// zlib raw deflate streams (window bits -15): no zlib or gzip header and no trailer checksum — the
/// caller stores the uncompressed size, and the file footer's CRC already covers the bytes.
package enum Deflate {
  /// Deflate's worst case expands 1 compressed byte into at most 1032 output bytes (a 258-byte match per
  /// 2 bits); a declared size beyond that is corrupt, and rejecting it avoids allocating it.
  static let maxExpansion = 1032

  /// zlib counts input and output in `UInt32`; larger buffers are fed in chunks of this size.
  static let chunkLimit = Int(UInt32.max)

  /// The raw deflate stream of `src` at `level` (0 = store, 1 = fastest … 9 = smallest; 6 is zlib's default).
  /// An empty `src` yields a 2-byte stream that decompresses to nothing.
  package static func compress(_ src: UnsafeRawBufferPointer, level: Int32 = 6) -> [UInt8] {
    var stream = unsafe z_stream()
    let status = unsafe deflateInit2_(
      &stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    precondition(status == Z_OK, "deflateInit2 failed (\(status)): bad level \(level) or out of memory")
    defer { unsafe _ = deflateEnd(&stream) }
    let bound = Int(unsafe deflateBound(&stream, UInt(src.count)))
    var output = [UInt8](repeating: 0, count: max(bound, 16))
    var produced = 0
    var consumed = 0
    var result = Z_OK
    while result != Z_STREAM_END {
      if produced == output.count {
        output.append(contentsOf: repeatElement(0, count: output.count))
      }
      let inputChunk = min(src.count - consumed, chunkLimit)
      let outputChunk = min(output.count - produced, chunkLimit)
      let flush = consumed + inputChunk == src.count ? Z_FINISH : Z_NO_FLUSH
      unsafe output.withUnsafeMutableBytes { out in
        unsafe stream.next_in = nextIn(src, at: consumed)
        unsafe stream.avail_in = UInt32(inputChunk)
        unsafe stream.next_out = out.baseAddress.map { unsafe $0.assumingMemoryBound(to: Bytef.self) + produced }
        unsafe stream.avail_out = UInt32(outputChunk)
        result = unsafe deflate(&stream, flush)
      }
      precondition(result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR, "deflate failed (\(result))")
      consumed += inputChunk - Int(unsafe stream.avail_in)
      produced += outputChunk - Int(unsafe stream.avail_out)
    }
    output.removeLast(output.count - produced)
    return output
  }

  /// Inflates the raw deflate stream `src` into `out`, replacing its contents; `decompressedSize` is the size
  /// stored by the writer.
  /// - Throws: `.decompression` (offset = compressed bytes consumed) if the stream is corrupt, ends early,
  ///   or inflates to a size other than `decompressedSize`.
  package static func decompress(
    _ src: UnsafeRawBufferPointer, decompressedSize: Int, into out: inout [UInt8]
  ) throws(FormatError) {
    guard decompressedSize >= 0, decompressedSize <= src.count * maxExpansion else {
      throw .decompression(
        offset: 0, reason: "declared size \(decompressedSize) impossible for \(src.count) compressed bytes")
    }
    var stream = unsafe z_stream()
    let status = unsafe inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else { throw .decompression(offset: 0, reason: "inflateInit2 failed (\(status))") }
    defer { unsafe _ = inflateEnd(&stream) }
    out.removeAll(keepingCapacity: true)
    // One spare byte: zlib rejects a null output pointer, and it reveals streams longer than declared.
    out.append(contentsOf: repeatElement(0, count: decompressedSize + 1))
    var produced = 0
    var consumed = 0
    var result = Z_OK
    while result == Z_OK {
      let inputChunk = min(src.count - consumed, chunkLimit)
      let outputChunk = min(out.count - produced, chunkLimit)
      unsafe out.withUnsafeMutableBytes { buffer in
        unsafe stream.next_in = nextIn(src, at: consumed)
        unsafe stream.avail_in = UInt32(inputChunk)
        unsafe stream.next_out = buffer.baseAddress.map { unsafe $0.assumingMemoryBound(to: Bytef.self) + produced }
        unsafe stream.avail_out = UInt32(outputChunk)
        result = unsafe inflate(&stream, Z_NO_FLUSH)
      }
      consumed += inputChunk - Int(unsafe stream.avail_in)
      produced += outputChunk - Int(unsafe stream.avail_out)
    }
    guard result == Z_STREAM_END else {
      let overflowed = produced > decompressedSize
      throw .decompression(offset: consumed, reason: unsafe inflateFailure(result, stream: stream, overflowed: overflowed))
    }
    guard produced == decompressedSize else {
      throw .decompression(
        offset: consumed, reason: "inflated to \(produced) bytes, expected \(decompressedSize)")
    }
    out.removeLast()
  }

  private static func nextIn(_ src: UnsafeRawBufferPointer, at offset: Int) -> UnsafeMutablePointer<Bytef>? {
    unsafe src.baseAddress.map { unsafe UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self) + offset) }
  }

  @inline(never)
  private static func inflateFailure(_ result: Int32, stream: z_stream, overflowed: Bool) -> String {
    if overflowed { return "stream inflates to more bytes than declared" }
    if result == Z_BUF_ERROR { return "stream ends before its last block" }
    if let message = unsafe stream.msg { return unsafe String(cString: message) }
    return "zlib error \(result)"
  }
}
