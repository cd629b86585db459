/// Order-preserving maps from every numeric field type to `UInt64`.
///
/// Terms, fast-field columns and range scans all work on these mapped values, so one sorted order
/// serves every type: comparing mapped values compares the originals. The maps are bijections, so a
/// stored or fast value converts back exactly.
package enum NumericMapping {
    @inline(__always) package static func fromI64(_ v: Int64) -> UInt64 { UInt64(bitPattern: v) ^ (1 << 63) }
    @inline(__always) package static func toI64(_ v: UInt64) -> Int64 { Int64(bitPattern: v ^ (1 << 63)) }

    /// Negative doubles have every bit flipped, positive ones only the sign bit: the IEEE 754 trick that makes
    /// bit patterns sort like the numbers. -0.0 is stored as 0.0 so the two compare equal, as they do as numbers.
    @inline(__always) package static func fromF64(_ v: Double) -> UInt64 {
        let bits = (v == 0 ? 0.0 : v).bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }

    @inline(__always) package static func toF64(_ v: UInt64) -> Double {
        Double(bitPattern: v & (1 << 63) != 0 ? v & ~(1 << 63) : ~v)
    }

    /// A mapped value as the 8 big-endian bytes used as its term, so byte order equals numeric order.
    @inline(__always) package static func termBytes(_ v: UInt64) -> [UInt8] {
        unsafe withUnsafeBytes(of: v.bigEndian) { unsafe Array($0) }
    }

    /// The mapped value of an 8-byte term, or nil if the term has another length.
    package static func fromTermBytes(_ bytes: some Collection<UInt8>) -> UInt64? {
        guard bytes.count == 8 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
