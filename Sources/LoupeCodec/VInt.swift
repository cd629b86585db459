/// LEB128 varints: 7 bits per byte, low group first, high bit set when more bytes follow.
///
/// `ByteWriter.writeVInt` and `ByteReader.readVInt` are the checked forms; these are the unchecked ones for
/// loops over regions whose bounds were validated up front.
@usableFromInline package enum VInt {
  /// Decodes the varint at `base + offset` and advances `offset` past it.
  ///
  /// Assumptions: the varint is complete and at most 10 bytes lie inside validated memory (e.g. the region was
  /// parsed once with `ByteReader`, or ends in at least 10 bytes of padding). Bits beyond 64 are dropped.
  @inlinable package static func decode(_ base: UnsafeRawPointer, at offset: inout Int) -> UInt64 {
    var byte = unsafe base.load(fromByteOffset: offset, as: UInt8.self)
    offset &+= 1
    if byte < 0x80 { return UInt64(byte) }
    var value = UInt64(byte & 0x7F)
    var shift: UInt64 = 7
    repeat {
      byte = unsafe base.load(fromByteOffset: offset, as: UInt8.self)
      offset &+= 1
      value |= UInt64(byte & 0x7F) &<< shift
      shift &+= 7
    } while byte >= 0x80 && shift < 70
    return value
  }

  /// Bytes `ByteWriter.writeVInt(v)` appends: 1 for 0...127, up to 10 for values above 2^63 - 1.
  @inlinable package static func encodedSize(_ v: UInt64) -> Int {
    let bits = 64 &- (v | 1).leadingZeroBitCount
    return (bits &+ 6) / 7
  }
}
