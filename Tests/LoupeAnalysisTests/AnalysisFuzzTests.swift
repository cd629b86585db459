import LoupeAnalysis
import TestSupport
import Testing

/// Seeded random inputs through every built-in analyzer: nothing traps, positions increase, offsets stay
/// on scalar boundaries, and the fused built-ins agree with the same pipelines built from public parts.
@Suite struct AnalysisFuzzTests {
    /// Scalars drawn mostly from classes that stress the tokenizers, sometimes from anywhere.
    static func randomText(using rng: inout SplitMix64) -> String {
        let pools: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0x09...0x0D, 0xA0...0x24F, 0x300...0x36F, 0x370...0x52F, 0x600...0x6FF, 0x900...0x97F,
            0x2000...0x2BFF, 0x3000...0x30FF, 0x4E00...0x4E80, 0xFF00...0xFFEF, 0x1F300...0x1F6FF, 0x1D400...0x1D7FF,
            0...0x10FFFF,
        ]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...80, using: &rng) {
            let pool = pools[Int.random(in: 0..<pools.count, using: &rng)]
            if let scalar = Unicode.Scalar(UInt32.random(in: pool, using: &rng)) {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// The public-parts pipeline each built-in must match token for token.
    static let equivalents: [String: TextAnalyzer] = [
        "default": TextAnalyzer(tokenizer: SimpleTokenizer(), filters: [RemoveLongFilter(limit: 40), LowerCaser()]),
        "en_stem": TextAnalyzer(
            tokenizer: SimpleTokenizer(),
            filters: [RemoveLongFilter(limit: 40), LowerCaser(), Stemmer(.english)]
        ),
        "raw": TextAnalyzer(tokenizer: RawTokenizer()),
        "lowercase": TextAnalyzer(tokenizer: RawTokenizer(), filters: [LowerCaser()]),
        "whitespace": TextAnalyzer(tokenizer: WhitespaceTokenizer()),
    ]

    @Test(arguments: 0..<40 as Range<UInt64>)
    func randomScalarStrings(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let everything = TextAnalyzer(
            tokenizer: SimpleTokenizer(),
            filters: [
                LowerCaser(), AsciiFoldingFilter(), StopWordFilter.english, Stemmer(.english),
                RemoveLongFilter(limit: 8),
            ]
        )
        for _ in 0..<25 {
            let text = Self.randomText(using: &rng)
            let utf8 = Array(text.utf8)
            let boundaries = Set(
                text.unicodeScalars.indices.map { text.utf8.distance(from: text.startIndex, to: $0) } + [utf8.count]
            )
            for name in AnalyzerRegistry.builtIn.names {
                let tokens = builtIn(name).tokens(text)
                let equivalent = try #require(Self.equivalents[name])
                #expect(tokens == equivalent.tokens(text), "seed \(seed) \(name) \(text.debugDescription)")
                #expect(
                    zip(tokens, tokens.dropFirst()).allSatisfy { $0.position < $1.position },
                    "seed \(seed) \(name)"
                )
                #expect(tokens.allSatisfy { boundaries.contains($0.offsetFrom) && boundaries.contains($0.offsetTo) })
                #expect(
                    tokens.allSatisfy { String(validating: $0.bytes, as: UTF8.self) != nil },
                    "seed \(seed) \(name)"
                )
                var session = AnalysisSession(builtIn(name))
                var emitted = 0
                let summary = session.analyze(text) { _, _ in emitted += 1 }
                #expect(summary.tokenCount == emitted && emitted == tokens.count)
                #expect(summary.endPosition == (tokens.last.map { $0.position + 1 } ?? 0))
            }
            let filtered = everything.tokens(text)
            #expect(filtered.allSatisfy { $0.bytes.count < 8 }, "seed \(seed)")
            #expect(zip(filtered, filtered.dropFirst()).allSatisfy { $0.position < $1.position }, "seed \(seed)")
        }
    }

    @Test(arguments: 0..<20 as Range<UInt64>)
    func randomBytesNeverTrap(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let custom = TextAnalyzer(
            tokenizer: SimpleTokenizer(),
            filters: [LowerCaser(), AsciiFoldingFilter(), Stemmer(.english)]
        )
        for _ in 0..<50 {
            let bytes = ContiguousArray(
                (0..<Int.random(in: 0...64, using: &rng)).map { _ in
                    // Bias towards UTF-8 lead and continuation bytes so that broken sequences are common.
                    Bool.random(using: &rng)
                        ? UInt8.random(in: 0x80...0xFF, using: &rng) : UInt8.random(in: 0...0x7F, using: &rng)
                })
            for analyzer in AnalyzerRegistry.builtIn.names.map(builtIn) + [custom] {
                var session = AnalysisSession(analyzer)
                var lastPosition = -1
                var increasing = true
                _ = session.analyze(bytes.span) { _, position in
                    increasing = increasing && position > lastPosition
                    lastPosition = position
                }
                #expect(increasing, "seed \(seed) bytes \(bytes)")
            }
        }
    }
}
