import Foundation
import IdxKit
import Testing

@Suite struct FacetsCommandTests {
    @Test func countsPerValueMostFirstTiesByValue() throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["facets", folder.subpath("index"), "genres"])
        #expect(run.code == .success)
        #expect(run.err.isEmpty)
        #expect(run.out == "2  Comedy\n2  Crime\n2  Drama\n2  Romance\n1  Action\n")
        let limited = IdxRun(["facets", folder.subpath("index"), "genres", "--query", "heat", "--limit", "3"])
        #expect(limited.out == "1  Comedy\n1  Crime\n1  Drama\n")
    }

    @Test func jsonIsAnArrayOfValuesAndCounts() throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["facets", folder.subpath("index"), "year", "--json"])
        #expect(run.code == .success)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: Any]])
        #expect(parsed.map { $0["value"] as? Int } == [1972, 1995, 2000, 2003, 2008])
        #expect(parsed.map { $0["count"] as? Int } == [1, 1, 1, 1, 1])
    }

    @Test func aFieldThatIsNotFastOrAQueryThatDoesNotParseIsAnError() throws {
        let folder = try Fixtures.indexedFolder()
        let slow = IdxRun(["facets", folder.subpath("index"), "title"])
        #expect(slow.code != .success)
        #expect(slow.err.contains("'title' is not fast"))
        let bad = IdxRun(["facets", folder.subpath("index"), "genres", "--query", "title:(heat"])
        #expect(bad.code != .success)
        #expect(bad.err.contains("^"))
    }
}
