import LoupeCodec
import TestSupport
import Testing

@Suite struct VIntTests {
    static let edgeValues: [UInt64] = [
        0, 1, 127, 128, 255, 16_383, 16_384, 1 << 21, UInt64(UInt32.max), 1 << 35, 1 << 56, 1 << 63, .max,
    ]

    @Test(arguments: edgeValues)
    func edgeValuesRoundTrip(value: UInt64) throws {
        try expectRoundTrip([value], context: "value \(value)")
    }

    @Test func encodedSizeMatchesWriter() {
        var rng = SplitMix64(seed: 7)
        for value in Self.edgeValues + (0..<1_000).map({ _ in rng.next(bits: Int.random(in: 0...64, using: &rng)) }) {
            var writer = ByteWriter()
            writer.writeVInt(value)
            #expect(VInt.encodedSize(value) == writer.count, "value \(value)")
        }
    }

    @Test func knownEncodings() {
        var writer = ByteWriter()
        writer.writeVInt(0)
        writer.writeVInt(127)
        writer.writeVInt(128)
        writer.writeVInt(300)
        #expect(writer.bytes == [0x00, 0x7F, 0x80, 0x01, 0xAC, 0x02])
        writer.removeAll()
        writer.writeVInt(.max)
        #expect(writer.bytes == Array(repeating: 0xFF, count: 9) + [0x01])
    }

    @Test(arguments: 0..<20 as Range<UInt64>)
    func randomSequencesRoundTrip(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let values = (0..<200).map { _ in rng.next(bits: Int.random(in: 0...64, using: &rng)) }
        try expectRoundTrip(values, context: "seed \(seed)")
    }

    @Test func overlongVarintIsMalformed() {
        let bytes: [UInt8] = Array(repeating: 0x80, count: 10) + [0x00]
        bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            #expect(throws: FormatError.malformed(offset: 0, reason: "varint longer than 10 bytes")) {
                try reader.readVInt()
            }
        }
    }

    @Test func varintAbove64BitsIsMalformed() {
        let bytes: [UInt8] = Array(repeating: 0xFF, count: 9) + [0x02]
        bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            #expect(throws: FormatError.malformed(offset: 0, reason: "varint overflows 64 bits")) {
                try reader.readVInt()
            }
        }
    }

    @Test func varint32RejectsLargeValues() throws {
        var writer = ByteWriter()
        writer.writeVInt(UInt64(UInt32.max))
        writer.writeVInt(UInt64(UInt32.max) + 1)
        try writer.bytes.withUnsafeBytes { (buffer) throws in
            var reader = ByteReader(buffer)
            #expect(try reader.readVInt32() == .max)
            let start = reader.offset
            #expect(throws: FormatError.self) { try reader.readVInt32() }
            #expect(reader.offset == start)
        }
    }

    private func expectRoundTrip(_ values: [UInt64], context: String) throws {
        var writer = ByteWriter()
        for value in values { writer.writeVInt(value) }
        try writer.bytes.withUnsafeBytes { (buffer) throws in
            var reader = ByteReader(buffer)
            var offset = 0
            for value in values {
                #expect(try reader.readVInt() == value, "\(context)")
                #expect(VInt.decode(buffer.baseAddress!, at: &offset) == value, "\(context)")
            }
            #expect(reader.isAtEnd, "\(context)")
            #expect(offset == buffer.count, "\(context)")
        }
    }
}
