import LoupeAnalysis
import Testing

/// The hot-path API: positions, summaries, the indexing length cap and buffer reuse.
@Suite struct AnalysisSessionTests {
    /// Runs `session` over `text` and returns the terms with absolute positions plus the summary.
    static func analyze(
        _ session: inout AnalysisSession,
        _ text: String,
        startPosition: Int = 0
    ) -> (terms: [String], summary: AnalysisSummary) {
        var terms: [String] = []
        let summary = session.analyze(text, startPosition: startPosition) { term, position in
            terms.append("\(String(decoding: term.bytesArray, as: UTF8.self))@\(position)")
        }
        return (terms, summary)
    }

    @Test func droppedLongTokenConsumesItsPosition() {
        var session = AnalysisSession(builtIn("default"))
        let long = String(repeating: "x", count: 40)
        let result = Self.analyze(&session, "Alpha \(long) beta")
        #expect(result.terms == ["alpha@0", "beta@2"])
        #expect(result.summary == AnalysisSummary(tokenCount: 2, endPosition: 3))
    }

    @Test func droppedTrailingTokenDoesNotMoveTheEndPosition() {
        var session = AnalysisSession(builtIn("default"))
        let result = Self.analyze(&session, "alpha " + String(repeating: "y", count: 41))
        #expect(result.terms == ["alpha@0"])
        #expect(result.summary.endPosition == 1)
    }

    @Test func thirtyNineBytesIsTheLongestKeptToken() {
        let analyzer = builtIn("default")
        let kept = String(repeating: "a", count: 39)
        let dropped = String(repeating: "b", count: 40)
        #expect(analyzer.terms("\(kept) \(dropped) \(kept)") == ["\(kept)@0", "\(kept)@2"])
        // The limit applies before lowercasing: 19 × "İ" + "a" is 39 bytes, 58 once lowercased.
        let dotted = String(repeating: "İ", count: 19) + "a"
        #expect(analyzer.tokens(dotted).map(\.bytes.count) == [58])
    }

    @Test func startPositionOffsetsEveryTermAndTheEnd() {
        var session = AnalysisSession(builtIn("en_stem"))
        let result = Self.analyze(&session, "Running dogs", startPosition: 10)
        #expect(result.terms == ["run@10", "dog@11"])
        #expect(result.summary == AnalysisSummary(tokenCount: 2, endPosition: 12))
    }

    @Test func emptyValueEmitsNothingForWordsButOneEmptyTermForRaw() {
        var words = AnalysisSession(builtIn("default"))
        #expect(
            Self.analyze(&words, "  ,; ", startPosition: 7).summary == AnalysisSummary(tokenCount: 0, endPosition: 7)
        )
        var raw = AnalysisSession(builtIn("raw"))
        let result = Self.analyze(&raw, "", startPosition: 3)
        #expect(result.terms == ["@3"])
        #expect(result.summary == AnalysisSummary(tokenCount: 1, endPosition: 4))
    }

    @Test func multiValuedFieldPositionsFollowTantivysGap() {
        var session = AnalysisSession(builtIn("default"))
        var position = 0
        var all: [String] = []
        for value in ["a b", "", "c " + String(repeating: "z", count: 50), "d"] {
            let result = Self.analyze(&session, value, startPosition: position)
            all += result.terms
            position = result.summary.endPosition + 1
        }
        // tantivy: each value ends at its last indexed token + 1, then POSITION_GAP (1) is added.
        #expect(all == ["a@0", "b@1", "c@4", "d@6"])
    }

    @Test func termsOverTantivysIndexingLimitAreNotHandedOut() {
        let huge = String(repeating: "q", count: 65_531)
        var session = AnalysisSession(builtIn("raw"))
        let result = Self.analyze(&session, huge, startPosition: 5)
        #expect(result.terms.isEmpty)
        #expect(result.summary == AnalysisSummary(tokenCount: 0, endPosition: 5))
        #expect(builtIn("raw").tokens(huge).count == 1)
        let limit = String(repeating: "q", count: 65_530)
        #expect(Self.analyze(&session, limit).summary.tokenCount == 1)
    }

    @Test func spanAndStringEntryPointsAgree() {
        var session = AnalysisSession(builtIn("default"))
        let text = "Ünïcödé words, 42 of them"
        var fromSpan: [String] = []
        let bytes = ContiguousArray(text.utf8)
        let spanSummary = session.analyze(bytes.span) { term, position in
            fromSpan.append("\(String(decoding: term.bytesArray, as: UTF8.self))@\(position)")
        }
        let fromString = Self.analyze(&session, text)
        #expect(fromSpan == fromString.terms)
        #expect(spanSummary == fromString.summary)
    }

    @Test func reusedSessionMatchesFreshSessions() {
        let values = ["First VALUE here", "Zweiter Wert: Größe", "third one", "ÉCOLE école", "x"]
        for name in AnalyzerRegistry.builtIn.names {
            var reused = AnalysisSession(builtIn(name))
            for value in values {
                var fresh = AnalysisSession(builtIn(name))
                #expect(Self.analyze(&reused, value).terms == Self.analyze(&fresh, value).terms, "\(name): \(value)")
            }
        }
    }

    @Test func tokensReportByteOffsets() {
        let tokens = builtIn("default").tokens("«Çà» va")
        #expect(
            tokens == [
                Token(bytes: Array("çà".utf8), position: 0, offsetFrom: 2, offsetTo: 6),
                Token(bytes: Array("va".utf8), position: 1, offsetFrom: 9, offsetTo: 11),
            ]
        )
    }

    @Test func invalidUTF8SeparatesWords() {
        var session = AnalysisSession(builtIn("default"))
        let bytes: ContiguousArray<UInt8> = [0x41, 0xFF, 0x42, 0xC3, 0x28, 0x43, 0xED, 0xA0, 0x80, 0x44, 0xE2, 0x82]
        var terms: [[UInt8]] = []
        _ = session.analyze(bytes.span) { term, _ in terms.append(term.bytesArray) }
        // 0xFF, a lead byte before "(", a surrogate and a truncated sequence each separate.
        #expect(terms == [[0x61], [0x62], [0x63], [0x64]])
    }
}
