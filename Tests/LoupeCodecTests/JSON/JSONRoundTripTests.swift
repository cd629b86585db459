import Foundation
import LoupeCodec
import TestSupport
import Testing

/// Seeded random values: writer → parser must be the identity, and Foundation's
/// `JSONSerialization` must read the same text to the same value.
@Suite("JSON round trip")
struct JSONRoundTripTests {
    @Test(arguments: 0..<20 as Range<UInt64>)
    func writerOutputParsesBackToTheSameValue(seed: UInt64) throws {
        var generator = JSONValueGenerator(random: SplitMix64(seed: seed))
        for _ in 0..<100 {
            let value = generator.value()
            for pretty in [false, true] {
                let text = jsonText(value, pretty: pretty)
                let parsed = try JSONParser.parse(text)
                #expect(parsed == value, "seed \(seed): \(String(decoding: text, as: UTF8.self))")
                #expect(jsonText(parsed, pretty: pretty) == text, "seed \(seed)")
            }
        }
    }

    @Test(arguments: 0..<20 as Range<UInt64>)
    func foundationReadsTheSameValue(seed: UInt64) throws {
        var generator = JSONValueGenerator(random: SplitMix64(seed: seed))
        for _ in 0..<100 {
            let value = generator.value()
            let text = jsonText(value)
            let reference = try #require(foundationParse(text), "seed \(seed): Foundation rejected our output")
            let parsed = try JSONParser.parse(text)
            #expect(parsed.matchesFoundation(reference), "seed \(seed): \(String(decoding: text, as: UTF8.self))")
        }
    }

    /// Foundation's output uses its own spelling (escaped `/`, its number format), which the
    /// parser must read to the value Foundation meant.
    @Test(arguments: 0..<10 as Range<UInt64>)
    func parserReadsFoundationOutput(seed: UInt64) throws {
        var generator = JSONValueGenerator(random: SplitMix64(seed: seed))
        for _ in 0..<100 {
            let object = try #require(foundationParse(jsonText(generator.value())), "seed \(seed)")
            let text = try [UInt8](JSONSerialization.data(withJSONObject: [object], options: [.sortedKeys]))
            let parsed = try JSONParser.parse(text)
            #expect(parsed.matchesFoundation([object]), "seed \(seed): \(String(decoding: text, as: UTF8.self))")
        }
    }
}
