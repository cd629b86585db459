import CZlib

/// CRC-32 (ISO-HDLC, as zlib, gzip and PNG compute it): the footer checksum of every Loupe file.
package enum CRC32 {
    /// The CRC of `bytes`, continuing from `seed` (the CRC of the preceding bytes, or 0 to start).
    /// - Complexity: O(n); zlib's slice-by-N tables, several GB/s.
    package static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        // zlib returns its initial value, not `seed`, when handed a null pointer.
        guard let base = bytes.baseAddress, unsafe !bytes.isEmpty else { return seed }
        let crc = unsafe crc32_z(UInt(seed), base.assumingMemoryBound(to: Bytef.self), bytes.count)
        return UInt32(truncatingIfNeeded: crc)
    }

    /// The CRC of all of `bytes`.
    package static func checksum(_ bytes: [UInt8]) -> UInt32 {
        unsafe bytes.withUnsafeBytes { unsafe checksum($0) }
    }
}
