import Foundation
import LoupeAnalysis
import Testing

/// Loupe's analyzers against the outputs of tantivy 0.27.0 and snowballstemmer 3.1.1, recorded by
/// `Fixtures/make_goldens.py`.
@Suite struct GoldenTests {
    /// The analyzers each golden analyzer name is checked with: the fused built-in where there is one, and
    /// the same pipeline assembled from public parts, so both code paths must agree with tantivy.
    static let analyzers: [String: [TextAnalyzer]] = [
        "default": [
            builtIn("default"),
            TextAnalyzer(tokenizer: SimpleTokenizer(), filters: [RemoveLongFilter(limit: 40), LowerCaser()]),
        ],
        "en_stem": [
            builtIn("en_stem"),
            TextAnalyzer(
                tokenizer: SimpleTokenizer(),
                filters: [RemoveLongFilter(limit: 40), LowerCaser(), Stemmer(.english)]
            ),
        ],
        "raw": [builtIn("raw"), TextAnalyzer(tokenizer: RawTokenizer())],
        "lowercase": [builtIn("lowercase"), TextAnalyzer(tokenizer: RawTokenizer(), filters: [LowerCaser()])],
        "whitespace": [builtIn("whitespace"), TextAnalyzer(tokenizer: WhitespaceTokenizer())],
        "custom": [
            TextAnalyzer(
                tokenizer: SimpleTokenizer(),
                filters: [
                    RemoveLongFilter(limit: 40), LowerCaser(), AsciiFoldingFilter(), StopWordFilter.english,
                    Stemmer(.english),
                ]
            )
        ],
        "whitespace_fold": [
            TextAnalyzer(
                tokenizer: WhitespaceTokenizer(), filters: [RemoveLongFilter(limit: 10), AsciiFoldingFilter()])
        ],
    ]

    /// Renders tokens as the golden does: `position,scalarFrom,scalarTo,text` with text escaped as there.
    static func render(_ tokens: [Token], in text: String) -> [String] {
        var scalarIndexOfByte = [Int](repeating: 0, count: text.utf8.count + 1)
        var byteOffset = 0
        for (index, scalar) in text.unicodeScalars.enumerated() {
            let width = String(scalar).utf8.count
            for offset in 0..<width {
                scalarIndexOfByte[byteOffset + offset] = index
            }
            byteOffset += width
        }
        scalarIndexOfByte[byteOffset] = text.unicodeScalars.count
        return tokens.map { token in
            "\(token.position),\(scalarIndexOfByte[token.offsetFrom]),\(scalarIndexOfByte[token.offsetTo]),\(token.text)"
        }
    }

    @Test func tokensMatchTantivy() throws {
        var inputs: [Substring: String] = [:]
        var mismatches: [String] = []
        var checked = 0
        for line in try Fixtures.lines("tokens.golden.tsv") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields[0] == "I" {
                inputs[fields[1]] = Fixtures.unescape(fields[2])
                continue
            }
            let text = try #require(inputs[fields[1]])
            let name = String(fields[2])
            let expected = fields.dropFirst(3).map(Fixtures.unescape)
            for analyzer in try #require(Self.analyzers[name]) {
                let actual = Self.render(analyzer.tokens(text), in: text)
                checked += 1
                if actual != expected {
                    mismatches.append(
                        "\(name) on \(text.debugDescription):\n  expected \(expected)\n  actual   \(actual)"
                    )
                }
            }
        }
        #expect(checked > 4_000)
        expectNone(mismatches)
    }

    @Test func stemsMatchSnowball() throws {
        var session = AnalysisSession(TextAnalyzer(tokenizer: RawTokenizer(), filters: [Stemmer(.english)]))
        var mismatches: [String] = []
        let lines = try Fixtures.lines("stems.golden.tsv")
        for line in lines {
            let fields = line.split(separator: "\t")
            let word = String(fields[0])
            let expected = String(fields.count > 1 ? fields[1] : fields[0])
            var actual = ""
            _ = session.analyze(word) { term, _ in
                actual = String(decoding: term.bytesArray, as: UTF8.self)
            }
            if actual != expected {
                mismatches.append("\(word): expected \(expected), got \(actual)")
            }
        }
        #expect(lines.count > 100_000)
        expectNone(mismatches)
    }

    /// Every scalar except ASCII whitespace, in chunks joined by spaces, as `make_goldens.py` feeds tantivy.
    static func scalarChunks() -> [(scalars: [Unicode.Scalar], text: String)] {
        let all = (0...0x10FFFF).compactMap { Unicode.Scalar(UInt32($0)) }.filter {
            !["\t", "\n", "\u{0C}", "\r", " "].contains($0)
        }
        return stride(from: 0, to: all.count, by: 20_000).map { start in
            let chunk = Array(all[start..<min(start + 20_000, all.count)])
            var text = String.UnicodeScalarView()
            for (index, scalar) in chunk.enumerated() {
                if index > 0 {
                    text.append(" ")
                }
                text.append(scalar)
            }
            return (chunk, String(text))
        }
    }

    @Test func everyScalarIsClassifiedAndLowercasedAsTantivy() throws {
        var alphanumeric = Set<UInt32>()
        var lowercase: [UInt32: [UInt32]] = [:]
        for line in try Fixtures.lines("chars.golden.tsv") {
            let fields = line.split(separator: "\t")
            let values = fields.dropFirst().flatMap { $0.split(separator: " ") }.compactMap { UInt32($0, radix: 16) }
            if fields[0] == "A" {
                alphanumeric.formUnion(values[0]...values[1])
            } else {
                lowercase[values[0]] = Array(values.dropFirst())
            }
        }
        let words = TextAnalyzer(tokenizer: SimpleTokenizer())
        let lowercaser = TextAnalyzer(tokenizer: WhitespaceTokenizer(), filters: [LowerCaser()])
        var seenAlphanumeric = Set<UInt32>()
        var lowercaseMismatches: [String] = []
        for (_, text) in Self.scalarChunks() {
            for token in words.tokens(text) {
                let scalars = token.text.unicodeScalars
                #expect(scalars.count == 1, "token \(token) spans several scalars")
                seenAlphanumeric.formUnion(scalars.map(\.value))
            }
            let bytes = Array(text.utf8)
            for token in lowercaser.tokens(text) {
                let source = String(decoding: bytes[token.offsetFrom..<token.offsetTo], as: UTF8.self)
                let value = try #require(source.unicodeScalars.first).value
                let expected = lowercase[value] ?? [value]
                let actual = token.text.unicodeScalars.map(\.value)
                if actual != expected {
                    lowercaseMismatches.append("U+\(String(value, radix: 16)): \(actual) != \(expected)")
                }
            }
        }
        expectNone(
            seenAlphanumeric.subtracting(alphanumeric).sorted().map { "U+\(String($0, radix: 16)) is not alphanumeric" }
        )
        expectNone(
            alphanumeric.subtracting(seenAlphanumeric).sorted().map { "U+\(String($0, radix: 16)) is alphanumeric" }
        )
        expectNone(lowercaseMismatches)
    }
}

/// Fails with the count and the first few mismatches only, so a broken rule does not flood the log.
func expectNone(_ mismatches: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    let count = mismatches.count
    let first = mismatches.prefix(10).joined(separator: "\n")
    #expect(count == 0, "first mismatches:\n\(first)", sourceLocation: sourceLocation)
}

extension Span<UInt8> {
    /// The bytes copied into an array, for assertions.
    var bytesArray: [UInt8] {
        var result: [UInt8] = []
        for index in indices {
            result.append(self[index])
        }
        return result
    }
}
