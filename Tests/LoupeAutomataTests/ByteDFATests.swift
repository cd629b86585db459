import LoupeAutomata
import TestSupport
import Testing

/// The byte-level behaviour of `ByteDFA`: UTF-8 validation, early death, `acceptsEverything`, the state
/// limit, and the sorted-dictionary walk it exists for.
@Suite struct ByteDFATests {
    /// Whether `bytes` can be completed to valid UTF-8 (the next byte of a truncated scalar is always
    /// one of 0x80, 0x90 or 0xA0 in some valid completion).
    static func isExtendable(_ bytes: [UInt8]) -> Bool {
        var completions: [[UInt8]] = [[]]
        var longest: [[UInt8]] = [[]]
        for _ in 0..<3 {
            longest = longest.flatMap { tail in [0x80, 0x90, 0xA0].map { tail + [$0] } }
            completions += longest
        }
        return completions.contains { String(validating: bytes + $0, as: UTF8.self) != nil }
    }

    static let boundaryBytes: [UInt8] = [
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF4, 0xFF,
    ]

    @Test func acceptsExactlyValidUTF8() throws {
        let dfa = ByteDFA(try Regex.compile("(?s).*"))
        var samples: [[UInt8]] = []
        for first in 0...255 {
            samples.append([UInt8(first)])
            for second in 0...255 { samples.append([UInt8(first), UInt8(second)]) }
        }
        for first in 0xC0...0xFF {
            for second in Self.boundaryBytes {
                for third in Self.boundaryBytes {
                    samples.append([UInt8(first), second, third])
                    for fourth: UInt8 in [0x7F, 0x80, 0xBF, 0xC0] {
                        samples.append([UInt8(first), second, third, fourth])
                    }
                }
            }
        }
        // One expectation for the lot: hundreds of thousands of `#expect` calls are slow in debug builds.
        let wrong = samples.filter { (dfa.match($0) != nil) != (String(validating: $0, as: UTF8.self) != nil) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    /// `dead` exactly when no continuation can be valid UTF-8 (overlong forms, surrogates and values past
    /// U+10FFFF die at their second byte).
    @Test(arguments: 0..<4 as Range<UInt64>)
    func diesAsSoonAsInvalid(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let dfa = ByteDFA(try Regex.compile("(?s).*"))
        for _ in 0..<250 {
            var bytes: [UInt8] = []
            var state = dfa.start
            for _ in 0..<6 {
                let byte = rng.chance(1, in: 2) ? rng.pick(Self.boundaryBytes) : UInt8.random(in: 0...255, using: &rng)
                bytes.append(byte)
                state = dfa.step(state, byte)
                #expect((state == ByteDFA.dead) == !Self.isExtendable(bytes), "seed \(seed): \(bytes)")
                if state == ByteDFA.dead { break }
            }
        }
    }

    @Test func deadState() throws {
        let dfa = ByteDFA(try Regex.compile("abc"))
        #expect(ByteDFA.dead == 0)
        #expect(dfa.start != ByteDFA.dead)
        #expect(dfa.acceptTag(ByteDFA.dead) == nil)
        #expect(dfa.step(ByteDFA.dead, 0x61) == ByteDFA.dead)
        #expect(dfa.step(dfa.start, 0x62) == ByteDFA.dead)
        #expect(ByteDFA(try Regex.compile("[^\\x{0}-\\x{10FFFF}]")).start == ByteDFA.dead)
        // Dead after the lead byte already: no edge can take a scalar starting with E6.
        #expect(dfa.step(dfa.start, 0xE6) == ByteDFA.dead)
        // A class mentioning only 日 (E6 97 A5) kills E6 96 at once.
        let cjk = ByteDFA(try Regex.compile("日+"))
        let lead = cjk.step(cjk.start, 0xE6)
        #expect(lead != ByteDFA.dead)
        #expect(cjk.step(lead, 0x96) == ByteDFA.dead)
        #expect(cjk.acceptTag(lead) == nil)
    }

    /// Partial states are keyed by what they can still reach, not by the bytes read: every 3-byte scalar
    /// under `.*` shares a handful of states.
    @Test func partialStatesAreShared() throws {
        let dfa = ByteDFA(try Regex.compile("(?s).*"))
        for value in UInt32(0x800)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(dfa.match(String(scalar).utf8) == 0)
        }
        #expect(dfa.builtStateCount < 12, "\(dfa.builtStateCount)")
    }

    @Test func acceptsEverythingExamples() throws {
        func state(_ dfa: ByteDFA, after text: String) -> Int32 {
            text.utf8.reduce(dfa.start) { dfa.step($0, $1) }
        }
        let dotAll = ByteDFA(try Regex.compile("(?s)abc.*"))
        #expect(!dotAll.acceptsEverything(state(dotAll, after: "ab")))
        #expect(dotAll.acceptsEverything(state(dotAll, after: "abc")))
        #expect(dotAll.acceptsEverything(state(dotAll, after: "abc日\n")))
        let dot = ByteDFA(try Regex.compile("abc.*"))
        #expect(!dot.acceptsEverything(state(dot, after: "abc")))
        let classes = ByteDFA(try Regex.compile("ab[\\s\\S]*"))
        #expect(classes.acceptsEverything(state(classes, after: "ab")))
        let wildcard = ByteDFA(Wildcard.automaton("ab*"))
        #expect(wildcard.acceptsEverything(state(wildcard, after: "ab")))
        let fuzzy = ByteDFA(Levenshtein.automaton("日本", distance: 1, transpositions: false, prefix: true))
        #expect(fuzzy.acceptsEverything(state(fuzzy, after: "日本")))
        #expect(fuzzy.acceptTag(state(fuzzy, after: "日本語")) == 0)
        let suffix = ByteDFA(Wildcard.automaton("*a"))
        #expect(!suffix.acceptsEverything(suffix.start))
    }

    /// Wherever `acceptsEverything` holds, random continuations are accepted.
    @Test(arguments: 0..<6 as Range<UInt64>)
    func acceptsEverythingIsSound(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let pieces = ["a", "b", "日", "\n"]
        let automata = [
            try Regex.compile("(?s)a.*"), try Regex.compile("(a|b(?s:.)*)*"), try Regex.compile("a*"),
            Wildcard.automaton("a*b*"), Wildcard.automaton("*"),
            Levenshtein.automaton("ab", distance: 1, transpositions: true, prefix: true),
            Levenshtein.automaton("日a", distance: 2, transpositions: false, prefix: true),
        ]
        var sawUniversal = false
        for nfa in automata {
            let dfa = ByteDFA(nfa)
            for _ in 0..<40 {
                var state = dfa.start
                for _ in 0..<Int.random(in: 0...4, using: &rng) {
                    for byte in rng.pick(pieces).utf8 { state = dfa.step(state, byte) }
                }
                guard dfa.acceptsEverything(state) else { continue }
                sawUniversal = true
                for _ in 0..<10 {
                    var next = state
                    for _ in 0..<Int.random(in: 0...4, using: &rng) {
                        for byte in rng.pick(pieces).utf8 { next = dfa.step(next, byte) }
                    }
                    #expect(dfa.acceptTag(next) != nil, "seed \(seed)")
                }
            }
        }
        #expect(sawUniversal)
    }

    @Test func stateLimitSetsTheFlag() throws {
        let dfa = ByteDFA(
            Levenshtein.automaton("abcdefghijkl", distance: 4, transpositions: true, prefix: false),
            stateLimit: 20
        )
        var rng = SplitMix64(seed: 7)
        var sawDead = false
        for _ in 0..<200 {
            let text = (0..<12).map { _ in rng.pick(["a", "b", "c", "d", "x", "é"]) }.joined()
            var state = dfa.start
            for byte in text.utf8 {
                state = dfa.step(state, byte)
                sawDead = sawDead || state == ByteDFA.dead
            }
            _ = dfa.acceptTag(state)
            _ = dfa.acceptsEverything(state)
        }
        #expect(dfa.exceededStateLimit)
        #expect(sawDead)
        #expect(dfa.builtStateCount <= 21)
        #expect(!ByteDFA(try Regex.compile("abc")).exceededStateLimit)
    }

    /// The intended use: walk byte-sorted terms keeping one state per byte of the current term, reuse
    /// the states of the prefix shared with the previous term, and skip every term under a dead prefix.
    /// Must find exactly the terms a brute-force `match` finds.
    @Test(arguments: 0..<6 as Range<UInt64>)
    func sortedDictionaryWalkFindsEveryMatch(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let pieces = ["a", "b", "c", "é", "日", "本", "😀", "z"]
        var terms = Set<[UInt8]>()
        for _ in 0..<400 {
            terms.insert(Array((0..<Int.random(in: 0...6, using: &rng)).map { _ in rng.pick(pieces) }.joined().utf8))
        }
        let sorted = terms.sorted { $0.lexicographicallyPrecedes($1) }
        let automata = [
            try Regex.compile("a.*"), try Regex.compile("(?i)[ab]+é?"), try Regex.compile(".{2}(日|本)+.?"),
            Wildcard.automaton("*本?"), Levenshtein.automaton("ab日", distance: 1, transpositions: true, prefix: false),
            Levenshtein.automaton("日本", distance: 1, transpositions: false, prefix: true),
        ]
        var totalSkipped = 0
        for nfa in automata {
            let dfa = ByteDFA(nfa)
            let expected = sorted.filter { dfa.match($0) != nil }
            var found: [[UInt8]] = []
            var stack: [Int32] = [dfa.start] // stack[i] = state after the first i bytes of `previous`
            var previous: [UInt8] = []
            var index = 0
            var skipped = 0
            while index < sorted.count {
                let term = sorted[index]
                var shared = zip(previous, term).prefix { $0 == $1 }.count
                shared = min(shared, stack.count - 1)
                stack.removeLast(stack.count - 1 - shared)
                var deadAt: Int?
                for position in shared..<term.count {
                    let next = dfa.step(stack[stack.count - 1], term[position])
                    stack.append(next)
                    if next == ByteDFA.dead {
                        deadAt = position
                        break
                    }
                }
                previous = term
                if let deadAt {
                    let prefix = term[...deadAt]
                    index += 1
                    while index < sorted.count, sorted[index].starts(with: prefix) {
                        index += 1
                        skipped += 1
                    }
                    continue
                }
                if dfa.acceptTag(stack[stack.count - 1]) != nil { found.append(term) }
                index += 1
            }
            #expect(found == expected, "seed \(seed)")
            totalSkipped += skipped
        }
        #expect(totalSkipped > 0, "seed \(seed): dead prefixes skipped nothing")
    }

    /// `nextLiveByte` against stepping every later byte, asked repeatedly from random states and bytes so that later
    /// answers come from the dead bytes the earlier ones remembered.
    @Test(arguments: 0..<4 as Range<UInt64>)
    func nextLiveByteIsTheFirstByteNotLeadingToDead(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let automata = [
            try Regex.compile("c.eviot"), try Regex.compile("(?i)[ab]+é?"), try Regex.compile(".{2}(日|本)+.?"),
            Levenshtein.automaton("ab日", distance: 1, transpositions: true, prefix: false),
        ]
        for nfa in automata {
            let dfa = ByteDFA(nfa)
            var states: [Int32] = [dfa.start]
            for _ in 0..<400 {
                let state = rng.pick(states)
                let byte = UInt8.random(in: 0...255, using: &rng)
                let expected = (Int(byte) + 1..<256).first { dfa.step(state, UInt8($0)) != ByteDFA.dead }
                #expect(dfa.nextLiveByte(state, after: byte).map(Int.init) == expected, "seed \(seed), state \(state)")
                let next = dfa.step(state, UInt8.random(in: 0...255, using: &rng))
                if next != ByteDFA.dead && !states.contains(next) { states.append(next) }
            }
        }
    }

    /// Random bytes through random automata: no traps, and `match` equals stepping by hand.
    @Test(arguments: 0..<6 as Range<UInt64>)
    func randomBytesNeverCrash(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<30 {
            let term = String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 0...8, using: &rng)).compactMap { _ in
                        Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &rng))
                    }
                )
            )
            let automata = [
                Levenshtein.automaton(
                    term,
                    distance: Int.random(in: -1...5, using: &rng),
                    transpositions: rng.chance(1, in: 2),
                    prefix: rng.chance(1, in: 2)
                ),
                Wildcard.automaton(term),
            ]
            for nfa in automata {
                let dfa = ByteDFA(nfa, stateLimit: Int.random(in: 0...200, using: &rng))
                for _ in 0..<20 {
                    var bytes = Array(term.utf8)
                    for _ in 0..<Int.random(in: 0...3, using: &rng) {
                        let index = Int.random(in: 0...bytes.count, using: &rng)
                        bytes.insert(UInt8.random(in: 0...255, using: &rng), at: index)
                    }
                    let byHand = bytes.reduce(dfa.start) { dfa.step($0, $1) }
                    #expect(dfa.match(bytes) == dfa.acceptTag(byHand))
                }
            }
        }
    }
}
