import IdxKit
import Testing

/// Options given more than once, comma lists, and optional positionals, as the commands see them.
@Suite struct ArgumentsTests {
    @Test(arguments: [
        ["--facet", "genres", "--facet", "year"],
        ["--facet", "genres,year"],
        ["--facet=genres, year,"],
        ["--facet", "genres", "--facet", "year,genres"],
    ])
    func facetRepeatsAndTakesCommaLists(options: [String]) throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["search", folder.subpath("index"), "he", "--instant", "--json"] + options)
        #expect(run.code == .success, "\(run.err)")
        let facets = try #require(try run.json()["facets"] as? [String: Any])
        #expect(Set(facets.keys) == ["genres", "year"])
        #expect(run.out.contains(#""facets": {"genres": "#), "in the order first given")
    }

    @Test func otherOptionsKeepTheirLastValue() throws {
        let folder = try Fixtures.indexedFolder()
        let run = try IdxRun([
            "search", folder.subpath("index"), "he", "--instant", "--json", "--limit", "5", "--limit=1",
        ])
        .json()
        #expect((run["hits"] as? [Any])?.count == 1)
    }

    @Test func usageMarksRepeatableOptionsAndOptionalArguments() {
        #expect(IdxRun(["search", "--help"]).out.contains(" [--facet FIELD]... "))
        let suggest = IdxRun(["suggest", "--help"]).out
        #expect(suggest.contains("USAGE: idx suggest DIR [TEXT] [--field FIELD]"))
        #expect(suggest.contains("\n  TEXT                The text typed so far;"))
    }
}
