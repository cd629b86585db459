/// Checked cursor over borrowed bytes (it does not own them). Every read throws `.truncated` on short input,
/// so parsing untrusted bytes can fail but never trap.
///
/// The memory behind `buffer` must outlive the reader and every sub-view it returns.
@safe package struct ByteReader {
    /// The bytes being read; offsets in errors are relative to its start.
    package let buffer: UnsafeRawBufferPointer
    /// Position of the next read within `buffer`.
    package var offset: Int

    /// A cursor over `buffer` starting at `offset` (which may equal `buffer.count`, leaving nothing to read).
    package init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
        precondition(offset >= 0 && offset <= buffer.count, "ByteReader offset outside its buffer")
        unsafe self.buffer = buffer
        self.offset = offset
    }

    /// Bytes left after `offset`.
    package var remaining: Int { unsafe buffer.count - offset }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { unsafe offset == buffer.count }

    /// Reads one byte.
    /// - Throws: `.truncated` at the end of the buffer.
    package mutating func readU8() throws(FormatError) -> UInt8 {
        try require(1)
        defer { offset += 1 }
        return unsafe buffer[offset]
    }

    /// Reads a little-endian `UInt16`.
    /// - Throws: `.truncated` if fewer than 2 bytes remain.
    package mutating func readU16() throws(FormatError) -> UInt16 {
        try readLittleEndian(UInt16.self)
    }

    /// Reads a little-endian `UInt32`.
    /// - Throws: `.truncated` if fewer than 4 bytes remain.
    package mutating func readU32() throws(FormatError) -> UInt32 {
        try readLittleEndian(UInt32.self)
    }

    /// Reads a little-endian `UInt64`.
    /// - Throws: `.truncated` if fewer than 8 bytes remain.
    package mutating func readU64() throws(FormatError) -> UInt64 {
        try readLittleEndian(UInt64.self)
    }

    /// Reads a LEB128 varint as written by `ByteWriter.writeVInt`.
    /// - Throws: `.truncated` if the buffer ends inside the varint; `.malformed` if it is longer than 10 bytes
    ///   or its value does not fit in 64 bits.
    package mutating func readVInt() throws(FormatError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var position = offset
        while true {
            guard unsafe position < buffer.count else {
                throw .truncated(offset: start, needed: position - start + 1, available: unsafe buffer.count - start)
            }
            let byte = unsafe buffer[position]
            position += 1
            if shift == 63 && byte > 1 {
                let reason = byte & 0x80 != 0 ? "varint longer than 10 bytes" : "varint overflows 64 bits"
                throw .malformed(offset: start, reason: reason)
            }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { break }
            shift += 7
        }
        offset = position
        return value
    }

    /// Reads a varint that must fit in 32 bits (counts, doc ids, lengths).
    /// - Throws: as `readVInt`, plus `.malformed` if the value exceeds `UInt32.max`.
    package mutating func readVInt32() throws(FormatError) -> UInt32 {
        let start = offset
        let value = try readVInt()
        guard let narrow = UInt32(exactly: value) else {
            offset = start
            throw .malformed(offset: start, reason: "varint \(value) exceeds UInt32.max")
        }
        return narrow
    }

    /// Returns the next `count` bytes as a view into `buffer` (no copy) and moves past them.
    /// - Throws: `.truncated` if fewer than `count` bytes remain; `.malformed` if `count` is negative.
    package mutating func readBytes(_ count: Int) throws(FormatError) -> UnsafeRawBufferPointer {
        guard count >= 0 else { throw .malformed(offset: offset, reason: "negative length \(count)") }
        try require(count)
        defer { offset += count }
        return unsafe UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
    }

    /// Reads a varint length then that many bytes, as written by `ByteWriter.writeLengthPrefixed`.
    /// - Throws: as `readVInt`, plus `.truncated` (at the payload's offset) if the bytes run past the end; the
    ///   cursor is then left before the length.
    package mutating func readLengthPrefixed() throws(FormatError) -> UnsafeRawBufferPointer {
        let start = offset
        let length = try readVInt()
        guard let count = Int(exactly: length), count <= remaining else {
            let payload = offset
            offset = start
            throw .truncated(offset: payload, needed: Int(clamping: length), available: unsafe buffer.count - payload)
        }
        return unsafe try readBytes(count)
    }

    /// Moves past `count` bytes without reading them.
    /// - Throws: `.truncated` if fewer than `count` bytes remain; `.malformed` if `count` is negative.
    package mutating func skip(_ count: Int) throws(FormatError) {
        guard count >= 0 else { throw .malformed(offset: offset, reason: "negative length \(count)") }
        try require(count)
        offset += count
    }

    private func require(_ count: Int) throws(FormatError) {
        if count > remaining {
            throw .truncated(offset: offset, needed: count, available: remaining)
        }
    }

    private mutating func readLittleEndian<T: FixedWidthInteger>(_: T.Type) throws(FormatError) -> T {
        try require(MemoryLayout<T>.size)
        defer { offset += MemoryLayout<T>.size }
        return T(littleEndian: unsafe buffer.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
