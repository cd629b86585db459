import LoupeCodec
import TestSupport
import Testing

@Suite struct BitPacker128Tests {
    @Test(arguments: 0...32)
    func randomBlocksRoundTrip(width: Int) {
        var rng = SplitMix64(seed: UInt64(width))
        for round in 0..<20 {
            var values = (0..<128).map { _ in UInt32(truncatingIfNeeded: rng.next(bits: width)) }
            if round == 1 { values = values.map { _ in width == 0 ? 0 : UInt32.max >> (32 - width) } }
            if round == 2 { values[Int.random(in: 0..<128, using: &rng)] = width == 0 ? 0 : UInt32.max >> (32 - width) }
            #expect(roundTrip(values, width: width) == values, "width \(width) round \(round)")
        }
    }

    @Test func requiredWidthIsBitsOfMax() {
        var values = [UInt32](repeating: 0, count: 128)
        #expect(values.withUnsafeBufferPointer { BitPacker128.requiredWidth($0) } == 0)
        values[77] = 1
        #expect(values.withUnsafeBufferPointer { BitPacker128.requiredWidth($0) } == 1)
        values[3] = 0x1000
        #expect(values.withUnsafeBufferPointer { BitPacker128.requiredWidth($0) } == 13)
        values[127] = .max
        #expect(values.withUnsafeBufferPointer { BitPacker128.requiredWidth($0) } == 32)
    }

    /// Pins the interleaved layout: value i sits in lane i % 4, slot i / 4, lane word k at word index 4k + lane.
    @Test func layoutIsFourInterleavedLanes() {
        let width = 3
        let values = (0..<128).map { UInt32($0 % 8) }
        var writer = ByteWriter()
        values.withUnsafeBufferPointer { BitPacker128.pack($0, width: width, into: &writer) }
        writer.bytes.withUnsafeBytes { buffer in
            for index in 0..<128 {
                let lane = index % 4
                let bit = (index / 4) * width
                var value = UInt64(buffer.loadU32LE(at: 4 * (4 * (bit / 32) + lane)))
                if bit % 32 + width > 32 {
                    value |= UInt64(buffer.loadU32LE(at: 4 * (4 * (bit / 32 + 1) + lane))) << 32
                }
                #expect(UInt32((value >> UInt64(bit % 32)) & 7) == values[index], "index \(index)")
            }
        }
    }

    @Test func unpackReadsUnalignedSources() {
        var rng = SplitMix64(seed: 99)
        let values = (0..<128).map { _ in UInt32(truncatingIfNeeded: rng.next(bits: 13)) }
        var writer = ByteWriter()
        writer.writeU8(0)
        values.withUnsafeBufferPointer { BitPacker128.pack($0, width: 13, into: &writer) }
        var decoded = [UInt32](repeating: 0, count: 128)
        writer.bytes.withUnsafeBytes { buffer in
            decoded.withUnsafeMutableBufferPointer {
                BitPacker128.unpack(buffer.baseAddress! + 1, width: 13, into: $0.baseAddress!)
            }
        }
        #expect(decoded == values)
    }

    private func roundTrip(_ values: [UInt32], width: Int) -> [UInt32] {
        var writer = ByteWriter()
        values.withUnsafeBufferPointer { BitPacker128.pack($0, width: width, into: &writer) }
        #expect(writer.count == BitPacker128.packedByteCount(width: width))
        var decoded = [UInt32](repeating: 0xDEAD, count: 128)
        // An extra word of slack would hide reads past the block; give the decoder exactly 16 * width bytes.
        let exact = UnsafeMutableRawBufferPointer.allocate(byteCount: max(writer.count, 1), alignment: 1)
        defer { exact.deallocate() }
        exact.copyBytes(from: writer.bytes)
        decoded.withUnsafeMutableBufferPointer {
            BitPacker128.unpack(UnsafeRawPointer(exact.baseAddress!), width: width, into: $0.baseAddress!)
        }
        return decoded
    }
}
