import LoupeAnalysis
import Testing

/// Each built-in filter on its own, behind the tokenizer that makes its behaviour visible.
@Suite struct TokenFilterTests {
    @Test func lowerCaserUsesFullPerScalarMappings() {
        let analyzer = TextAnalyzer(tokenizer: WhitespaceTokenizer(), filters: [LowerCaser()])
        #expect(analyzer.terms("HeLLo ÉCOLE ΣΑΣ ẞ İ Ǆ") == ["hello@0", "école@1", "σασ@2", "ß@3", "i\u{307}@4", "ǆ@5"])
    }

    @Test func lowerCaserCopiesInvalidUTF8Unchanged() {
        var session = AnalysisSession(TextAnalyzer(tokenizer: RawTokenizer(), filters: [LowerCaser()]))
        let bytes: ContiguousArray<UInt8> = [0x41, 0xFF, 0xC3, 0x89, 0xE2, 0x82, 0x42]
        var terms: [[UInt8]] = []
        _ = session.analyze(bytes.span) { term, _ in terms.append(term.bytesArray) }
        #expect(terms == [[0x61, 0xFF, 0xC3, 0xA9, 0xE2, 0x82, 0x62]])
    }

    @Test func removeLongFilterCountsBytesAndKeepsPositions() {
        let analyzer = TextAnalyzer(tokenizer: SimpleTokenizer(), filters: [RemoveLongFilter(limit: 5)])
        #expect(analyzer.terms("abcd abcde x abcdef y") == ["abcd@0", "x@2", "y@4"])
        // "éé" is 2 characters but 4 bytes: dropped at limit 4, kept at limit 5.
        #expect(
            TextAnalyzer(tokenizer: SimpleTokenizer(), filters: [RemoveLongFilter(limit: 4)]).terms("éé a") == ["a@1"])
        #expect(analyzer.terms("éé") == ["éé@0"])
    }

    @Test func asciiFoldingFoldsLatinLettersLigaturesAndPunctuation() {
        let analyzer = TextAnalyzer(tokenizer: WhitespaceTokenizer(), filters: [AsciiFoldingFilter()])
        let folded = analyzer.tokens("Crème brûlée Straße Æsir œuvre ﬁn ① ⑴ «q» “x” — Ĳssel Łódź").map(\.text)
        #expect(
            folded == [
                "Creme", "brulee", "Strasse", "AEsir", "oeuvre", "fin", "1", "(1)", "\"q\"", "\"x\"", "-", "IJssel",
                "Lodz",
            ]
        )
    }

    @Test func asciiFoldingKeepsScriptsWithoutASCIIEquivalent() {
        let analyzer = TextAnalyzer(tokenizer: WhitespaceTokenizer(), filters: [AsciiFoldingFilter()])
        #expect(analyzer.tokens("東京 Ελλάδα Москва 😀").map(\.text) == ["東京", "Ελλάδα", "Москва", "😀"])
    }

    @Test func stopWordFilterDropsListedWordsAndLeavesGaps() {
        let analyzer = TextAnalyzer(tokenizer: SimpleTokenizer(), filters: [LowerCaser(), StopWordFilter.english])
        #expect(analyzer.terms("The cat is on the mat") == ["cat@1", "mat@5"])
        let custom = TextAnalyzer(tokenizer: SimpleTokenizer(), filters: [StopWordFilter(["am", "i", "a", "as"])])
        #expect(custom.terms("i am a cat as yet") == ["cat@3", "yet@5"])
    }

    @Test func stopWordFilterComparesExactBytes() {
        let analyzer = TextAnalyzer(tokenizer: SimpleTokenizer(), filters: [StopWordFilter(["the", "été"])])
        #expect(analyzer.terms("The the été ete") == ["The@0", "ete@3"])
    }

    @Test func englishStopListIsLucenes() {
        let analyzer = TextAnalyzer(tokenizer: WhitespaceTokenizer(), filters: [StopWordFilter.english])
        let lucene =
            "a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with"
        #expect(analyzer.tokens(lucene).isEmpty)
        #expect(analyzer.terms("i me have you") == ["i@0", "me@1", "have@2", "you@3"])
    }

    @Test func stemmerReducesInflections() {
        let analyzer = TextAnalyzer(tokenizer: SimpleTokenizer(), filters: [LowerCaser(), Stemmer(.english)])
        let stems = analyzer.tokens("Running runs ran generously Caresses ponies dying skies news").map(\.text)
        #expect(stems == ["run", "run", "ran", "generous", "caress", "poni", "die", "sky", "news"])
    }

    @Test func stemmerKeepsNonASCIIScalarsInPlace() {
        let analyzer = TextAnalyzer(tokenizer: WhitespaceTokenizer(), filters: [Stemmer(.english)])
        #expect(analyzer.tokens("naïvely façades crèmes éy").map(\.text) == ["naïv", "façad", "crèmes", "éy"])
    }

    @Test func filtersRunInOrder() {
        let foldThenStop = TextAnalyzer(
            tokenizer: SimpleTokenizer(),
            filters: [AsciiFoldingFilter(), StopWordFilter(["cafe"])]
        )
        let stopThenFold = TextAnalyzer(
            tokenizer: SimpleTokenizer(),
            filters: [StopWordFilter(["cafe"]), AsciiFoldingFilter()]
        )
        #expect(foldThenStop.terms("café") == [])
        #expect(stopThenFold.terms("café") == ["cafe@0"])
    }
}
