import LoupeQueryGrammar
import TestSupport
import Testing

/// Random strings over the query syntax's metacharacters must parse or throw, never crash, and what they
/// return must be consistent. `make_goldens.py`-style differential fuzzing against tantivy itself was run
/// while writing the grammar; the cases it found are pinned in `Fixtures/queries-grammar.txt`.
@Suite struct QueryFuzzTests {
    private static let pieces: [String] = [
        "a", "b", "rust", "c++", "3.14", "-1", "x-y", "é", "日本", "👍", "title:", "year:", "tags:", "f\\ g:",
        " ", " ", " ", "\t", "\n", "\r", "\u{A0}", "(", ")", "[", "]", "{", "}", "\"", "'", "\"a b\"", "~", "~2",
        "*", "^", "^2", "^1.5", "+", "-", ":", "\\", "\\:", "/", "/re/", "<", ">", ">=", "<=", "=", "!", "`", ".",
        "AND ", "OR ", "NOT ", " AND ", " OR ", "IN ", " TO ", "TO", "AND", "OR", "NOT", "IN [a b]", "[1 TO 5]",
    ]

    @Test(arguments: 0..<64 as Range<UInt64>)
    func randomQueriesNeverCrash(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for _ in 0..<400 {
            let count = Int.random(in: 0...16, using: &generator)
            let query = (0..<count).map { _ in Self.pieces.randomElement(using: &generator) ?? "" }.joined()
            check(query, seed: seed)
        }
    }

    /// Bytes rather than pieces: any character, including unpaired structure at every position.
    @Test(arguments: 0..<16 as Range<UInt64>)
    func randomCharactersNeverCrash(seed: UInt64) {
        var generator = SplitMix64(seed: seed &+ 1_000)
        let alphabet = Array("ab1 \t\n()[]{}\"'~*^+-:\\/<>=!.`ANDORTIN é\u{A0}")
        for _ in 0..<1_000 {
            let count = Int.random(in: 0...24, using: &generator)
            check(String((0..<count).map { _ in alphabet.randomElement(using: &generator) ?? " " }), seed: seed)
        }
    }

    private func check(_ query: String, seed: UInt64) {
        let byteCount = query.utf8.count
        for conjunction in [false, true] {
            do {
                let ast = try parseQuery(query, defaultConjunction: conjunction)
                #expect(
                    try parseQuery(query, defaultConjunction: conjunction) == ast,
                    "seed \(seed): \(query.debugDescription)"
                )
                for span in leafSpans(ast) {
                    #expect(
                        span.lowerBound >= 0 && span.upperBound <= byteCount && !span.isEmpty,
                        "seed \(seed): span \(span) in \(query.debugDescription)"
                    )
                }
                #expect(!ast.description.isEmpty)
            } catch {
                #expect(
                    (0...byteCount).contains(error.offset),
                    "seed \(seed): offset \(error.offset) in \(query.debugDescription)"
                )
                #expect(error.query == query)
                #expect(error.description.contains(error.message))
            }
        }
    }

    private func leafSpans(_ ast: QueryAST) -> [Range<Int>] {
        switch ast {
        case .boolean(let clauses): return clauses.flatMap { leafSpans($0.query) }
        case .leaf(let leaf): return [leaf.span]
        case .boost(let query, _): return leafSpans(query)
        case .all: return []
        }
    }
}
