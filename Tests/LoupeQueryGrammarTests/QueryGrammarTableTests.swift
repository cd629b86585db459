import LoupeQueryGrammar
import Testing

/// Query strings and the tree the grammar gives, written in `QueryAST.description`'s compact form:
/// `?` should, `+` must, `-` must not, `(q)^2` boost, `field:value` leaves, `{*`/`*}` open range ends.
/// Each case was checked against tantivy 0.27 (see `TantivyDifferentialTests` for the automated check).
@Suite struct QueryGrammarTableTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var query: String
        var expected: String
        var testDescription: String { query }
    }

    static let cases: [Case] = [
        // Words, phrases and fields
        (#"rust"#, #"rust"#),
        (#"title:rust"#, #"title:rust"#),
        (#"title:"rust lang""#, #"title:"rust lang""#),
        (#""rust lang""#, #""rust lang""#),
        (#"'rust lang'"#, #""rust lang""#),
        (#"title:'rust lang'"#, #"title:"rust lang""#),
        // Occurrence prefixes, NOT, AND, OR (AND binds tighter than OR and than whitespace)
        (#"rust lang"#, #"(?rust ?lang)"#),
        (#"+rust -java"#, #"(+rust -java)"#),
        (#"+rust lang"#, #"(+rust ?lang)"#),
        (#"-java"#, #"(-java)"#),
        (#"NOT java"#, #"(-java)"#),
        (#"rust NOT java"#, #"(?rust -java)"#),
        (#"rust AND NOT java"#, #"(+rust +(-java))"#),
        (#"rust AND lang"#, #"(+rust +lang)"#),
        (#"rust OR lang"#, #"(?rust ?lang)"#),
        (#"rust AND lang OR go"#, #"(?(+rust +lang) ?go)"#),
        (#"rust OR lang AND go"#, #"(?rust ?(+lang +go))"#),
        (#"rust AND lang go"#, #"(?(+rust +lang) ?go)"#),
        (#"rust lang AND go"#, #"(?rust ?(+lang +go))"#),
        (#"a AND b AND c OR d OR e AND f"#, #"(?(+a +b +c) ?d ?(+e +f))"#),
        (#"a OR -b"#, #"(?a ?(-b))"#),
        (#"-a OR b"#, #"(?(-a) ?b)"#),
        (#"a AND -b"#, #"(+a -b)"#),
        (#"+a OR +b"#, #"(+a +b)"#),
        (#"a OR b c"#, #"(?a ?b ?c)"#),
        (#"a -b OR c"#, #"(?a ?(-b) ?c)"#),
        (#"a OR NOT b AND c"#, #"(?a ?(+(-b) +c))"#),
        // Parentheses and field groups
        (#"(rust lang)"#, #"(?rust ?lang)"#),
        (#"((rust))"#, #"rust"#),
        (#"(rust AND lang) OR go"#, #"(?(+rust +lang) ?go)"#),
        (#"+(rust lang)"#, #"(?rust ?lang)"#),
        (#"-(rust lang)"#, #"(-(?rust ?lang))"#),
        (#"x (-a)"#, #"(?x -a)"#),
        (#"x ((-a))"#, #"(?x -a)"#),
        (#"x +(-a)"#, #"(?x +(-a))"#),
        (#"title:(rust lang)"#, #"(?title:rust ?title:lang)"#),
        (#"title:(+rust -java)"#, #"(+title:rust -title:java)"#),
        (#"title:(rust AND "web server")"#, #"(+title:rust +title:"web server")"#),
        (#"title:(rust body:lang)"#, #"(?title:rust ?body:lang)"#),
        (#"title:(*)"#, #"title:*"#),
        (#"title:(rust *)"#, #"(?title:rust ?title:*)"#),
        (#"title:(a (b c))"#, #"(?title:a ?(?title:b ?title:c))"#),
        (#"title:(a)^2"#, #"(title:a)^2"#),
        // Slop, phrase prefix and boosts
        (#""a b"~2"#, #""a b"~2"#),
        (#""a b"*"#, #""a b"*"#),
        (#"'a b'~3"#, #""a b"~3"#),
        (#""a b"~2^3"#, #"("a b"~2)^3"#),
        (#""a b c"~4294967295"#, #""a b c"~4294967295"#),
        (#"rust^2"#, #"(rust)^2"#),
        (#"rust^1.5"#, #"(rust)^1.5"#),
        (#"rust^1"#, #"rust"#),
        (#"rust^0"#, #"(rust)^0"#),
        (#"(rust lang)^2"#, #"(?rust ?lang)^2"#),
        (#"title:rust^2"#, #"(title:rust)^2"#),
        // Ranges (a `*` bound is open; `>`/`<` need a field only in the engine)
        (#"year:[1990 TO 2000]"#, #"year:[1990 TO 2000]"#),
        (#"year:{1990 TO 2000}"#, #"year:{1990 TO 2000}"#),
        (#"year:[1990 TO 2000}"#, #"year:[1990 TO 2000}"#),
        (#"year:{1990 TO 2000]"#, #"year:{1990 TO 2000]"#),
        (#"year:[* TO 2000]"#, #"year:{* TO 2000]"#),
        (#"year:[1990 TO *]"#, #"year:[1990 TO *}"#),
        (#"year:{* TO *}"#, #"year:{* TO *}"#),
        (#"year:>1990"#, #"year:{1990 TO *}"#),
        (#"year:>=1990"#, #"year:[1990 TO *}"#),
        (#"year:<2000"#, #"year:{* TO 2000}"#),
        (#"year:<=2000"#, #"year:{* TO 2000]"#),
        (#"year: > 1990"#, #"year:{1990 TO *}"#),
        (#"year:>=*"#, #"year:{* TO *}"#),
        (#"[a TO b]"#, #"[a TO b]"#),
        (#"year:[-5 TO -1]"#, #"year:[-5 TO -1]"#),
        (#"released:[1998-01-01T00:00:00Z TO *]"#, #"released:[1998-01-01T00:00:00Z TO *}"#),
        (#"title:>a:b"#, #"title:{a:b TO *}"#),
        // Sets, all documents, exists, regexes
        (#"tags: IN [a b c]"#, #"tags:IN[a b c]"#),
        (#"tags:IN ["a b" 'c' -1]"#, #"tags:IN["a b" c "-1"]"#),
        (#"tags: IN []"#, #"tags:IN[]"#),
        (#"IN [a]"#, #"IN[a]"#),
        (#"*"#, #"*"#),
        (#"*^2"#, #"(*)^2"#),
        (#"title:*"#, #"title:*"#),
        (#"title: *"#, #"title:*"#),
        (#"-title:*"#, #"(-title:*)"#),
        (#"*a"#, #"*a"#),
        (#"**"#, #"**"#),
        (#"title:*bar"#, #"title:*bar"#),
        (#"title:/ru.t/"#, #"title:/ru.t/"#),
        (#"/ru.t/"#, #"/ru.t/"#),
        (#"title:/a\/b/"#, #"title:/a/b/"#),
        (#"title:/ab/c"#, #"title:/ab/c"#),
        // Escapes and what a word swallows (tantivy analyzes `c++`, `foo-bar`, `3.14` later)
        (#"a\:b"#, #""a:b""#),
        (#"title:a\:b"#, #"title:"a:b""#),
        (#"c\+\+"#, #""c\\+\\+""#),
        (#"a\ b"#, #""a b""#),
        (#"\-a"#, #""-a""#),
        (#"\(a\)"#, #""(a)""#),
        (#""a \"b\" c""#, #""a \"b\" c""#),
        (#"'it\'s'"#, #""it's""#),
        (#"c++"#, #"c++"#),
        (#"foo-bar"#, #"foo-bar"#),
        (#"3.14"#, #"3.14"#),
        (#"foo/bar"#, #"foo/bar"#),
        (#"a*"#, #"a*"#),
        (#"a~2"#, #"a~2"#),
        (#"title:-3"#, #"title:"-3""#),
        (#"title:-3.5"#, #"title:"-3.5""#),
        (#"--3"#, #"(-"-3")"#),
        // tantivy quirks followed on purpose
        (#"++a"#, #"+a"#),
        (#"a OR AND :b"#, #"(?a ?AND:b)"#),
        (#"AND :x"#, #"AND:x"#),
        (#"title :rust"#, #"title:rust"#),
        (#"rust :lang"#, #"rust:lang"#),
        (#"a - >2"#, #"(?a -{2 TO *})"#),
        (#"a - *"#, #"(?a -*)"#),
        (#"x "a"b"#, #"(?x ?"a" ?b)"#),
        (#"x (a)(b)"#, #"(?x ?a ?b)"#),
        (#"a a"#, #"(?a)"#),
        (#"a AND a"#, #"(+a)"#),
        (#""a" 'a'"#, #"(?"a" ?"a")"#),
        (#"title:(a title:a)"#, #"(?title:a)"#),
        (#"(a a)^2"#, #"(?a ?a)^2"#),
        (#"x (y (-a))^2"#, #"(?x ?(?y ?(-a))^2)"#),
        (#"a\tb:c"#, #""a\\tb":c"#),
        // Keywords are uppercase only
        (#"NOTa"#, #"NOTa"#),
        (#"ANDROID"#, #"ANDROID"#),
        (#"and"#, #"and"#),
        (#"a and b"#, #"(?a ?and ?b)"#),
        (#""AND""#, #""AND""#),
        (#"a  AND  b"#, #"(+a +b)"#),
    ].map { Case(query: $0.0, expected: $0.1) }

    @Test(arguments: cases)
    func parses(_ testCase: Case) throws {
        #expect(try parseQuery(testCase.query).description == testCase.expected)
    }

    @Test func thereAreEnoughCases() {
        #expect(Self.cases.count >= 80)
    }

    /// With `defaultConjunction`, only clauses written without an operator change: to `must`.
    @Test(arguments: [
        (#"rust lang"#, #"(+rust +lang)"#),
        (#"rust -java"#, #"(+rust -java)"#),
        (#"rust OR lang go"#, #"(?rust ?lang +go)"#),
        (#"rust AND lang go"#, #"(?(+rust +lang) +go)"#),
        (#"title:(rust lang) year:>2000"#, #"(+(+title:rust +title:lang) +year:{2000 TO *})"#),
        (#"x (-a)"#, #"(+x -a)"#),
        (#"rust"#, #"rust"#),
    ])
    func parsesWithDefaultConjunction(_ query: String, _ expected: String) throws {
        #expect(try parseQuery(query, defaultConjunction: true).description == expected)
    }

    @Test(arguments: ["", " ", "\t\n ", "\r\n"])
    func emptyQueriesAreAnEmptyGroup(_ query: String) throws {
        #expect(try parseQuery(query) == .boolean([]))
    }

    /// Whitespace is space, tab, CR or LF; other Unicode spaces are errors, as in tantivy.
    @Test func separators() throws {
        #expect(try parseQuery("a\tb\nc\r\nd").description == "(?a ?b ?c ?d)")
        #expect(try parseQuery("x NOT\na").description == "(?x -a)")
        #expect(throws: QuerySyntaxError.self) { try parseQuery("a\u{A0}b") }
        #expect(throws: QuerySyntaxError.self) { try parseQuery("a AND\tb") }
    }
}
