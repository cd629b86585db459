import LoupeQueryGrammar
import Testing

/// Compares the grammar with tantivy 0.27 on the queries recorded in `Fixtures/tantivy-goldens.tsv`
/// (regenerate with `Fixtures/make_goldens.py`): hand-written syntax cases plus the movies and
/// debian-packages corpus queries.
@Suite struct TantivyDifferentialTests {
    static let goldens: [TantivyGolden] = (try? TantivyGolden.load()) ?? []

    @Test func goldensAreLoaded() throws {
        let goldens = try TantivyGolden.load()
        #expect(goldens.count > 1000)
        #expect(goldens.contains { $0.status == .syntax })
        #expect(goldens.contains { $0.status == .error })
    }

    @Test(arguments: goldens)
    func matchesTantivy(_ golden: TantivyGolden) {
        for conjunction in [false, true] {
            let expected = conjunction ? golden.conjunction : golden.disjunction
            let ast: QueryAST
            do {
                ast = try parseQuery(golden.query, defaultConjunction: conjunction)
            } catch {
                #expect(golden.status == .syntax, "tantivy accepts it (\(expected)); we reject: \(error)")
                return
            }
            switch golden.status {
            case .syntax:
                Issue.record("tantivy rejects the syntax; we parse \(ast)")
                return
            case .ok:
                do {
                    let skeleton = try TantivyLowering.skeleton(of: ast)
                    #expect(skeleton == expected, "conjunction: \(conjunction), ast: \(ast)")
                } catch {
                    Issue.record("tantivy builds \(expected); lowering \(ast) fails: \(error)")
                }
            case .error:
                let skeleton = try? TantivyLowering.skeleton(of: ast)
                #expect(skeleton == nil, "tantivy fails with \(expected); lowering \(ast) gives \(skeleton ?? "")")
            }
        }
    }

    /// Every clause of a corpus query is a plain term, phrase, field or range: the top-level occurrences
    /// must be what tantivy's flat boolean shows (`+a -b` stays flat, `a b` is two shoulds).
    @Test func corpusQueriesKeepTheirTopLevelOccurrences() throws {
        let ast = try parseQuery("+hopkins -juliet")
        guard case .boolean(let clauses) = ast else {
            Issue.record("expected a boolean query, got \(ast)")
            return
        }
        #expect(clauses.map(\.occur) == [.must, .mustNot])
        #expect(try parseQuery("donovan bedazzled", defaultConjunction: true).description == "(+donovan +bedazzled)")
    }
}
