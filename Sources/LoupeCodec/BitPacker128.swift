/// 128-value blocks of `UInt32` in the SIMD-BP128 "4 lanes interleaved" layout (Lemire & Boytsov, "Decoding
/// billions of integers per second through vectorization", 2015).
///
/// Value `i` belongs to lane `i % 4`, slot `i / 4`. Each lane is a little-endian bitstream of 32-bit words in
/// which slot `s` occupies bits `[s * w, (s + 1) * w)`; word `k` of lane `j` is stored at 32-bit word index
/// `4k + j`. A block of width `w` therefore occupies exactly `16 * w` bytes (`w` in 0...32), with no header:
/// the caller stores the width.
///
/// Why interleave: word vector `k` (words `4k ..< 4k + 4`) holds word `k` of all four lanes, so a single
/// `SIMD4<UInt32>` shift/mask yields slots `s` of all lanes — values `4s ..< 4s + 4`, contiguous in the output.
@usableFromInline package enum BitPacker128 {
    /// Values per block; postings are cut into blocks of this many documents.
    @usableFromInline package static let blockLength = 128

    /// Bytes of one packed block of `width` bits per value.
    @inlinable package static func packedByteCount(width: Int) -> Int { 16 &* width }

    /// Bits needed for the largest of `values` (0 when all are zero).
    /// - Complexity: O(n).
    @inlinable package static func requiredWidth(_ values: UnsafeBufferPointer<UInt32>) -> Int {
        var union: UInt32 = 0
        for i in values.indices { union |= unsafe values[i] }
        return 32 &- union.leadingZeroBitCount
    }

    /// Appends the 128 `values` packed at `width` bits each (`16 * width` bytes).
    ///
    /// Scalar on purpose: blocks are packed once at indexing time but unpacked on every query.
    /// - Precondition: `values.count == 128`, `width` in 0...32 and every value fits in `width` bits.
    package static func pack(_ values: UnsafeBufferPointer<UInt32>, width: Int, into out: inout ByteWriter) {
        precondition(values.count == blockLength, "BitPacker128 packs exactly 128 values")
        precondition((0...32).contains(width), "BitPacker128 width must be in 0...32")
        guard width > 0 else { return }
        precondition(width == 32 || (unsafe requiredWidth(values)) <= width, "value does not fit in \(width) bits")
        let start = out.count
        out.bytes.append(contentsOf: repeatElement(0, count: packedByteCount(width: width)))
        unsafe out.bytes.withUnsafeMutableBytes { bytes in
            let words = unsafe UnsafeMutableRawBufferPointer(rebasing: bytes[start...])
            for lane in 0..<4 {
                for slot in 0..<32 {
                    let value = unsafe values[4 * slot + lane]
                    let bit = slot * width
                    let shift = bit & 31
                    let index = 4 * (bit >> 5) + lane
                    unsafe orWord(words, index, value << shift)
                    if shift + width > 32 {
                        unsafe orWord(words, index + 4, value >> (32 - shift))
                    }
                }
            }
        }
    }

    private static func orWord(_ words: UnsafeMutableRawBufferPointer, _ index: Int, _ bits: UInt32) {
        let word = unsafe words.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self)
        unsafe words.storeBytes(
            of: (UInt32(littleEndian: word) | bits).littleEndian, toByteOffset: 4 * index, as: UInt32.self)
    }
}
