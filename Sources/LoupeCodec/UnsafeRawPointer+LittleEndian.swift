// Unchecked little-endian loads for hot paths. Callers must have validated `offset + size <= count` when the
// file was opened (see Codec.swift); on corrupt input a missed check here is a wild read, not an error.

extension UnsafeRawPointer {
    /// The little-endian `UInt32` at `offset` bytes past `self`, at any alignment.
    @inlinable package func loadU32LE(at offset: Int) -> UInt32 {
        UInt32(littleEndian: unsafe loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The little-endian `UInt64` at `offset` bytes past `self`, at any alignment.
    @inlinable package func loadU64LE(at offset: Int) -> UInt64 {
        UInt64(littleEndian: unsafe loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}

extension UnsafeRawBufferPointer {
    /// The little-endian `UInt32` at `offset`; bounds are only checked in debug builds.
    @inlinable package func loadU32LE(at offset: Int) -> UInt32 {
        UInt32(littleEndian: unsafe loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The little-endian `UInt64` at `offset`; bounds are only checked in debug builds.
    @inlinable package func loadU64LE(at offset: Int) -> UInt64 {
        UInt64(littleEndian: unsafe loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
