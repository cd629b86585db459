import LoupeAutomata
import TestSupport
import Testing

/// `Levenshtein.automaton` + `ByteDFA` against the textbook dynamic programs.
@Suite struct LevenshteinTests {
    /// Levenshtein distance, or with `transpositions` the optimal string alignment distance (each
    /// substring edited at most once), over scalars.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], transpositions: Bool) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if transpositions, i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// The expected accept tag: the distance (in prefix mode the smallest over the input's prefixes),
    /// `nil` above `maximum`.
    static func expectedTag(
        term: [Unicode.Scalar],
        input: [Unicode.Scalar],
        maximum: Int,
        transpositions: Bool,
        prefix: Bool
    ) -> UInt8? {
        let lengths = prefix ? Array(0...input.count) : [input.count]
        let best = lengths.map { distance(Array(input[..<$0]), term, transpositions: transpositions) }.min() ?? 0
        return best <= maximum ? UInt8(best) : nil
    }

    static let alphabets: [[String]] = [["a", "b", "c"], ["é", "日", "ß", "a"], ["a", "😀", "\u{301}"]]

    /// A random input: unrelated, or `term` with a few random edits (so many inputs are within range).
    static func randomInput(near term: [String], alphabet: [String], using rng: inout SplitMix64) -> [String] {
        var input = rng.chance(1, in: 4) ? [] : term
        if input.isEmpty {
            input = (0..<Int.random(in: 0...6, using: &rng)).map { _ in rng.pick(alphabet) }
        }
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            let index = Int.random(in: 0...input.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: input.insert(rng.pick(alphabet), at: index)
            case 1 where index < input.count: input.remove(at: index)
            case 2 where index < input.count: input[index] = rng.pick(alphabet)
            case 3 where index + 1 < input.count: input.swapAt(index, index + 1)
            default: break
            }
        }
        return input
    }

    @Test(arguments: 0..<24 as Range<UInt64>)
    func tagsEqualTheNaiveDistance(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let maximum = Int(seed % 3)
        let transpositions = seed % 2 == 0
        let prefix = seed % 4 >= 2
        for _ in 0..<30 {
            let alphabet = rng.pick(Self.alphabets)
            let term = (0..<Int.random(in: 0...6, using: &rng)).map { _ in rng.pick(alphabet) }
            let termText = term.joined()
            let dfa = ByteDFA(
                Levenshtein.automaton(termText, distance: maximum, transpositions: transpositions, prefix: prefix)
            )
            for _ in 0..<30 {
                let input = Self.randomInput(near: term, alphabet: alphabet, using: &rng).joined()
                let expected = Self.expectedTag(
                    term: Array(termText.unicodeScalars),
                    input: Array(input.unicodeScalars),
                    maximum: maximum,
                    transpositions: transpositions,
                    prefix: prefix
                )
                let actual = dfa.match(input.utf8)
                #expect(
                    actual == expected,
                    "seed \(seed): \(termText.debugDescription) ~\(maximum) t=\(transpositions) p=\(prefix) on \(input.debugDescription)"
                )
                if actual != expected { return }
            }
        }
    }

    @Test func examples() {
        let fuzzy = ByteDFA(Levenshtein.automaton("kitten", distance: 2, transpositions: false, prefix: false))
        #expect(fuzzy.match("kitten".utf8) == 0)
        #expect(fuzzy.match("sitten".utf8) == 1)
        #expect(fuzzy.match("sittin".utf8) == 2)
        #expect(fuzzy.match("sitting".utf8) == nil)
        #expect(fuzzy.match("kitetn".utf8) == 2)

        let swapped = ByteDFA(Levenshtein.automaton("kitten", distance: 1, transpositions: true, prefix: false))
        #expect(swapped.match("kitetn".utf8) == 1)
        #expect(swapped.match("iktten".utf8) == 1)

        let prefix = ByteDFA(Levenshtein.automaton("日本", distance: 1, transpositions: true, prefix: true))
        #expect(prefix.match("日本語".utf8) == 0)
        #expect(prefix.match("本日は".utf8) == 1)
        #expect(prefix.match("日".utf8) == 1)
        #expect(prefix.match("語".utf8) == nil)
    }

    /// With an exact prefix, the automaton's tag is the naive distance of what follows it when the input starts
    /// with the same scalars, and nothing otherwise.
    @Test(arguments: 0..<8 as Range<UInt64>)
    func exactPrefixesTakeNoEdit(seed: UInt64) {
        var rng = SplitMix64(seed: seed &+ 1_000)
        let prefix = seed % 2 == 0
        let fixed = Int(seed % 3)
        for _ in 0..<30 {
            let alphabet = rng.pick(Self.alphabets)
            let term = (0..<Int.random(in: 1...6, using: &rng)).map { _ in rng.pick(alphabet) }
            let dfa = ByteDFA(
                Levenshtein.automaton(
                    term.joined(), distance: 2, transpositions: true, prefix: prefix, exactPrefix: fixed))
            let kept = min(fixed, term.count)
            for _ in 0..<30 {
                let input = Self.randomInput(near: term, alphabet: alphabet, using: &rng)
                let expected =
                    input.count >= kept && input.prefix(kept).elementsEqual(term.prefix(kept))
                    ? Self.expectedTag(
                        term: Array(term.dropFirst(kept).joined().unicodeScalars),
                        input: Array(input.dropFirst(kept).joined().unicodeScalars), maximum: 2, transpositions: true,
                        prefix: prefix)
                    : nil
                #expect(dfa.match(input.joined().utf8) == expected, "\(term) exact \(fixed) on \(input)")
            }
        }
        let jesus = ByteDFA(
            Levenshtein.automaton("jesus", distance: 1, transpositions: true, prefix: false, exactPrefix: 1))
        #expect(jesus.match("jseus".utf8) == 1)
        #expect(jesus.match("hesus".utf8) == nil)
        #expect(jesus.match("ejsus".utf8) == nil)
    }

    @Test func distanceIsClamped() {
        let none = ByteDFA(Levenshtein.automaton("abc", distance: -3, transpositions: false, prefix: false))
        #expect(none.match("abc".utf8) == 0)
        #expect(none.match("abd".utf8) == nil)
        let large = ByteDFA(Levenshtein.automaton("abc", distance: 99, transpositions: false, prefix: false))
        #expect(large.match("wxyz".utf8) == 4)
        #expect(large.match("vwxyz".utf8) == nil)
    }
}
