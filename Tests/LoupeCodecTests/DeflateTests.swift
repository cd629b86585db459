import LoupeCodec
import TestSupport
import Testing

/// `Deflater` and `Inflater`, each reused across calls as the document store uses them.
@Suite struct DeflateTests {
    let inflater = Inflater()

    func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        let deflater = Deflater(level: level)
        _ = Array("warm-up input so the stream is reset, not fresh".utf8).withUnsafeBytes { deflater.compress($0) }
        return bytes.withUnsafeBytes { deflater.compress($0) }
    }

    func decompress(_ bytes: [UInt8], size: Int) throws -> [UInt8] {
        try bytes.withUnsafeBytes { buffer in try inflater.decompress(buffer, decompressedSize: size) }
    }

    @Test(arguments: [0, 1, 6, 9] as [Int32])
    func roundTrips(level: Int32) throws {
        var rng = SplitMix64(seed: UInt64(level))
        let text = Array(
            String(repeating: "{\"title\": \"loupe\", \"body\": \"a small search engine\"}\n", count: 500).utf8)
        let noise = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        for input in [[], [42], text, noise] as [[UInt8]] {
            let compressed = compress(input, level: level)
            #expect(try decompress(compressed, size: input.count) == input, "level \(level) size \(input.count)")
        }
        #expect(compress(text, level: level).count < (level == 0 ? text.count + 100 : text.count / 10))
    }

    @Test func emptyInputCompressesToAValidStream() throws {
        let compressed = compress([])
        #expect(!compressed.isEmpty)
        #expect(try decompress(compressed, size: 0) == [])
    }

    @Test func wrongDeclaredSizeIsAnError() {
        let input = Array("hello hello hello hello".utf8)
        let compressed = compress(input)
        #expect(throws: FormatError.self) { try decompress(compressed, size: input.count - 1) }
        #expect(throws: FormatError.self) { try decompress(compressed, size: input.count + 1) }
        #expect(throws: FormatError.self) { try decompress(compressed, size: -1) }
        #expect(throws: FormatError.self) { try decompress(compressed, size: Int.max / 2048) }
    }

    @Test func corruptInputIsADecompressionError() {
        var rng = SplitMix64(seed: 5)
        let input = (0..<5_000).map { _ in UInt8(truncatingIfNeeded: rng.next(bits: 3)) }
        let compressed = compress(input)
        for length in [0, 1, compressed.count / 2, compressed.count - 1] {
            let error = #expect(throws: FormatError.self) {
                try decompress(Array(compressed.prefix(length)), size: input.count)
            }
            guard case .decompression = error else {
                Issue.record("length \(length): expected .decompression, got \(String(describing: error))")
                continue
            }
        }
        #expect(throws: FormatError.self) { try decompress([0xFF, 0xFF, 0xFF, 0xFF], size: 10) }
        for _ in 0..<200 {
            var corrupt = compressed
            let bit = Int.random(in: 0..<(corrupt.count * 8), using: &rng)
            corrupt[bit / 8] ^= 1 << (bit % 8)
            // A flip may still inflate to the same size; it must never trap, and a failure must be .decompression.
            do {
                _ = try decompress(corrupt, size: input.count)
            } catch {
                guard case .decompression = error as? FormatError else {
                    Issue.record("bit \(bit): expected .decompression, got \(error)")
                    continue
                }
            }
        }
    }

    @Test(arguments: 0..<20 as Range<UInt64>)
    func prefixesInflateOnlyWhatIsNeeded(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let input = (0..<Int.random(in: 1...20_000, using: &rng)).map { _ in
            UInt8(truncatingIfNeeded: rng.next(bits: 4))
        }
        let compressed = compress(input, level: 1)
        let wanted = Int.random(in: 0...input.count, using: &rng)
        var calls = 0
        let prefix = try compressed.withUnsafeBytes { buffer in
            try inflater.decompressPrefix(buffer, decompressedSize: input.count) { soFar in
                calls += 1
                // Ask in two steps, as the document store does: a header first, then the rest.
                return soFar.count < min(4, wanted) ? min(4, wanted) : wanted
            }
        }
        #expect(prefix.count >= wanted && prefix.count <= input.count, "seed \(seed)")
        #expect(Array(input.prefix(prefix.count)) == prefix, "seed \(seed)")
        #expect(calls <= 3, "seed \(seed)")
        // A stream cut short fails once the wanted bytes lie past its end; it never traps.
        let cut = Array(compressed.prefix(compressed.count / 3))
        do {
            let partial = try cut.withUnsafeBytes { buffer in
                try inflater.decompressPrefix(buffer, decompressedSize: input.count) { _ in input.count }
            }
            Issue.record("seed \(seed): a third of the stream inflated to \(partial.count) of \(input.count) bytes")
        } catch {
            guard case .decompression = error as? FormatError else {
                Issue.record("seed \(seed): expected .decompression, got \(error)")
                return
            }
        }
    }
}
