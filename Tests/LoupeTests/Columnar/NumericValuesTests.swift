import Loupe
import LoupeCodec
import TestSupport
import Testing

/// The numeric codecs round-trip every shape of data, and the writer picks the one a shape calls for.
@Suite struct NumericValuesTests {
    private func roundTrip(_ values: [UInt64]) throws -> NumericValues.Codec {
        var out = ByteWriter()
        NumericValuesWriter.write(values, into: &out)
        let file = HeapBytes(out.bytes)
        var consumed = 0
        let decoded = try unsafe NumericValues(file.slice.bytes, fileOffset: 0, consumed: &consumed)
        #expect(consumed == out.count)
        #expect(decoded.count == values.count)
        for (i, v) in values.enumerated() where decoded[i] != v {
            Issue.record("value \(i): \(decoded[i]) instead of \(v) (codec \(decoded.codec))")
            break
        }
        return decoded.codec
    }

    @Test func shapesPickTheirCodec() throws {
        #expect(try roundTrip([]) == .bitpacked)
        #expect(try roundTrip([7]) == .bitpacked)
        #expect(try roundTrip((0..<10_000).map { _ in 42 }) == .bitpacked)
        #expect(try roundTrip((0..<10_000).map { UInt64($0 % 13) }) == .bitpacked)
        #expect(try roundTrip((0..<10_000).map { 1_000_000_000 + UInt64($0) * 37 }) != .blockwiseLinear)
        #expect(try roundTrip((0..<10_000).map { UInt64($0) * 1_000 + UInt64($0 % 3) }) == .linear)
        let steps = (0..<10_000).map { (i: Int) -> UInt64 in
            let block = UInt64(i / 512)
            return block * 1_000_000 + UInt64(i % 512) * (block + 1)
        }
        #expect(try roundTrip(steps) == .blockwiseLinear)
    }

    @Test(arguments: 0..<40 as Range<UInt64>)
    func randomValuesRoundTrip(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let count = Int.random(in: 0...3_000, using: &rng)
        let bits = Int.random(in: 0...64, using: &rng)
        let base = rng.next()
        let slope = Int64.random(in: -1_000_000...1_000_000, using: &rng)
        let values: [UInt64] = (0..<count).map { i in
            let noise = bits == 64 ? rng.next() : rng.next() & ((1 << UInt64(bits)) - 1)
            return seed % 2 == 0 ? noise : base &+ UInt64(bitPattern: slope &* Int64(i)) &+ (noise >> 40)
        }
        _ = try roundTrip(values)
    }
}
