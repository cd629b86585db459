import Loupe
import LoupeAutomata
import TestSupport
import Testing

/// The compiled-automaton cache: patterns compiled once, DFAs lent to one search at a time, bounds kept, and a
/// pooled DFA never turning a query into a "too complex" error.
@Suite struct AutomatonCacheTests {
    private static func regex(_ pattern: String) -> ScalarNFA {
        (try? Regex.compile(pattern)) ?? Wildcard.automaton(pattern)
    }

    @Test func patternsCompileOnceAndDFAsAreReused() throws {
        let cache = AutomatonCache(entryLimit: 8, byteLimit: 1 << 20)
        var compiled = 0
        let key = AutomatonCache.Key.regex("ab.*")
        for _ in 0..<3 {
            _ = cache.nfa(key) {
                compiled += 1
                return Self.regex("ab.*")
            }
        }
        #expect(compiled == 1)
        let nfa = cache.nfa(key) { Self.regex("ab.*") }
        let first = try cache.withDFA(key, nfa: nfa, describing: "ab.*") { (dfa) throws(IndexError) in
            _ = dfa.match(Array("abc".utf8))
            return ObjectIdentifier(dfa)
        }
        let second = try cache.withDFA(key, nfa: nfa, describing: "ab.*") { (dfa) throws(IndexError) in
            #expect(dfa.builtStateCount > 1, "the pooled DFA keeps the states built before")
            return ObjectIdentifier(dfa)
        }
        #expect(first == second)
    }

    @Test func aDFAInUseIsNotLentTwice() throws {
        let cache = AutomatonCache(entryLimit: 8, byteLimit: 1 << 20)
        let key = AutomatonCache.Key.wildcard("a*b")
        let nfa = cache.nfa(key) { Wildcard.automaton("a*b") }
        try cache.withDFA(key, nfa: nfa, describing: "a*b") { (outer) throws(IndexError) in
            try cache.withDFA(key, nfa: nfa, describing: "a*b") { (inner) throws(IndexError) in
                #expect(outer !== inner)
            }
        }
    }

    @Test func leastRecentlyUsedPatternsAreEvicted() {
        let cache = AutomatonCache(entryLimit: 2, byteLimit: 1 << 20)
        var compiled: [String] = []
        func use(_ pattern: String) {
            _ = cache.nfa(.regex(pattern)) {
                compiled.append(pattern)
                return Self.regex(pattern)
            }
        }
        for pattern in ["a", "b", "a", "c", "a", "b"] { use(pattern) }
        // "b" was the least recently used when "c" came in, so it is compiled again at the end.
        #expect(compiled == ["a", "b", "c", "b"])
    }

    /// `[a-z]{0,30}x[a-z]{30}` remembers where the last 31 x's were: almost every step over random a's and x's
    /// makes a new DFA state.
    private static func steps(_ dfa: ByteDFA, _ rng: inout SplitMix64, while condition: (ByteDFA) -> Bool) {
        var state = dfa.start
        while condition(dfa) {
            state = dfa.step(state, Bool.random(using: &rng) ? UInt8(ascii: "a") : UInt8(ascii: "x"))
            if state == ByteDFA.dead { state = dfa.start }
        }
    }

    @Test func aPooledDFANearItsStateLimitIsRetriedFresh() throws {
        let cache = AutomatonCache(entryLimit: 8, byteLimit: 1 << 30)
        let pattern = "[a-z]{0,30}x[a-z]{30}"
        let key = AutomatonCache.Key.regex(pattern)
        let nfa = try cache.nfa(key) { () throws(RegexSyntaxError) in try Regex.compile(pattern) }
        var rng = SplitMix64(seed: 7)
        // Fill a DFA to just under its state limit and put it back in the pool.
        try cache.withDFA(key, nfa: nfa, describing: pattern) { (dfa) throws(IndexError) in
            Self.steps(dfa, &rng) { $0.builtStateCount < 19_990 }
        }
        // A search needing a few hundred states more gets the full one first, then a fresh one.
        var runs = 0
        try cache.withDFA(key, nfa: nfa, describing: pattern) { (dfa) throws(IndexError) in
            runs += 1
            var local = SplitMix64(seed: 99)
            var left = 300
            Self.steps(dfa, &local) { _ in
                left -= 1
                return left >= 0
            }
        }
        #expect(runs == 2)
        // One that needs more than a fresh DFA allows is too complex.
        do {
            try cache.withDFA(key, nfa: nfa, describing: "regex /\(pattern)/") { (dfa) throws(IndexError) in
                Self.steps(dfa, &rng) { !$0.exceededStateLimit }
            }
            Issue.record("expected a too-complex error")
        } catch {
            #expect(error.code == .invalidQuery && error.message.contains("too complex"), "\(error)")
        }
    }
}
