import LoupeAnalysis
import Testing

/// Splits on `-` and numbers tokens with a gap of 2, to show that tokenizers own positions.
struct DashTokenizer: Tokenizer {
    func tokenize(_ text: Span<UInt8>, into tokens: inout TokenBuffer) {
        var start = 0
        var position = 0
        for index in 0...text.count where index == text.count || text[index] == UInt8(ascii: "-") {
            if index > start {
                tokens.append(text.extracting(start..<index), position: position, offsetFrom: start, offsetTo: index)
                position += 2
            }
            start = index + 1
        }
    }
}

/// Reverses each term's bytes and drops terms that start with `x`.
struct ReverseFilter: TokenFilter {
    func filter(_ tokens: inout TokenBuffer) {
        tokens.transformTerms { term, builder in
            for index in term.indices.reversed() {
                builder.append(term[index])
            }
        }
        tokens.removeAll { term in term.count > 0 && term[0] == UInt8(ascii: "x") }
    }
}

@Suite struct AnalyzerRegistryTests {
    @Test func builtInNamesAreTantivysPlusLowercase() {
        #expect(AnalyzerRegistry.builtIn.names == ["default", "en_stem", "lowercase", "raw", "whitespace"])
        #expect(AnalyzerRegistry.builtIn.analyzer(named: "simple") == nil)
        #expect(AnalyzerRegistry().names.isEmpty)
    }

    @Test func builtInAnalyzersBehaveAsDocumented() {
        let text = "Hello, WORLD! Running\u{A0}fast"
        #expect(builtIn("default").terms(text) == ["hello@0", "world@1", "running@2", "fast@3"])
        #expect(builtIn("en_stem").terms(text) == ["hello@0", "world@1", "run@2", "fast@3"])
        #expect(builtIn("raw").terms(text) == ["\(text)@0"])
        #expect(builtIn("lowercase").terms(text) == ["hello, world! running\u{A0}fast@0"])
        #expect(builtIn("whitespace").terms(text) == ["Hello,@0", "WORLD!@1", "Running\u{A0}fast@2"])
    }

    @Test func customAnalyzerIsRegisteredAndFound() throws {
        var registry = AnalyzerRegistry.builtIn
        registry.register("dashes", TextAnalyzer(tokenizer: DashTokenizer(), filters: [LowerCaser(), ReverseFilter()]))
        let analyzer = try #require(registry.analyzer(named: "dashes"))
        #expect(analyzer.terms("AB--Cd-Yx-e") == ["ba@0", "dc@2", "e@6"])
        #expect(registry.names.contains("dashes"))
        #expect(AnalyzerRegistry.builtIn.analyzer(named: "dashes") == nil)
    }

    @Test func registeringAnExistingNameReplacesIt() throws {
        var registry = AnalyzerRegistry.builtIn
        registry.register("default", TextAnalyzer(tokenizer: WhitespaceTokenizer()))
        #expect(try #require(registry.analyzer(named: "default")).terms("A-b C") == ["A-b@0", "C@1"])
    }

    @Test func customPipelineReportsPositionsAndOffsetsFromTheTokenizer() {
        var session = AnalysisSession(TextAnalyzer(tokenizer: DashTokenizer()))
        var seen: [String] = []
        let summary = session.analyze("one-two-three", startPosition: 1) { term, position in
            seen.append("\(String(decoding: term.bytesArray, as: UTF8.self))@\(position)")
        }
        #expect(seen == ["one@1", "two@3", "three@5"])
        #expect(summary == AnalysisSummary(tokenCount: 3, endPosition: 6))
        #expect(TextAnalyzer(tokenizer: DashTokenizer()).tokens("ab-cd").map(\.offsetFrom) == [0, 3])
    }

    @Test func tokenBufferExposesTokensToFilters() {
        var buffer = TokenBuffer()
        let text = ContiguousArray("Hi there".utf8)
        SimpleTokenizer().tokenize(text.span, into: &buffer)
        #expect(buffer.count == 2)
        #expect(buffer.position(at: 1) == 1)
        #expect(buffer.withTerm(at: 1) { $0.count } == 5)
        #expect(buffer.token(at: 0) == Token(bytes: Array("Hi".utf8), position: 0, offsetFrom: 0, offsetTo: 2))
        LowerCaser().filter(&buffer)
        #expect(buffer.token(at: 0).text == "hi")
    }
}
