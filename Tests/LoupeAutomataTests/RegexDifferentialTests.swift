import LoupeAutomata
import TestSupport
import Testing
import _StringProcessing

/// `Regex.compile` + `ByteDFA` against the standard library's regex engine on seeded random patterns over
/// a small alphabet, with whole-term matching on both sides.
@Suite struct RegexDifferentialTests {
    /// Atoms both engines read the same way (the standard library's classes made ASCII-only to match
    /// ours; its POSIX classes stay Unicode, so they are tested by hand in `RegexSyntaxTests`), with
    /// strings each one matches.
    static let atoms: [(atom: String, samples: [String])] = [
        ("a", ["a"]), ("b", ["b"]), ("é", ["é"]), ("日", ["日"]), ("0", ["0"]), ("1", ["1"]),
        (".", ["a", "é", "日", " ", "."]), ("[ab]", ["a", "b"]), ("[^a]", ["b", "日", "\n"]), ("[a-c]", ["a", "c"]),
        ("[é日]", ["é", "日"]), ("[^é0-9]", ["a", "日", "É"]), ("\\d", ["0", "1"]), ("\\w", ["a", "_", "0"]),
        ("\\D", ["a", "é"]), ("[\\d_]", ["_", "1"]), ("\\x{65E5}", ["日"]), ("\\u{e9}", ["é"]), ("\\.", ["."]),
        ("[a-]", ["a"]), ("\\s", [" ", "\n"]),
    ]
    static let quantifiers: [(text: String, minimum: Int, maximum: Int)] = [
        ("*", 0, 3), ("+", 1, 3), ("?", 0, 1), ("{2}", 2, 2), ("{1,}", 1, 3), ("{0,2}", 0, 2), ("*?", 0, 3),
        ("+?", 1, 3), ("??", 0, 1), ("{1,3}?", 1, 3), ("{0}", 0, 0),
    ]
    /// Longer texts can take the reference exponential time.
    static let maximumTextLength = 7
    /// Every scalar a pattern mentions plus a few it does not; `\n` checks that `.` excludes it.
    static let alphabet = ["a", "b", "c", "é", "É", "A", "日", "0", "1", "_", "\n", " ", "."]

    /// A random pattern, the same pattern with greedy quantifiers only (the language is the same, and
    /// the standard library's backtracking engine misses some whole matches with lazy quantifiers:
    /// `(a??.*?\w)+b{0,2}\D?` rejects `ca_日`, which Python's `re` and Rust's `regex` accept), and a
    /// string it matches.
    struct Sample {
        var pattern = ""
        var greedy = ""
        var text = ""
    }

    static func randomPattern(depth: Int, using rng: inout SplitMix64) -> Sample {
        var branches: [Sample] = []
        for _ in 0..<(rng.chance(1, in: 4) ? 2 : 1) {
            var branch = Sample()
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                let makeItem: (inout SplitMix64) -> Sample
                if depth > 0, rng.chance(1, in: 4) {
                    let open = rng.chance(1, in: 2) ? "(" : "(?:"
                    let inner = randomPattern(depth: depth - 1, using: &rng)
                    // A repeated group repeats its one sample (an atom draws a new sample each time).
                    makeItem = { _ in
                        Sample(pattern: open + inner.pattern + ")", greedy: open + inner.greedy + ")", text: inner.text)
                    }
                } else {
                    let (atom, samples) = rng.pick(atoms)
                    makeItem = { rng in Sample(pattern: atom, greedy: atom, text: rng.pick(samples)) }
                }
                var item = makeItem(&rng)
                if rng.chance(1, in: 3) {
                    let quantifier = rng.pick(quantifiers)
                    let lazy = quantifier.text.count > 1 && quantifier.text.hasSuffix("?")
                    item.pattern += quantifier.text
                    item.greedy += lazy ? String(quantifier.text.dropLast()) : quantifier.text
                    var text = ""
                    for _ in 0..<Int.random(in: quantifier.minimum...quantifier.maximum, using: &rng) {
                        text += makeItem(&rng).text
                    }
                    item.text = text
                }
                branch.pattern += item.pattern
                branch.greedy += item.greedy
                branch.text += item.text
            }
            branches.append(branch)
        }
        return Sample(
            pattern: branches.map(\.pattern).joined(separator: "|"),
            greedy: branches.map(\.greedy).joined(separator: "|"),
            text: rng.pick(branches).text
        )
    }

    /// Random strings, matching samples and samples with one scalar changed, inserted or removed.
    static func randomText(near sample: String, using rng: inout SplitMix64) -> String {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            return (0..<Int.random(in: 0...5, using: &rng)).map { _ in rng.pick(alphabet) }.joined()
        case 1:
            return sample
        default:
            var scalars = sample.unicodeScalars.map(String.init)
            let index = Int.random(in: 0...scalars.count, using: &rng)
            if index < scalars.count, rng.chance(1, in: 2) {
                scalars.remove(at: index)
            } else {
                scalars.insert(rng.pick(alphabet), at: index)
            }
            return scalars.joined()
        }
    }

    @Test(arguments: 0..<20 as Range<UInt64>)
    func randomPatternsAgreeWithTheStandardLibrary(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var accepted = 0
        for _ in 0..<100 {
            var sample = Self.randomPattern(depth: 2, using: &rng)
            let caseInsensitive = rng.chance(1, in: 6)
            if caseInsensitive {
                sample.pattern = "(?i)" + sample.pattern
                sample.greedy = "(?i)" + sample.greedy
            }
            // Character semantics: every test character is one scalar here, and under `.unicodeScalar`
            // semantics the standard library rejects `\w.` on `1日`.
            let reference = try _StringProcessing.Regex(sample.greedy).asciiOnlyCharacterClasses()
            let dfa = ByteDFA(try LoupeAutomata.Regex.compile(sample.pattern))
            // Under `(?i)` a sample of `[^é]` may be `É`, which the class then excludes.
            #expect(
                caseInsensitive || dfa.match(sample.text.utf8) == 0,
                "seed \(seed): /\(sample.pattern)/ on \(sample.text.debugDescription)"
            )
            for _ in 0..<20 {
                let text = Self.randomText(near: sample.text, using: &rng)
                // The reference backtracks: `(\D*\s+)+` takes 0.4 s to reject 9 characters.
                guard text.unicodeScalars.count <= Self.maximumTextLength else { continue }
                let expected = (try reference.wholeMatch(in: text)) != nil
                let actual = dfa.match(text.utf8) != nil
                #expect(actual == expected, "seed \(seed): /\(sample.pattern)/ on \(text.debugDescription)")
                if actual != expected { return }
                if actual { accepted += 1 }
            }
        }
        // The samples make about a third of the texts match; far fewer means the generator broke.
        #expect(accepted > 300, "seed \(seed): only \(accepted) matching texts")
    }
}
