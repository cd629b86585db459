/// Growable little-endian output buffer; serializers build whole files in one and write them at once.
///
/// Fixed-width writes append byte by byte. Counted with callgrind over 1 Mi writes (Swift 6.3.1, -O), a
/// `writeU32` costs ~38 instructions and a `writeU64` ~60, against ~115 and ~185 for appending the bytes of
/// the value via `withUnsafeBytes(of:)` (generic `append(contentsOf:)` plus a `memcpy` call per write).
///
/// `@usableFromInline` on the type and `bytes` is what lets the `@inlinable` writes inline into other
/// modules: without it Swift 6.3 silently keeps mutating `@inlinable` methods of a `package` type out of line.
@usableFromInline package struct ByteWriter {
    /// The bytes written so far.
    @usableFromInline package var bytes: [UInt8]

    /// An empty writer; `capacity` avoids regrowth when the final size is roughly known.
    @inlinable package init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Number of bytes written so far, i.e. the offset the next write lands at.
    @inlinable package var count: Int { bytes.count }

    /// Appends one byte.
    @inlinable package mutating func writeU8(_ v: UInt8) {
        bytes.append(v)
    }

    /// Appends `v` little-endian.
    @inlinable @inline(__always) package mutating func writeU16(_ v: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: v))
        bytes.append(UInt8(truncatingIfNeeded: v &>> 8))
    }

    /// Appends `v` little-endian.
    @inlinable @inline(__always) package mutating func writeU32(_ v: UInt32) {
        writeU16(UInt16(truncatingIfNeeded: v))
        writeU16(UInt16(truncatingIfNeeded: v &>> 16))
    }

    /// Appends `v` little-endian.
    @inlinable package mutating func writeU64(_ v: UInt64) {
        var rest = v
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: rest))
            rest &>>= 8
        }
    }

    /// Appends `v` as LEB128: 7 bits per byte, low group first, high bit set when more bytes follow (1...10 bytes).
    @inlinable package mutating func writeVInt(_ v: UInt64) {
        var rest = v
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest &>>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }

    /// Appends the bytes of `b` unchanged.
    @inlinable package mutating func writeBytes(_ b: some Collection<UInt8>) {
        bytes.append(contentsOf: b)
    }

    /// Appends the bytes of `b` unchanged (a memcpy).
    @inlinable package mutating func writeBytes(_ b: UnsafeRawBufferPointer) {
        unsafe bytes.append(contentsOf: b)
    }

    /// Appends `b` preceded by its length as a varint; `ByteReader.readLengthPrefixed` reads it back.
    @inlinable package mutating func writeLengthPrefixed(_ b: some Collection<UInt8>) {
        writeVInt(UInt64(b.count))
        bytes.append(contentsOf: b)
    }

    /// Appends zero bytes until `count` is a multiple of `n` (> 0), so the next section starts aligned.
    @inlinable package mutating func pad(toMultipleOf n: Int) {
        precondition(n > 0, "pad(toMultipleOf:) needs a positive alignment")
        let remainder = bytes.count % n
        if remainder != 0 {
            bytes.append(contentsOf: repeatElement(0, count: n - remainder))
        }
    }

    /// Forgets every byte; by default keeps the allocation so the writer can be reused per block.
    @inlinable package mutating func removeAll(keepingCapacity: Bool = true) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
    }
}
