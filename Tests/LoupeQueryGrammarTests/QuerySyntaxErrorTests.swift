import LoupeQueryGrammar
import Testing

/// Queries tantivy 0.27 rejects as syntax errors: the grammar rejects them too, at a precise byte offset
/// and with a message that says what is wrong.
@Suite struct QuerySyntaxErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var query: String
        var offset: Int
        var messagePart: String
        var testDescription: String { query }
    }

    static let cases: [Case] = [
        (#"(rust lang"#, 0, #"`(` is never closed"#),
        (#"rust lang)"#, 9, #"unbalanced `)`"#),
        (#"()"#, 0, #"empty parentheses"#),
        (#"( )"#, 0, #"empty parentheses"#),
        (#""rust lang"#, 0, #"unterminated phrase"#),
        (#"'rust lang"#, 0, #"unterminated phrase"#),
        (#"title:"#, 6, #"`title:` must be followed by a value"#),
        (#"title: )"#, 7, #"`title:` must be followed by a value"#),
        (#":rust"#, 0, #"a field name is missing before `:`"#),
        (#"rust AND"#, 5, #"`AND` must be followed by a clause"#),
        (#"AND rust"#, 0, #"`AND` must follow a clause"#),
        (#"rust OR"#, 5, #"`OR` must be followed by a clause"#),
        (#"OR"#, 0, #"`OR` must be followed by a clause"#),
        (#"rust AND AND lang"#, 9, #"`AND` cannot be followed by another operator"#),
        (#"rust AND OR lang"#, 9, #"`AND` cannot be followed by another operator"#),
        ("rust AND\tlang", 5, #"`AND` must be followed by exactly one space, then a clause"#),
        (#"NOT"#, 0, #"`NOT` must be followed by whitespace and a clause"#),
        (#"rust NOT"#, 5, #"`NOT` must be followed by whitespace and a clause"#),
        (#"NOT(rust)"#, 0, #"`NOT` must be followed by whitespace and a clause"#),
        (#"NOT -rust"#, 4, #"`NOT` cannot be combined with `-`"#),
        (#"IN"#, 0, #"`IN` must be followed by whitespace and a list in brackets, as in `field"#),
        (#"tags:IN[a]"#, 5, #"`IN` must be followed by whitespace and a list in brackets, as in `field"#),
        (#"tags: IN a"#, 6, #"`IN` must be followed by a list in brackets, as in `field"#),
        (#"tags: IN [a"#, 9, #"unterminated list"#),
        (#"tags: IN [a ]"#, 11, #"remove the whitespace before `]`"#),
        (#"tags: IN [a"b"]"#, 11, #"list values must be separated by whitespace"#),
        (#"year:[1 TO"#, 5, #"unterminated range"#),
        (#"year:[1 TO 5"#, 5, #"unterminated range"#),
        (#"year:[1 5]"#, 8, #"expected ` TO `"#),
        (#"year:[1 TO 5 6]"#, 13, #"expected `]` or `}`"#),
        (#"year:[1TO 5]"#, 10, #"expected ` TO `"#),
        (#"year:[]"#, 6, #"expected a lower bound"#),
        (#"year:[1 TO 5]x"#, 13, #"unexpected `x`"#),
        (#"year:{1 TO 5)"#, 5, #"unterminated range"#),
        (#"rust^"#, 4, #"`^` must be followed by a boost such as `^2` or `^1.5`"#),
        (#"rust^x"#, 4, #"`^` must be followed by a boost such as `^2` or `^1.5`"#),
        (#"rust^2^3"#, 6, #"a clause takes a single boost, written as a number such as `^2`"#),
        (#"rust^2."#, 6, #"unexpected `.`"#),
        (#""a b"~"#, 5, #"`~` must be followed by a slop such as `~2`, and only after a quoted phrase"#),
        (#""a b"~x"#, 5, #"`~` must be followed by a slop such as `~2`, and only after a quoted phrase"#),
        (#""a b"~99999999999"#, 5, #"slop `~99999999999` is too large (at most 4294967295)"#),
        (#""a b"*~2"#, 6, #"a phrase takes a slop such as `~2` or a prefix `*`, not both"#),
        (#""a"b"#, 3, #"unexpected `b`"#),
        (#"(a)(b)"#, 3, #"`(` must start a new clause"#),
        (#"a(b)"#, 1, #"`(` must start a new clause"#),
        (#"a"b"#, 1, #"a quote cannot touch the text before it"#),
        (#"don't"#, 3, #"a quote cannot touch the text before it"#),
        (#"a:b:c"#, 3, #"unexpected `:` after a value"#),
        (#"rust\"#, 4, #"`\` at the end of the query escapes nothing"#),
        (#"title:--a"#, 6, #"a value cannot start with `-`"#),
        (#"--a"#, 1, #"a value cannot start with `-`"#),
        (#"+"#, 0, #"`+` must be directly followed by a clause (no space), as in `+term`"#),
        (#"- rust"#, 0, #"`-` must be directly followed by a clause (no space), as in `-term`"#),
        (#"-"#, 0, #"`-` must be directly followed by a clause (no space), as in `-term`"#),
        (#"rust ]"#, 5, #"`]` closes no range or list"#),
        (#"}"#, 0, #"`}` closes no range or list"#),
        (#"^rust"#, 0, #"a boost must follow a clause, as in `term^2`"#),
        (#"`rust"#, 0, #"`` ` `` is reserved"#),
        (#"a b`"#, 3, #"`` ` `` is reserved"#),
        (#"title:`a"#, 6, #"`` ` `` is reserved"#),
    ].map { Case(query: $0.0, offset: $0.1, messagePart: $0.2) }

    @Test(arguments: cases)
    func rejects(_ testCase: Case) {
        do {
            let ast = try parseQuery(testCase.query)
            Issue.record("parsed as \(ast)")
        } catch {
            #expect(error.offset == testCase.offset, "\(error.message)")
            #expect(error.message.contains(testCase.messagePart), "\(error.message)")
            #expect(error.query == testCase.query)
        }
    }

    @Test func descriptionPointsAtTheOffset() {
        let error = QuerySyntaxError(offset: 5, message: "`(` is never closed; add a matching `)`", query: "rust (lang")
        #expect(
            error.description == """
                query syntax error at byte 5: `(` is never closed; add a matching `)`
                  rust (lang
                       ^
                """
        )
    }

    /// The caret counts characters, not bytes, and control characters print as spaces.
    @Test func descriptionAlignsAfterMultibyteCharacters() throws {
        do {
            _ = try parseQuery("é\tñ (x")
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 6)
            let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 3)
            #expect(lines[1] == "  é ñ (x")
            #expect(lines[2] == "      ^")
        }
    }

    @Test func errorAtTheEndPointsPastTheLastCharacter() {
        do {
            _ = try parseQuery("title:")
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 6)
            #expect(error.description.hasSuffix("\n  title:\n        ^"))
        }
    }

    /// Parentheses and `NOT` nest at most `maximumNesting` levels, so hostile input cannot exhaust the
    /// stack; tantivy's limit is its stack.
    @Test(arguments: ["(", "NOT ", "a:("])
    func deepNestingIsAnErrorNotACrash(_ opener: String) throws {
        let query = String(repeating: opener, count: 5_000) + "a"
        #expect(throws: QuerySyntaxError.self) { try parseQuery(query) }
        let shallow = String(repeating: "(", count: 90) + "a" + String(repeating: ")", count: 90)
        #expect(try parseQuery(shallow).description == "a")
    }
}
