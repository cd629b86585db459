// The SIMD decoder of BitPacker128 — the hottest kernel of the engine (every postings block goes through it).

extension BitPacker128 {
    /// Writes the 128 values of the block at `src`, packed at `width` bits, to `out[0..<128]`.
    ///
    /// Assumptions: `src` points at `16 * width` readable bytes (validated when the file was opened; any
    /// alignment) and `out` at 128 writable `UInt32`s; `width` is in 0...32 (other widths trap).
    ///
    /// One switch case per width calls `unpackBlock` specialized for that width (a value generic), so each
    /// width gets its own straight-line kernel with every shift, mask and straddle test folded to a constant.
    @inlinable package static func unpack(_ src: UnsafeRawPointer, width: Int, into out: UnsafeMutablePointer<UInt32>) {
        switch width {
        case 0: unsafe out.update(repeating: 0, count: blockLength)
        case 1: unsafe unpackBlock(src, out, Width<1>())
        case 2: unsafe unpackBlock(src, out, Width<2>())
        case 3: unsafe unpackBlock(src, out, Width<3>())
        case 4: unsafe unpackBlock(src, out, Width<4>())
        case 5: unsafe unpackBlock(src, out, Width<5>())
        case 6: unsafe unpackBlock(src, out, Width<6>())
        case 7: unsafe unpackBlock(src, out, Width<7>())
        case 8: unsafe unpackBlock(src, out, Width<8>())
        case 9: unsafe unpackBlock(src, out, Width<9>())
        case 10: unsafe unpackBlock(src, out, Width<10>())
        case 11: unsafe unpackBlock(src, out, Width<11>())
        case 12: unsafe unpackBlock(src, out, Width<12>())
        case 13: unsafe unpackBlock(src, out, Width<13>())
        case 14: unsafe unpackBlock(src, out, Width<14>())
        case 15: unsafe unpackBlock(src, out, Width<15>())
        case 16: unsafe unpackBlock(src, out, Width<16>())
        case 17: unsafe unpackBlock(src, out, Width<17>())
        case 18: unsafe unpackBlock(src, out, Width<18>())
        case 19: unsafe unpackBlock(src, out, Width<19>())
        case 20: unsafe unpackBlock(src, out, Width<20>())
        case 21: unsafe unpackBlock(src, out, Width<21>())
        case 22: unsafe unpackBlock(src, out, Width<22>())
        case 23: unsafe unpackBlock(src, out, Width<23>())
        case 24: unsafe unpackBlock(src, out, Width<24>())
        case 25: unsafe unpackBlock(src, out, Width<25>())
        case 26: unsafe unpackBlock(src, out, Width<26>())
        case 27: unsafe unpackBlock(src, out, Width<27>())
        case 28: unsafe unpackBlock(src, out, Width<28>())
        case 29: unsafe unpackBlock(src, out, Width<29>())
        case 30: unsafe unpackBlock(src, out, Width<30>())
        case 31: unsafe unpackBlock(src, out, Width<31>())
        case 32: unsafe UnsafeMutableRawPointer(out).copyMemory(from: src, byteCount: 16 * 32)
        default: preconditionFailure("BitPacker128 width \(width) outside 0...32")
        }
    }

    /// A width as a type, so `unpackBlock` is specialized per width: passing the width as a plain constant
    /// argument instead lets the optimizer merge the 31 inlined copies back into one slow generic loop.
    @frozen @usableFromInline
    struct Width<let bits: Int> {
        @inlinable init() {}
    }

    /// Decodes one block of width `bits` (1...31).
    ///
    /// The 32 slots are spelled out rather than looped over because the optimizer does not fully unroll a
    /// 32-trip loop; unrolled, every shift, mask and straddle test below folds to a constant, leaving per slot
    /// one shift, one AND and one store, plus a load, shift and OR when the slot crosses into the next word —
    /// the shape of Lemire's hand-written SIMD-BP128 kernels. `@inline(never)` keeps one out-of-line copy per
    /// width instead of 31 copies in every caller of `unpack`.
    @inlinable @inline(never)
    static func unpackBlock<let bits: Int>(_ src: UnsafeRawPointer, _ out: UnsafeMutablePointer<UInt32>, _: Width<bits>)
    {
        let width = bits
        let output = UnsafeMutableRawPointer(out)
        var word = unsafe src.loadUnaligned(as: SIMD4<UInt32>.self)
        unsafe unpackSlot(0, src, output, width, &word)
        unsafe unpackSlot(1, src, output, width, &word)
        unsafe unpackSlot(2, src, output, width, &word)
        unsafe unpackSlot(3, src, output, width, &word)
        unsafe unpackSlot(4, src, output, width, &word)
        unsafe unpackSlot(5, src, output, width, &word)
        unsafe unpackSlot(6, src, output, width, &word)
        unsafe unpackSlot(7, src, output, width, &word)
        unsafe unpackSlot(8, src, output, width, &word)
        unsafe unpackSlot(9, src, output, width, &word)
        unsafe unpackSlot(10, src, output, width, &word)
        unsafe unpackSlot(11, src, output, width, &word)
        unsafe unpackSlot(12, src, output, width, &word)
        unsafe unpackSlot(13, src, output, width, &word)
        unsafe unpackSlot(14, src, output, width, &word)
        unsafe unpackSlot(15, src, output, width, &word)
        unsafe unpackSlot(16, src, output, width, &word)
        unsafe unpackSlot(17, src, output, width, &word)
        unsafe unpackSlot(18, src, output, width, &word)
        unsafe unpackSlot(19, src, output, width, &word)
        unsafe unpackSlot(20, src, output, width, &word)
        unsafe unpackSlot(21, src, output, width, &word)
        unsafe unpackSlot(22, src, output, width, &word)
        unsafe unpackSlot(23, src, output, width, &word)
        unsafe unpackSlot(24, src, output, width, &word)
        unsafe unpackSlot(25, src, output, width, &word)
        unsafe unpackSlot(26, src, output, width, &word)
        unsafe unpackSlot(27, src, output, width, &word)
        unsafe unpackSlot(28, src, output, width, &word)
        unsafe unpackSlot(29, src, output, width, &word)
        unsafe unpackSlot(30, src, output, width, &word)
        unsafe unpackSlot(31, src, output, width, &word)
    }

    /// Writes values `4 * slot ..< 4 * slot + 4`. `word` holds the word vector the slot starts in; when the
    /// slot ends at or past that word's last bit, the next vector is loaded into `word` (once — the next slot
    /// starts there), so each of the `width` vectors is read exactly once and never past the block's end.
    ///
    /// A straddling value masks the high part *before* shifting it in: `(low >> s) | (high << (32 - s))` is a
    /// funnel shift, which LLVM lowers for SSE2 by scalarizing into four `shrd`s (3x slower for wide blocks).
    @inlinable @inline(__always)
    static func unpackSlot(
        _ slot: Int, _ src: UnsafeRawPointer, _ out: UnsafeMutableRawPointer, _ width: Int,
        _ word: inout SIMD4<UInt32>
    ) {
        let bit = slot &* width
        let shift = bit & 31
        let end = shift &+ width // one past the slot's last bit, counted from the start of `word`
        let nextWord = (bit &>> 5) &+ 1
        var value = word &>> UInt32(shift)
        if end < 32 {
            value &= SIMD4(repeating: (1 &<< UInt32(width)) &- 1)
        }
        if end >= 32 && nextWord < width {
            word = unsafe src.loadUnaligned(fromByteOffset: nextWord &* 16, as: SIMD4<UInt32>.self)
            if end > 32 {
                let highBits = SIMD4<UInt32>(repeating: (1 &<< UInt32(end &- 32)) &- 1)
                value |= (word & highBits) &<< UInt32(32 &- shift)
            }
        }
        unsafe out.storeBytes(of: value, toByteOffset: slot &* 16, as: SIMD4<UInt32>.self)
    }
}
