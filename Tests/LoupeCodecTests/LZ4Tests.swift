import Foundation
import LoupeCodec
import TestSupport
import Testing

/// `LZ4Compressor` and `LZ4.decompress`: round trips, blocks written by the reference implementation, prefixes
/// and resumption as the document store uses them, and damaged input.
@Suite struct LZ4Tests {
    static let fixtures = FixturePaths.root + "/Tests/LoupeCodecTests/Fixtures/LZ4"
    static let fixtureNames = ["empty", "short", "movies", "runs", "random"]

    /// Real text: the start of the movies corpus, as JSON lines.
    static let text: [UInt8] = {
        let reader = try! LineReader(path: FixturePaths.moviesCorpus)
        var bytes: [UInt8] = []
        while bytes.count < 1 << 20, let line = try! reader.nextLine() {
            bytes.append(contentsOf: line)
            bytes.append(0x0A)
        }
        return bytes
    }()

    static func compress(_ input: [UInt8], _ compressor: inout LZ4Compressor) -> [UInt8] {
        var out: [UInt8] = [0xEE] // appending after existing bytes must leave them alone
        input.withUnsafeBytes { compressor.compress($0, appendingTo: &out) }
        precondition(out[0] == 0xEE)
        return Array(out.dropFirst())
    }

    static func decompress(_ block: [UInt8], size: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: size)
        try block.withUnsafeBytes { src in try out.withUnsafeMutableBytes { dst in try LZ4.decompress(src, into: dst) }
        }
        return out
    }

    static func roundTrip(_ input: [UInt8], _ compressor: inout LZ4Compressor, _ note: String) throws {
        let block = compress(input, &compressor)
        #expect(block.count <= LZ4.maxCompressedSize(input.count), "\(note)")
        #expect(try decompress(block, size: input.count) == input, "\(note)")
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try #require(FileManager.default.contents(atPath: fixtures + "/" + name), "missing fixture \(name)"))
    }

    @Test(arguments: 0..<4 as Range<UInt64>)
    func everySmallLengthRoundTrips(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var compressor = LZ4Compressor()
        let bits = [1, 2, 4, 8][Int(seed)]
        let source = (0..<700).map { _ in UInt8(truncatingIfNeeded: rng.next(bits: bits)) }
        for length in 0...600 {
            try Self.roundTrip(Array(source.prefix(length)), &compressor, "seed \(seed) random length \(length)")
            let text = Array(Self.text[(Int(seed) * 997)...].prefix(length))
            try Self.roundTrip(text, &compressor, "seed \(seed) text length \(length)")
        }
    }

    @Test func bigInputsRoundTrip() throws {
        var rng = SplitMix64(seed: 11)
        var compressor = LZ4Compressor()
        try Self.roundTrip(Self.text, &compressor, "1 MiB of text")
        #expect(Self.compress(Self.text, &compressor).count < Self.text.count / 2, "text compresses")
        let noise = (0..<300_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        try Self.roundTrip(noise, &compressor, "incompressible")
        #expect(Self.compress(noise, &compressor).count <= LZ4.maxCompressedSize(noise.count))
        let zeros = [UInt8](repeating: 0, count: 500_000)
        try Self.roundTrip(zeros, &compressor, "zeros")
        #expect(Self.compress(zeros, &compressor).count < 3_000, "a run is a few long matches")
        var mixed: [UInt8] = []
        while mixed.count < 400_000 {
            if Bool.random(using: &rng) {
                let start = Int.random(in: 0..<Self.text.count - 5_000, using: &rng)
                mixed.append(contentsOf: Self.text[start...].prefix(Int.random(in: 1...5_000, using: &rng)))
            } else {
                let byte = UInt8.random(in: 0...255, using: &rng)
                mixed.append(contentsOf: repeatElement(byte, count: Int.random(in: 1...3_000, using: &rng)))
            }
        }
        try Self.roundTrip(mixed, &compressor, "text and runs")
    }

    @Test func overlappingMatchesRepeatTheirPattern() throws {
        var rng = SplitMix64(seed: 3)
        var compressor = LZ4Compressor()
        for period in 1...24 {
            let pattern = (0..<period).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            for length in [period * 2, 50, 333, 5_000, 70_000] {
                let input = (0..<length).map { pattern[$0 % period] }
                try Self.roundTrip(input, &compressor, "period \(period) length \(length)")
                if length >= 333 {
                    #expect(Self.compress(input, &compressor).count < length / 4, "period \(period) length \(length)")
                }
            }
        }
    }

    @Test func reusedCompressorMatchesAFreshOne() throws {
        var reused = LZ4Compressor()
        for start in stride(from: 0, to: 200_000, by: 16_384) {
            let input = Array(Self.text[start..<(start + 16_384)])
            var fresh = LZ4Compressor()
            #expect(Self.compress(input, &reused) == Self.compress(input, &fresh), "block at \(start)")
        }
    }

    @Test(arguments: fixtureNames)
    func referenceBlocksDecode(name: String) throws {
        let original = try Self.fixture(name + ".bin")
        for suffix in [".lz4", ".hc.lz4"] {
            #expect(
                try Self.decompress(Self.fixture(name + suffix), size: original.count) == original, "\(name)\(suffix)")
        }
        var compressor = LZ4Compressor()
        try Self.roundTrip(original, &compressor, name)
    }

    /// With LOUPE_LZ4_EXPORT=DIR, writes this compressor's blocks of the fixtures and of a few inputs of every kind
    /// for `Fixtures/LZ4/make_fixtures.py --check DIR`, which decodes them with the reference implementation.
    @Test func exportsBlocksForTheReference() throws {
        guard let directory = ProcessInfo.processInfo.environment["LOUPE_LZ4_EXPORT"] else { return }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var rng = SplitMix64(seed: 99)
        var inputs: [(String, [UInt8])] = try Self.fixtureNames.map { ($0, try Self.fixture($0 + ".bin")) }
        inputs.append(("text-1MiB", Self.text))
        for length in [13, 64, 4_096, 16_384, 70_000] {
            inputs.append(("text-\(length)", Array(Self.text.prefix(length))))
            inputs.append(("noise-\(length)", (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next(bits: 3)) }))
        }
        for period in [1, 3, 7, 15] { inputs.append(("period-\(period)", (0..<20_000).map { UInt8($0 % period) })) }
        var compressor = LZ4Compressor()
        for (name, input) in inputs {
            try Data(input).write(to: URL(fileURLWithPath: directory + "/" + name + ".bin"))
            try Data(Self.compress(input, &compressor)).write(to: URL(fileURLWithPath: directory + "/" + name + ".lz4"))
        }
    }

    @Test(arguments: 0..<30 as Range<UInt64>)
    func prefixesDecodeOnlyWhatIsAskedAndResume(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let start = Int.random(in: 0..<(Self.text.count - 40_000), using: &rng)
        let input = Array(Self.text[start...].prefix(Int.random(in: 1...40_000, using: &rng)))
        var compressor = LZ4Compressor()
        let block = Self.compress(input, &compressor)
        let wanted = Int.random(in: 0...input.count, using: &rng)
        var out = [UInt8](repeating: 0, count: input.count)
        let progress = try block.withUnsafeBytes { src in
            try out.withUnsafeMutableBytes { dst in try LZ4.decompress(src, into: dst, from: .start, atLeast: wanted) }
        }
        #expect(progress.output >= wanted && progress.output <= input.count, "seed \(seed)")
        #expect(progress.output < input.count ? !progress.isComplete : true, "seed \(seed)")
        #expect(out.prefix(progress.output) == input.prefix(progress.output), "seed \(seed)")
        // Resume in a fresh buffer holding only the final prefix, as the store does when a later document is wanted.
        var resumed = [UInt8](repeating: 0xAA, count: input.count)
        resumed.replaceSubrange(0..<progress.output, with: out.prefix(progress.output))
        let end = try block.withUnsafeBytes { src in
            try resumed.withUnsafeMutableBytes { dst in
                try LZ4.decompress(src, into: dst, from: progress, atLeast: .max)
            }
        }
        #expect(end == LZ4.Progress(input: block.count, output: input.count, isComplete: true), "seed \(seed)")
        #expect(resumed == input, "seed \(seed)")
    }

    @Test func wrongSizesAreErrors() throws {
        var compressor = LZ4Compressor()
        let input = Array(Self.text.prefix(5_000))
        let block = Self.compress(input, &compressor)
        #expect(throws: FormatError.self) { try Self.decompress(block, size: input.count - 1) }
        #expect(throws: FormatError.self) { try Self.decompress(block, size: input.count + 1) }
        #expect(throws: FormatError.self) { try Self.decompress(block, size: 0) }
        #expect(throws: FormatError.self) { try Self.decompress([], size: 0) }
        #expect(try Self.decompress([0x00], size: 0) == [])
    }

    @Test func handcraftedDamageIsAnErrorAtItsOffset() {
        let cases: [([UInt8], Int, Int)] = [
            ([0x10], 1, 1), // one literal announced, none there
            ([0x00, 0x00, 0x00], 8, 1), // offset 0
            ([0x10, 0x41, 0x02, 0x00], 8, 2), // offset 2 with 1 byte decoded
            ([0x10, 0x41, 0x01], 8, 2), // half an offset
            ([0xF0] + [UInt8](repeating: 0xFF, count: 50), 100_000, 51), // a literal length that never ends
            // a match length that never ends
            ([0x1F, 0x41, 0x01, 0x00] + [UInt8](repeating: 0xFF, count: 40), 100_000, 44),
            ([0x1F, 0x41, 0x01, 0x00, 0xFF, 0x00, 0x00], 100, 6), // a match past the output
        ]
        for (block, size, offset) in cases {
            let error = #expect(throws: FormatError.self) { try Self.decompress(block, size: size) }
            guard case .decompression(let at, _) = error else {
                Issue.record("\(block.prefix(8)): expected .decompression, got \(String(describing: error))")
                continue
            }
            #expect(at == offset, "\(block.prefix(8))")
        }
    }

    @Test func damagedBlocksThrowOrDecodeWithoutTrapping() throws {
        var rng = SplitMix64(seed: 21)
        var compressor = LZ4Compressor()
        let inputs = [
            Array(Self.text.prefix(3_000)), (0..<2_000).map { UInt8($0 % 3) },
            (0..<1_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) },
        ]
        for input in inputs {
            let block = Self.compress(input, &compressor)
            for length in 0..<block.count {
                #expect(throws: FormatError.self, "truncated to \(length)") {
                    try Self.decompress(Array(block.prefix(length)), size: input.count)
                }
            }
            for _ in 0..<3_000 {
                var damaged = block
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    let value = rng.chance(1, in: 2) ? UInt8.random(in: 0...255, using: &rng) : 0xFF
                    damaged[Int.random(in: 0..<damaged.count, using: &rng)] = value
                }
                let size = rng.chance(1, in: 4) ? Int.random(in: 0...(input.count * 2), using: &rng) : input.count
                var out = [UInt8](repeating: 0, count: size)
                do {
                    try damaged.withUnsafeBytes { src in
                        try out.withUnsafeMutableBytes { dst in
                            _ = try LZ4.decompress(
                                src, into: dst, from: .start, atLeast: Int.random(in: 0...size, using: &rng))
                            try LZ4.decompress(src, into: dst)
                        }
                    }
                } catch {
                    guard case .decompression = error as? FormatError else {
                        Issue.record("expected .decompression, got \(error)")
                        continue
                    }
                }
            }
        }
    }
}
