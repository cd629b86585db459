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

    /// Decodes the varint at `base + offset` if it ends before `end`, advancing `offset` past it; nil when it runs
    /// past `end` or beyond 64 bits. The checked form for hot loops: one compare per byte, no throwing call.
    @inlinable package static func decode(_ base: UnsafeRawPointer, at offset: inout Int, end: Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < end && shift < 64 {
            let byte = unsafe base.load(fromByteOffset: offset, as: UInt8.self)
            offset &+= 1
            value |= UInt64(byte & 0x7F) &<< shift
            if byte < 0x80 { return value }
            shift &+= 7
        }
        return nil
    }

    /// Bytes `ByteWriter.writeVInt(v)` appends: 1 for 0...127, up to 10 for values above 2^63 - 1.
    @inlinable package static func encodedSize(_ v: UInt64) -> Int {
        let bits = 64 &- (v | 1).leadingZeroBitCount
        return (bits &+ 6) / 7
    }
}
