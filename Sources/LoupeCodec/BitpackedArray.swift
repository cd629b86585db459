/// A flat bitstream of `n` values of one fixed width (0...64) with O(1) random access — the storage of
/// columnar fast fields, where a query reads one value per matching document.
///
/// Value `i` occupies bits `[i * w, (i + 1) * w)` of a little-endian bitstream, with no header: the caller
/// stores count and width. The writer appends 8 zero bytes of padding so that `get` can always do one
/// unaligned 8-byte load (plus one more byte only when `w > 56`, where a value can span 9 bytes) without
/// bounds checks.
@usableFromInline package enum BitpackedArray {
    /// Bytes `write` appends for `count` values of `width` bits, including the 8 bytes of padding.
    package static func byteCount(count: Int, width: Int) -> Int {
        (count * width + 7) / 8 + 8
    }

    /// Appends `values` at `width` bits each, then the padding (`byteCount(count:width:)` bytes in all).
    /// - Precondition: `width` in 0...64 and every value fits in `width` bits.
    package static func write(_ values: some Collection<UInt64>, width: Int, into out: inout ByteWriter) {
        precondition((0...64).contains(width), "BitpackedArray width must be in 0...64")
        let total = byteCount(count: values.count, width: width)
        out.bytes.reserveCapacity(out.count + total)
        let start = out.count
        if width > 0 {
            var pending: UInt64 = 0 // low `pendingBits` bits not yet written
            var pendingBits = 0
            for value in values {
                precondition(width == 64 || value >> width == 0, "value \(value) does not fit in \(width) bits")
                pending |= value << pendingBits
                let filled = pendingBits + width
                if filled >= 64 {
                    out.writeU64(pending)
                    pending = pendingBits == 0 ? 0 : value >> (64 - pendingBits)
                    pendingBits = filled - 64
                } else {
                    pendingBits = filled
                }
            }
            var bits = pendingBits
            while bits > 0 {
                out.writeU8(UInt8(truncatingIfNeeded: pending))
                pending >>= 8
                bits -= 8
            }
        }
        out.bytes.append(contentsOf: repeatElement(0, count: start + total - out.count))
    }

    /// The value at `index` in the array at `base` written with `width` bits per value.
    ///
    /// Assumptions: `base` points at `byteCount(count:width:)` readable bytes for some `count > index`
    /// (validated when the file was opened) and `width` is in 0...64.
    @inlinable package static func get(_ base: UnsafeRawPointer, width: Int, index: Int) -> UInt64 {
        let bit = index &* width
        let byte = bit &>> 3
        let shift = UInt64(bit & 7)
        var value = unsafe base.loadU64LE(at: byte) &>> shift
        if width > 56 && Int(shift) &+ width > 64 {
            let high = unsafe base.load(fromByteOffset: byte &+ 8, as: UInt8.self)
            value |= UInt64(high) &<< (64 &- shift)
        }
        return width >= 64 ? value : value & ((1 &<< UInt64(width)) &- 1)
    }

    /// Bits needed to store values up to `maxValue` (0 when `maxValue == 0`).
    package static func requiredWidth(_ maxValue: UInt64) -> Int {
        64 - maxValue.leadingZeroBitCount
    }
}
