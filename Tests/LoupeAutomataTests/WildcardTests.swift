import LoupeAutomata
import TestSupport
import Testing

/// `Wildcard.automaton` + `ByteDFA` against a naive recursive matcher.
@Suite struct WildcardTests {
    enum Token: Equatable {
        case literal(Unicode.Scalar)
        case one
        case any
    }

    /// The pattern's meaning, spelled out independently of the implementation.
    static func tokens(_ pattern: String) -> [Token] {
        var result: [Token] = []
        var scalars = pattern.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "*": result.append(.any)
            case "?": result.append(.one)
            case "\\": result.append(.literal(scalars.next() ?? "\\"))
            default: result.append(.literal(scalar))
            }
        }
        return result
    }

    static func naiveMatch(_ tokens: ArraySlice<Token>, _ text: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let token = tokens.first else { return text.isEmpty }
        switch token {
        case .any:
            return (0...text.count).contains { naiveMatch(tokens.dropFirst(), text.dropFirst($0)) }
        case .one:
            return !text.isEmpty && naiveMatch(tokens.dropFirst(), text.dropFirst())
        case .literal(let scalar):
            return text.first == scalar && naiveMatch(tokens.dropFirst(), text.dropFirst())
        }
    }

    @Test(arguments: 0..<10 as Range<UInt64>)
    func agreesWithTheNaiveMatcher(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let patternPieces = ["a", "b", "é", "日", "*", "?", "\\*", "\\?", "\\\\", "\\a", "\\"]
        let textPieces = ["a", "b", "é", "日", "*", "?", "\\", "\n"]
        for _ in 0..<60 {
            let pattern = (0..<Int.random(in: 0...6, using: &rng)).map { _ in rng.pick(patternPieces) }.joined()
            let tokens = Self.tokens(pattern)
            let dfa = ByteDFA(Wildcard.automaton(pattern))
            for _ in 0..<30 {
                let text = (0..<Int.random(in: 0...6, using: &rng)).map { _ in rng.pick(textPieces) }.joined()
                let expected = Self.naiveMatch(tokens[...], Array(text.unicodeScalars)[...])
                #expect(
                    (dfa.match(text.utf8) == 0) == expected,
                    "seed \(seed): \(pattern.debugDescription) on \(text.debugDescription)"
                )
            }
        }
    }

    @Test func examples() {
        let dfa = ByteDFA(Wildcard.automaton("日*b?\\*"))
        #expect(dfa.match("日bx*".utf8) == 0)
        #expect(dfa.match("日本語bé*".utf8) == 0)
        #expect(dfa.match("日b*".utf8) == nil)
        let trailing = ByteDFA(Wildcard.automaton("a\\"))
        #expect(trailing.match("a\\".utf8) == 0)
        #expect(ByteDFA(Wildcard.automaton("")).match("".utf8) == 0)
        #expect(ByteDFA(Wildcard.automaton("")).match("a".utf8) == nil)
    }
}
