import LoupeCodec
import TestSupport
import Testing

/// Hostile input must end in a `JSONError` inside the buffer, never a crash; anything accepted
/// must survive a write/parse round trip; and the verdict must agree with Foundation's.
@Suite("JSON fuzz")
struct JSONFuzzTests {
    /// JSON's own bytes plus the UTF-8 troublemakers, so random input gets deep into the grammar.
    static let alphabet: [UInt8] =
        Array(#"{}[],:"\ -+.0123456789eEtruefalsnu/"#.utf8) + [
            0x00, 0x09, 0x0A, 0x1F, 0x80, 0xBF, 0xC3, 0xED, 0xF0, 0xF4, 0xFF,
        ]

    @Test(arguments: 0..<10 as Range<UInt64>)
    func randomBytesAreRejectedCleanly(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                Bool.random(using: &random)
                    ? Self.alphabet[Int.random(in: Self.alphabet.indices, using: &random)]
                    : UInt8.random(in: .min ... .max, using: &random)
            }
            checkVerdict(bytes, seed: seed)
        }
    }

    @Test(arguments: 0..<10 as Range<UInt64>)
    func mutatedDocumentsAreRejectedCleanly(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var generator = JSONValueGenerator(random: SplitMix64(seed: seed))
        for _ in 0..<200 {
            var bytes = jsonText(generator.value())
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                mutate(&bytes, using: &random)
            }
            checkVerdict(bytes, seed: seed)
        }
    }

    @Test(arguments: 0..<5 as Range<UInt64>)
    func everyTruncationOfAContainerIsRejected(seed: UInt64) throws {
        var generator = JSONValueGenerator(random: SplitMix64(seed: seed))
        for _ in 0..<5 {
            let value: JSONValue = [generator.value(), ["k": generator.value()]]
            let bytes = jsonText(value, pretty: seed.isMultiple(of: 2))
            for length in 0..<bytes.count {
                let error = #expect(throws: JSONError.self, "seed \(seed), length \(length)") {
                    try JSONParser.parse(Array(bytes[..<length]))
                }
                // Found at the end, or at the lead byte of a cut UTF-8 sequence.
                #expect(error.map { (length - 3...length).contains($0.offset) } == true, "seed \(seed)")
            }
        }
    }

    private func mutate(_ bytes: inout [UInt8], using random: inout SplitMix64) {
        guard !bytes.isEmpty else { return bytes.append(Self.alphabet[0]) }
        let index = Int.random(in: bytes.indices, using: &random)
        let byte = Self.alphabet[Int.random(in: Self.alphabet.indices, using: &random)]
        switch Int.random(in: 0..<4, using: &random) {
        case 0: bytes[index] = byte
        case 1: bytes.insert(byte, at: index)
        case 2: bytes.remove(at: index)
        default: bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        }
    }

    private func checkVerdict(_ bytes: [UInt8], seed: UInt64) {
        let text = String(decoding: bytes, as: UTF8.self).debugDescription
        // Foundation takes a NUL byte for the end of input (it accepts "6\u{0}1"), so it is no
        // reference for such documents.
        let reference = bytes.contains(0) ? nil : foundationParse(bytes)
        do {
            let value = try JSONParser.parse(bytes)
            #expect(try JSONParser.parse(jsonText(value)) == value, "seed \(seed): \(text)")
            if !bytes.contains(0) {
                #expect(reference.map(value.matchesFoundation) == true, "seed \(seed): Foundation disagrees on \(text)")
            }
        } catch {
            #expect((0...bytes.count).contains(error.offset), "seed \(seed): \(text)")
            #expect(reference == nil, "seed \(seed): Foundation accepts \(text); we say \(error)")
        }
    }
}
