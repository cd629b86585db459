import LoupeAutomata
import TestSupport
import Testing

/// Hand-written patterns (Rust `regex` semantics, checked against tantivy 0.27 where they differ from
/// other engines) and every error with its byte offset.
@Suite struct RegexSyntaxTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var pattern: String
        var matches: [String]
        var rejects: [String] = []
        var testDescription: String { "/\(pattern)/" }
    }

    static let cases: [Case] = [
        Case(pattern: "", matches: [""], rejects: ["a"]),
        Case(pattern: "abc", matches: ["abc"], rejects: ["ab", "abcd", "xabc", ""]),
        Case(pattern: "^abc$", matches: ["abc"], rejects: ["abcd"]),
        Case(pattern: "(?i)^abc$", matches: ["ABC", "abc"]),
        Case(pattern: "a|b|", matches: ["a", "b", ""], rejects: ["ab"]),
        Case(pattern: "a{2,3}", matches: ["aa", "aaa"], rejects: ["a", "aaaa"]),
        Case(pattern: "a{2,}", matches: ["aa", "aaaaa"], rejects: ["a"]),
        Case(pattern: "a{0}", matches: [""], rejects: ["a"]),
        Case(pattern: "a{ 1 , 2 }", matches: ["a", "aa"], rejects: ["", "aaa"]),
        Case(pattern: "a**", matches: ["", "aaa"]),
        Case(pattern: "a*+", matches: ["", "aa"]),
        Case(pattern: "a{2}{3}", matches: ["aaaaaa"], rejects: ["aa", "aaaaa"]),
        Case(pattern: "a+?b*?c??", matches: ["a", "aabbc"], rejects: ["bc"]),
        Case(pattern: "[[:alpha:]]+", matches: ["abcXYZ"], rejects: ["é", "1", ""]),
        Case(pattern: "[[:^digit:]]", matches: ["a", "é"], rejects: ["1"]),
        Case(pattern: "[[:word:][:punct:]]+", matches: ["a_!", "Z9~"], rejects: [" "]),
        Case(pattern: "[[:foo:]]", matches: [":", "f", "o"], rejects: ["x"]),
        Case(pattern: "[[:xdigit:][:space:]]+", matches: ["0aF \t"], rejects: ["g"]),
        Case(pattern: "[]a]", matches: ["]", "a"], rejects: ["b"]),
        Case(pattern: "[^]a]", matches: ["b", "日"], rejects: ["]", "a"]),
        Case(pattern: "[a-]", matches: ["-", "a"], rejects: ["b"]),
        Case(pattern: "[--a]", matches: ["-", "a"], rejects: ["b"]),
        Case(pattern: "[a-c--b]", matches: ["a", "c"], rejects: ["b"]),
        Case(pattern: "[a-z&&[^aeiou]]", matches: ["b", "z"], rejects: ["a", "A"]),
        Case(pattern: "[a-c~~b-d]", matches: ["a", "d"], rejects: ["b", "c"]),
        Case(pattern: "[a[bc]]", matches: ["a", "b", "c"], rejects: ["d"]),
        Case(pattern: "[\\d_-]+", matches: ["0_-9"], rejects: ["a"]),
        Case(pattern: "[^\\x{0}-\\x{10FFFF}]", matches: [], rejects: ["a", ""]),
        Case(pattern: "\\x41\\u0042\\U00000043\\x{1F600}\\u{e9}", matches: ["ABC😀é"]),
        Case(pattern: "\\%\\_\\ \\#\\&\\~", matches: ["%_ #&~"]),
        Case(pattern: "\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\/\\-", matches: ["\\.*+?()[]{}|^$/-"]),
        Case(pattern: "\\a\\f\\t\\n\\r\\v", matches: ["\u{7}\u{C}\t\n\r\u{B}"]),
        Case(pattern: "\\d\\D\\w\\W\\s\\S", matches: ["1a_é\tx"], rejects: ["١a_é\tx", "1aé\tx"]),
        Case(pattern: "(?i)straße", matches: ["STRAßE", "STRAẞE", "straße"], rejects: ["STRASSE"]),
        Case(pattern: "(?i)k", matches: ["k", "K", "\u{212A}"]),
        Case(pattern: "(?i)ı", matches: ["ı"], rejects: ["i", "I"]),
        Case(pattern: "(?i)[^a]", matches: ["b"], rejects: ["a", "A"]),
        Case(pattern: "(?i)[é-ë]", matches: ["É", "ë", "Ë"], rejects: ["E"]),
        Case(pattern: "(?i:a)b", matches: ["Ab"], rejects: ["AB"]),
        Case(pattern: "a(?i)b|c", matches: ["aB", "C", "c"], rejects: ["Ab"]),
        Case(pattern: "(?i)a(?-i)b", matches: ["Ab"], rejects: ["AB"]),
        Case(pattern: ".", matches: ["a", "\r", "日"], rejects: ["\n", ""]),
        Case(pattern: "(?s).", matches: ["\n"]),
        Case(pattern: "(?R).", matches: ["a"], rejects: ["\r", "\n"]),
        Case(pattern: "(?x) a b # comment\n c", matches: ["abc"], rejects: ["a bc"]),
        Case(pattern: "(?x)[a b]", matches: ["a", "b"], rejects: [" "]),
        Case(pattern: "(?x)a\\ b", matches: ["a b"]),
        Case(pattern: "(?x)a +", matches: ["aa"]),
        Case(pattern: "(?P<year>\\d{4})-(?<month>\\d\\d)", matches: ["2024-01"], rejects: ["24-01"]),
        Case(pattern: "(?mU)a+", matches: ["aaa"]),
        Case(pattern: "\\d+\\.\\d+", matches: ["3.14"], rejects: ["3x14"]),
        Case(pattern: "日本.", matches: ["日本語"], rejects: ["日本"]),
        Case(pattern: "((a|b)*c)+", matches: ["c", "abcbc"], rejects: ["ab", "cab"]),
        Case(pattern: "(|a)*b", matches: ["b", "aab"]),
        Case(pattern: "(a*)*(b?)*", matches: ["", "aabb", "b"], rejects: ["ba"]),
    ]

    @Test(arguments: cases)
    func matchesWholeTerms(_ test: Case) throws {
        let dfa = ByteDFA(try Regex.compile(test.pattern))
        for text in test.matches {
            #expect(dfa.match(text.utf8) == 0, "should match \(text.debugDescription)")
        }
        for text in test.rejects {
            #expect(dfa.match(text.utf8) == nil, "should reject \(text.debugDescription)")
        }
    }

    @Test func largestRepetitionCompiles() throws {
        let dfa = ByteDFA(try Regex.compile("x{1000}"))
        #expect(dfa.match(String(repeating: "x", count: 1000).utf8) == 0)
        #expect(dfa.match(String(repeating: "x", count: 999).utf8) == nil)
    }

    struct ErrorCase: CustomTestStringConvertible, Sendable {
        var pattern: String
        var offset: Int
        var message: String
        var testDescription: String { "/\(pattern)/" }
    }

    static let errors: [ErrorCase] = [
        ErrorCase(pattern: "(a", offset: 0, message: "unclosed group"),
        ErrorCase(pattern: "a)", offset: 1, message: "unopened group"),
        ErrorCase(pattern: "(?i:a", offset: 0, message: "unclosed group"),
        ErrorCase(pattern: "é(", offset: 2, message: "unclosed group"),
        ErrorCase(pattern: "日日)", offset: 6, message: "unopened group"),
        ErrorCase(pattern: "[a", offset: 0, message: "unclosed character class"),
        ErrorCase(pattern: "x[]", offset: 1, message: "unclosed character class"),
        ErrorCase(pattern: "[^]", offset: 0, message: "unclosed character class"),
        ErrorCase(pattern: "[[:a]", offset: 0, message: "unclosed character class"),
        ErrorCase(pattern: "*a", offset: 0, message: "repetition operator missing expression"),
        ErrorCase(pattern: "a|*", offset: 2, message: "repetition operator missing expression"),
        ErrorCase(pattern: "(?i)*", offset: 4, message: "repetition operator missing expression"),
        ErrorCase(pattern: "^*", offset: 1, message: "repetition operator missing expression"),
        ErrorCase(pattern: "a{", offset: 1, message: "unclosed counted repetition"),
        ErrorCase(pattern: "a{1,2", offset: 1, message: "unclosed counted repetition"),
        ErrorCase(pattern: "a{,5}", offset: 2, message: "repetition quantifier expects a valid decimal"),
        ErrorCase(pattern: "a{1x}", offset: 3, message: "invalid counted repetition"),
        ErrorCase(pattern: "a{2,1}", offset: 1, message: "invalid repetition range"),
        ErrorCase(pattern: "a{1001}", offset: 2, message: "repetition bound too large (max 1000)"),
        ErrorCase(pattern: "a{1,99999999999999999999}", offset: 4, message: "repetition bound too large (max 1000)"),
        ErrorCase(pattern: "\\", offset: 0, message: "incomplete escape sequence"),
        ErrorCase(pattern: "a\\e", offset: 1, message: "unrecognized escape sequence"),
        ErrorCase(pattern: "\\é", offset: 0, message: "unrecognized escape sequence"),
        ErrorCase(pattern: "\\pL", offset: 0, message: "Unicode property classes"),
        ErrorCase(pattern: "[\\p{Greek}]", offset: 1, message: "Unicode property classes"),
        ErrorCase(pattern: "(a)\\1", offset: 3, message: "backreferences are not supported"),
        ErrorCase(pattern: "\\bword", offset: 0, message: "assertions"),
        ErrorCase(pattern: "a\\z", offset: 1, message: "assertions"),
        ErrorCase(pattern: "(?=a)", offset: 0, message: "look-around"),
        ErrorCase(pattern: "b(?<!a)", offset: 1, message: "look-around"),
        ErrorCase(pattern: "a^", offset: 1, message: "`^` is only allowed at the start"),
        ErrorCase(pattern: "a|^b", offset: 2, message: "`^` is only allowed at the start"),
        ErrorCase(pattern: "a$b", offset: 1, message: "`$` is only allowed at the end"),
        ErrorCase(pattern: "(a$)", offset: 2, message: "`$` is only allowed at the end"),
        ErrorCase(pattern: "(?z)", offset: 2, message: "unrecognized flag"),
        ErrorCase(pattern: "(?ii)", offset: 3, message: "duplicate flag"),
        ErrorCase(pattern: "(?i--s)", offset: 4, message: "flag negation operator repeated"),
        ErrorCase(pattern: "(?i-)", offset: 3, message: "dangling flag negation operator"),
        ErrorCase(pattern: "(?)", offset: 2, message: "expected flags"),
        ErrorCase(pattern: "(?", offset: 0, message: "unclosed group"),
        ErrorCase(pattern: "(?i", offset: 0, message: "unclosed group"),
        ErrorCase(pattern: "(?-u)a", offset: 3, message: "byte-oriented matching"),
        ErrorCase(pattern: "(?<>a)", offset: 3, message: "empty capture group name"),
        ErrorCase(pattern: "(?P<1a>a)", offset: 4, message: "invalid capture group character"),
        ErrorCase(pattern: "(?P<a>a)(?P<a>b)", offset: 12, message: "duplicate capture group name"),
        ErrorCase(pattern: "(?P<a", offset: 4, message: "unclosed capture group name"),
        ErrorCase(pattern: "\\x{110000}", offset: 3, message: "not a Unicode scalar value"),
        ErrorCase(pattern: "\\x{D800}", offset: 3, message: "not a Unicode scalar value"),
        ErrorCase(pattern: "\\u{}", offset: 3, message: "hexadecimal literal empty"),
        ErrorCase(pattern: "\\xG1", offset: 2, message: "invalid hexadecimal digit"),
        ErrorCase(pattern: "\\x{12", offset: 5, message: "incomplete escape sequence"),
        ErrorCase(pattern: "\\x1", offset: 3, message: "incomplete escape sequence"),
        ErrorCase(pattern: "[z-a]", offset: 1, message: "invalid character class range"),
        ErrorCase(pattern: "[\\d-z]", offset: 1, message: "invalid range boundary"),
        ErrorCase(pattern: "[a-\\w]", offset: 1, message: "invalid range boundary"),
        ErrorCase(pattern: "(a{1000}){1000}", offset: 9, message: "pattern too large (max 100000 NFA states)"),
        ErrorCase(pattern: String(repeating: "(", count: 101), offset: 100, message: "nesting too deep (max 100)"),
        ErrorCase(pattern: "a" + String(repeating: "?", count: 300), offset: 201, message: "nesting too deep"),
    ]

    @Test(arguments: errors)
    func reportsErrorsWithOffsets(_ test: ErrorCase) {
        do {
            _ = try Regex.compile(test.pattern)
            Issue.record("compiled")
        } catch {
            #expect(error.offset == test.offset, "\(error)")
            #expect(error.message.contains(test.message), "\(error)")
        }
    }

    /// Random scalars, biased to syntax characters: every pattern compiles or throws, and the DFA runs.
    @Test(arguments: 0..<10 as Range<UInt64>)
    func randomPatternsNeverCrash(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let pieces =
            Array("()[]{}|*+?.^$\\-&~:,<>=!#PpxuU0123456789abdswDSWiR日é \n").map(String.init)
            + ["(?", "[:", ":]", "\\x{", "(?P<", "{1,", "[^", "&&", "--", "(?i)", "(?x)"]
        for _ in 0..<300 {
            var pattern = ""
            for _ in 0..<Int.random(in: 0...14, using: &rng) {
                if rng.chance(1, in: 8), let scalar = Unicode.Scalar(UInt32.random(in: 0...0x2FFFF, using: &rng)) {
                    pattern.unicodeScalars.append(scalar)
                } else {
                    pattern += rng.pick(pieces)
                }
            }
            do {
                let dfa = ByteDFA(try Regex.compile(pattern))
                for _ in 0..<5 {
                    let bytes = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
                        UInt8.random(in: 0...255, using: &rng)
                    }
                    _ = dfa.match(bytes)
                    _ = dfa.match(pattern.utf8)
                }
            } catch {
                #expect(
                    error.offset >= 0 && error.offset <= pattern.utf8.count,
                    "seed \(seed): \(pattern.debugDescription)"
                )
            }
        }
    }
}
