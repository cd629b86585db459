import Foundation
import IdxKit
import Loupe
import Testing

/// `idx search … --instant`: instant search with suggestions and facets, in the output of plain search.
@Suite struct SearchInstantTests {
    @Test func textShowsHitsCountSuggestionsAndFacets() throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["search", folder.subpath("index"), "he", "--instant", "--facet", "genres"])
        #expect(run.code == .success, "\(run.err)")
        #expect(run.err.isEmpty)
        let lines = run.out.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines.prefix(2).map { $0.split(separator: "  ")[1] } == ["m1", "m3"], "the prefix completes to heat")
        #expect(lines[2].hasPrefix("2 matches, showing 1–2 ("))
        #expect(lines[3] == "suggestions: heat (2)")
        #expect(lines[4] == "genres: Comedy (1), Crime (1), Drama (1), Romance (1)")
    }

    @Test func aTypoStillFindsTheDocumentAndSnippetsMarkIt() throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["search", folder.subpath("index"), "godfathr", "--instant", "--snippet", "title"])
        #expect(run.code == .success)
        let lines = run.out.split(separator: "\n")
        #expect(lines[0].split(separator: "  ")[1] == "m2")
        #expect(lines[1] == "    The [Godfather]")
        #expect(lines[2].hasPrefix("1 match, showing 1–1 ("))
        #expect(lines[3] == "suggestions: godfather (1)")
    }

    @Test func jsonAddsSuggestionsAndFacets() throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["search", folder.subpath("index"), "he", "--instant", "--json", "--facet", "genres"])
        #expect(run.code == .success)
        #expect(run.out.filter { $0 == "\n" }.count == 1)
        #expect(
            run.out.hasSuffix(
                #""suggestions": [{"text": "heat", "count": 2, "source": "index"}], "facets": {"genres": [{"value": "Comedy", "count": 1}, {"value": "Crime", "count": 1}, {"value": "Drama", "count": 1}, {"value": "Romance", "count": 1}]}}"#
                    + "\n"))
        let json = try run.json()
        #expect(Set(json.keys) == ["query", "count", "count_exact", "hits", "suggestions", "facets"])
        #expect(json["count"] as? Int == 2)
        #expect(json["count_exact"] as? Bool == true)
        let hits = try #require(json["hits"] as? [[String: Any]])
        #expect(hits.compactMap { ($0["doc"] as? [String: Any])?["id"] as? String } == ["m1", "m3"])

        let plain = try IdxRun(["search", folder.subpath("index"), "he", "--instant", "--json"]).json()
        #expect(Set(plain.keys) == ["query", "count", "count_exact", "hits", "suggestions"], "no facets unless asked")
    }

    @Test func countLimitAndFields() throws {
        let folder = try Fixtures.indexedFolder()
        let index = folder.subpath("index")
        #expect(IdxRun(["search", index, "he", "--instant", "--count"]).out == "2\n")
        let one = try IdxRun(["search", index, "he", "--instant", "--json", "--limit", "1"]).json()
        #expect((one["hits"] as? [Any])?.count == 1)
        #expect(one["count"] as? Int == 2, "the count ignores the limit")
        let byGenre = try IdxRun(["search", index, "Crim", "--instant", "--json", "--fields", "genres"]).json()
        #expect(byGenre["count"] as? Int == 2)
    }

    @Test(arguments: [
        (["--sort", "year"], "--sort does not apply with --instant"),
        (["--offset", "1"], "--offset does not apply with --instant"),
        (["--and"], "--and does not apply with --instant"),
    ])
    func optionsInstantSearchCannotHonourAreRejected(options: [String], message: String) throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["search", folder.subpath("index"), "he", "--instant"] + options)
        #expect(run.code == .usage)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("idx search: " + message), "\(run.err)")
    }

    @Test(arguments: [["--facet", "genres"], ["--fields", "title"], ["--popularity", "year"], ["--no-history"]])
    func instantOptionsNeedInstant(options: [String]) throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["search", folder.subpath("index"), "he"] + options)
        #expect(run.code == .usage)
        #expect(run.err.hasPrefix("idx search: \(options[0]) applies only with --instant"), "\(run.err)")
    }

    @Test func badFieldsAreFailuresNamingThem() throws {
        let folder = try Fixtures.indexedFolder()
        let index = folder.subpath("index")
        let unknown = IdxRun(["search", index, "he", "--instant", "--fields", "nope"])
        #expect(unknown.code == .failure)
        #expect(unknown.err.contains("'nope'"))
        let slow = IdxRun(["search", index, "he", "--instant", "--facet", "title"])
        #expect(slow.code == .failure)
        #expect(slow.err.contains("'title'"))
    }

    @Test func historyComesFirstUnlessLeftOutAndNothingIsRecorded() throws {
        let folder = try Fixtures.indexedFolder()
        let index = folder.subpath("index")
        let historyFile = index + "/search-history.bin"
        _ = IdxRun(["search", index, "he", "--instant"])
        #expect(!FileManager.default.fileExists(atPath: historyFile), "search records nothing")

        try SearchHistory(beside: Index(path: index)).record("heat wave")
        let merged = try IdxRun(["search", index, "he", "--instant", "--json"]).json()
        let suggestions = try #require(merged["suggestions"] as? [[String: Any]])
        #expect(suggestions.map { $0["text"] as? String } == ["heat wave", "heat"])
        #expect(suggestions.map { $0["source"] as? String } == ["history", "index"])
        #expect(IdxRun(["search", index, "he", "--instant"]).out.contains("suggestions: ↺ heat wave (1), heat (2)\n"))

        let without = try IdxRun(["search", index, "he", "--instant", "--json", "--no-history"]).json()
        #expect((without["suggestions"] as? [[String: Any]])?.map { $0["source"] as? String } == ["index"])
        #expect(try SearchHistory(beside: Index(path: index)).recent().map(\.query) == ["heat wave"])
    }
}
