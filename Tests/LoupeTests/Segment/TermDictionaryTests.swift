import Loupe
import LoupeCodec
import Testing
import TestSupport

@Suite struct TermDictionaryTests {
    /// Random sorted unique keys over a small alphabet, so prefixes are shared and front coding is exercised.
    private func randomKeys(_ rng: inout SplitMix64, count: Int) -> [[UInt8]] {
        var keys = Set<[UInt8]>()
        while keys.count < count {
            let length = Int.random(in: 0...12, using: &rng)
            keys.insert((0..<length).map { _ in UInt8.random(in: 97...100, using: &rng) })
        }
        return keys.sorted { $0.lexicographicallyPrecedes($1) }
    }

    private func build(_ fields: [(Int, [[UInt8]])]) -> FileSlice {
        var writer = TermDictionaryWriter()
        for (field, keys) in fields {
            writer.startField(field)
            for (i, key) in keys.enumerated() {
                key.withUnsafeBufferPointer {
                    writer.add($0, TermInfo(docFreq: UInt32(i + 1), postingsOffset: UInt64(i * 10), positionsOffset: UInt64(i * 7)))
                }
            }
            writer.finishField()
        }
        return HeapBytes(writer.finish()).slice
    }

    @Test(arguments: 0..<40 as Range<UInt64>)
    func lookupAndIterationAgreeWithSortedKeys(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let keys = randomKeys(&rng, count: Int.random(in: 1...300, using: &rng))
        let other = randomKeys(&rng, count: 5)
        let reader = try TermDictionaryReader(file: build([(3, keys), (7, other)]), verifyChecksum: true)
        let dictionary = try #require(reader.field(3))
        #expect(dictionary.termCount == keys.count)
        for (i, key) in keys.enumerated() {
            let info = try dictionary.get(key)
            #expect(info == TermInfo(docFreq: UInt32(i + 1), postingsOffset: UInt64(i * 10), positionsOffset: UInt64(i * 7)), "seed \(seed)")
        }
        // Iteration from a random probe yields exactly the keys ≥ probe, in order.
        for _ in 0..<10 {
            let probe = (0..<Int.random(in: 0...5, using: &rng)).map { _ in UInt8.random(in: 97...101, using: &rng) }
            var cursor = try dictionary.cursor(from: probe)
            var seen: [[UInt8]] = []
            while cursor.isValid {
                seen.append(cursor.keyBytes)
                _ = try cursor.next()
            }
            #expect(seen == keys.filter { !$0.lexicographicallyPrecedes(probe) }, "seed \(seed) probe \(probe)")
            #expect((try dictionary.get(probe) != nil) == keys.contains(probe), "seed \(seed) probe \(probe)")
        }
        #expect(try dictionary.get([0x7A, 0x7A]) == nil)
        #expect(reader.field(7)?.termCount == other.count)
        #expect(reader.field(4) == nil)
    }

    @Test func everyTruncationIsAnErrorNotACrash() {
        let file = build([(0, [Array("alpha".utf8), Array("beta".utf8)])])
        for length in 0..<file.count {
            let cut = HeapBytes(Array(file.bytes[..<length])).slice
            #expect(throws: FormatError.self) { try TermDictionaryReader(file: cut, verifyChecksum: true) }
        }
    }
}
