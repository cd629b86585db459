import LoupeCodec
import TestSupport
import Testing

@Suite struct BitpackedArrayTests {
    @Test(arguments: 0...64)
    func randomArraysRoundTrip(width: Int) {
        var rng = SplitMix64(seed: 1_000 + UInt64(width))
        for round in 0..<10 {
            let count = round == 0 ? 0 : Int.random(in: 1...300, using: &rng)
            var values = (0..<count).map { _ in rng.next(bits: width) }
            if round == 1 {
                values = values.map { _ in rng.next(bits: width) | (width == 0 ? 0 : UInt64.max >> (64 - width)) }
            }
            var writer = ByteWriter()
            writer.writeU8(0xEE) // decoding must not depend on alignment
            BitpackedArray.write(values, width: width, into: &writer)
            #expect(
                writer.count - 1 == BitpackedArray.byteCount(count: count, width: width),
                "width \(width) count \(count)")
            // Exactly byteCount bytes, so a read past the padding would be caught by sanitizers.
            let exact = UnsafeMutableRawBufferPointer.allocate(byteCount: writer.count - 1, alignment: 1)
            defer { exact.deallocate() }
            exact.copyBytes(from: writer.bytes[1...])
            let base = UnsafeRawPointer(exact.baseAddress!)
            let decoded = (0..<count).map { BitpackedArray.get(base, width: width, index: $0) }
            #expect(decoded == values, "width \(width) count \(count) round \(round)")
        }
    }

    @Test func requiredWidth() {
        #expect(BitpackedArray.requiredWidth(0) == 0)
        #expect(BitpackedArray.requiredWidth(1) == 1)
        #expect(BitpackedArray.requiredWidth(255) == 8)
        #expect(BitpackedArray.requiredWidth(256) == 9)
        #expect(BitpackedArray.requiredWidth(.max) == 64)
    }

    @Test func layoutIsLittleEndianBitstream() {
        var writer = ByteWriter()
        BitpackedArray.write([1, 2, 3, 0xF] as [UInt64], width: 4, into: &writer)
        #expect(writer.bytes == [0x21, 0xF3] + Array(repeating: 0, count: 8))
    }
}
