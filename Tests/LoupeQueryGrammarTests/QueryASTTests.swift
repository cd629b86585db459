import LoupeQueryGrammar
import Testing

/// The exact trees, with spans and values that `QueryAST.description` does not show.
@Suite struct QueryASTTests {
    private func leaf(_ field: String?, _ kind: LeafQuery.Kind, _ span: Range<Int>) -> QueryAST {
        .leaf(LeafQuery(field: field, kind: kind, span: span))
    }

    @Test func spansCoverFieldValueAndSuffixButNotOccurOrBoost() throws {
        // title:"a b"~2^3 -year:>5
        // 0     6    11 13 16   22
        let ast = try parseQuery(#"title:"a b"~2^3 -year:>5"#)
        #expect(
            ast
                == .boolean([
                    Clause(.should, .boost(leaf("title", .phrase("a b", slop: 2, prefix: false), 0..<13), 3)),
                    Clause(.mustNot, leaf("year", .range(lower: .excluded("5"), upper: .unbounded), 17..<24)),
                ])
        )
    }

    @Test func spansAreByteOffsets() throws {
        // "é" is two bytes, so `b` starts at byte 3.
        #expect(
            try parseQuery("é b")
                == .boolean([
                    Clause(.should, leaf(nil, .term("é"), 0..<2)), Clause(.should, leaf(nil, .term("b"), 3..<4)),
                ])
        )
    }

    @Test func fieldGroupsGiveTheirFieldToInnerLeaves() throws {
        // title:(a body:b *)
        // 0      7 9      16
        let ast = try parseQuery("title:(a body:b *)", defaultConjunction: true)
        #expect(
            ast
                == .boolean([
                    Clause(.must, leaf("title", .term("a"), 7..<8)),
                    Clause(.must, leaf("body", .term("b"), 9..<15)),
                    Clause(.must, leaf("title", .exists, 16..<17)),
                ])
        )
    }

    @Test func occurrencesResolveToTheDefault() throws {
        let disjunction = try parseQuery("a +b -c")
        let conjunction = try parseQuery("a +b -c", defaultConjunction: true)
        guard case .boolean(let should) = disjunction, case .boolean(let must) = conjunction else {
            Issue.record("expected boolean queries: \(disjunction), \(conjunction)")
            return
        }
        #expect(should.map(\.occur) == [.should, .must, .mustNot])
        #expect(must.map(\.occur) == [.must, .must, .mustNot])
    }

    /// `-a` alone is representable; rejecting a query of only excluding clauses is the engine's job.
    @Test func negativeOnlyQueriesParse() throws {
        #expect(try parseQuery("-a") == .boolean([Clause(.mustNot, leaf(nil, .term("a"), 1..<2))]))
        #expect(try parseQuery("NOT a") == .boolean([Clause(.mustNot, leaf(nil, .term("a"), 4..<5))]))
    }

    @Test func leafKinds() throws {
        #expect(try parseQuery("*") == .all)
        #expect(try parseQuery("tags:*") == leaf("tags", .exists, 0..<6))
        #expect(try parseQuery("tags: IN [a 'b c' -1]") == leaf("tags", .set(["a", "b c", "-1"]), 0..<21))
        #expect(try parseQuery(#"title:/a\/b/"#) == leaf("title", .regex("a/b"), 0..<12))
        #expect(try parseQuery("'a b'*") == leaf(nil, .phrase("a b", slop: 0, prefix: true), 0..<6))
        #expect(try parseQuery("year:-1~2") == leaf("year", .phrase("-1", slop: 2, prefix: false), 0..<9))
        #expect(
            try parseQuery("year:{* TO 2000]")
                == leaf("year", .range(lower: .unbounded, upper: .included("2000")), 0..<16)
        )
        #expect(
            try parseQuery("year:<=*") == leaf("year", .range(lower: .unbounded, upper: .unbounded), 0..<8)
        )
    }

    @Test func boosts() throws {
        #expect(try parseQuery("a^1.25") == .boost(leaf(nil, .term("a"), 0..<1), 1.25))
        #expect(try parseQuery("a^1.0") == leaf(nil, .term("a"), 0..<1))
        #expect(try parseQuery("a^0") == .boost(leaf(nil, .term("a"), 0..<1), 0))
        #expect(
            try parseQuery("a^" + String(repeating: "9", count: 400)) == .boost(leaf(nil, .term("a"), 0..<1), .infinity)
        )
    }

    @Test func escapesAreResolvedInWordsFieldsAndPhrases() throws {
        #expect(try parseQuery(#"my\ field:a\:b\*"#) == leaf("my field", .term(#"a:b\*"#), 0..<16))
        #expect(
            try parseQuery(#""a \"b\" \\ \z""#) == leaf(nil, .phrase(#"a "b" \ z"#, slop: 0, prefix: false), 0..<15)
        )
    }

    @Test func descriptionQuotesWhatWouldNotReadBack() throws {
        #expect(try parseQuery(#"f\:x:"a b" c\ d -e"#).description == #"(?"f:x":"a b" ?"c d" -e)"#)
        #expect(try parseQuery("year:[a\\b TO *]").description == #"year:[a\b TO *}"#)
    }
}
