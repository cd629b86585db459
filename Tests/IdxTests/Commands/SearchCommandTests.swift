import Foundation
import IdxKit
import Testing

@Suite struct SearchCommandTests {
    @Test func textShowsScoreIdFieldsAndCount() throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["search", folder.subpath("index"), "heat"])
        #expect(run.code == .success)
        #expect(run.err.isEmpty)
        let lines = run.out.split(separator: "\n")
        #expect(lines.count == 3)
        // "Heat" is the shorter title, so BM25 ranks it first.
        let first = lines[0].split(separator: "  ")
        #expect(Double(first[0]) != nil)
        #expect(
            first.dropFirst() == [
                "m1", #"title="Heat""#, "year=1995", #"genres=["Crime", "Drama"]"#,
                #"released="1995-12-15T00:00:00Z""#, "rating=8.3",
            ])
        #expect(
            lines[1].split(separator: "  ").dropFirst() == [
                "m3", #"title="Heat Wave""#, "year=2000", #"genres=["Comedy", "Romance"]"#,
            ])
        #expect(lines[2].hasPrefix("2 matches, showing 1–2 ("))
        #expect(lines[2].hasSuffix(" ms)"))
    }

    @Test func broadSearchesCountAtLeastAThousandUnlessExact() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let lines = (0..<1_500).map { #"{"id": "d\#($0)", "title": "common words \#($0 % 7 == 0 ? "rare" : "")"}"# }
        let corpus = try folder.file("docs.jsonl", lines.joined(separator: "\n") + "\n")
        #expect(IdxRun(["index", folder.subpath("index"), corpus, "--schema", schema]).code == .success)
        let broad = IdxRun(["search", folder.subpath("index"), "common rare", "--limit", "1"])
        let summary = try #require(broad.out.split(separator: "\n").last)
        #expect(summary.hasPrefix("≥ "), "\(summary)")
        let lowerBound = try #require(Int(summary.dropFirst(2).prefix { $0.isNumber }))
        #expect((1_000...1_500).contains(lowerBound))
        let exact = IdxRun(["search", folder.subpath("index"), "common rare", "--limit", "1", "--exact"])
        #expect(exact.out.split(separator: "\n").last?.hasPrefix("1500 matches, showing 1–1 (") == true)
        let json = try IdxRun(["search", folder.subpath("index"), "common rare", "--json"]).json()
        #expect(json["count_exact"] as? Bool == false)
        // The top hit is the same either way: a "rare" title scores higher.
        #expect(
            broad.out.split(separator: "\n").first?.split(separator: "  ").dropFirst().first
                == exact.out.split(separator: "\n").first?.split(separator: "  ").dropFirst().first)
    }

    @Test func jsonOutputParsesBack() throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["search", folder.subpath("index"), "title:heat", "--json"])
        #expect(run.code == .success)
        #expect(run.out.hasPrefix(#"{"query": "title:heat", "count": 2, "count_exact": true, "hits": [{"score": "#))
        #expect(run.out.hasSuffix("}\n") && run.out.filter { $0 == "\n" }.count == 1)

        let json = try run.json()
        #expect(Set(json.keys) == ["query", "count", "count_exact", "hits"])
        #expect(json["query"] as? String == "title:heat")
        #expect(json["count"] as? Int == 2)
        let hits = try #require(json["hits"] as? [[String: Any]])
        #expect(hits.count == 2)
        #expect(hits.allSatisfy { Set($0.keys) == ["score", "doc"] && $0["score"] is Double })
        let scores = hits.compactMap { $0["score"] as? Double }
        #expect(scores == scores.sorted(by: >))

        let doc = try #require(hits[0]["doc"] as? [String: Any])
        #expect(doc["id"] as? String == "m1")
        #expect(doc["title"] as? String == "Heat")
        #expect(doc["year"] as? Int == 1995)
        #expect(doc["genres"] as? [String] == ["Crime", "Drama"], "multi-valued fields are arrays")
        #expect(doc["released"] as? String == "1995-12-15T00:00:00Z", "dates are RFC 3339")
        #expect(doc["rating"] as? Double == 8.3)
        #expect(run.out.contains(#""doc": {"id": "m1", "title": "Heat", "year": 1995, "genres": ["Crime", "Drama"]"#))
    }

    @Test func singleValuedFieldsAreScalars() throws {
        let folder = try Fixtures.indexedFolder()
        let json = try IdxRun(["search", folder.subpath("index"), "godfather", "--json"]).json()
        let hits = try #require(json["hits"] as? [[String: Any]])
        let doc = try #require(hits.first?["doc"] as? [String: Any])
        #expect(doc["genres"] as? String == "Crime")
        #expect(doc["released"] == nil, "fields a document lacks are left out")
    }

    @Test func limitAndOffsetPage() throws {
        let folder = try Fixtures.indexedFolder()
        let index = folder.subpath("index")
        let all = try IdxRun(["search", index, "genres:Comedy genres:Drama", "--json"]).json()
        let ids = try #require(all["hits"] as? [[String: Any]]).compactMap {
            ($0["doc"] as? [String: Any])?["id"] as? String
        }
        #expect(ids.count == 4)

        let page = try IdxRun(["search", index, "genres:Comedy genres:Drama", "--json", "--limit=2", "--offset", "1"])
            .json()
        #expect(page["count"] as? Int == 4, "the count ignores paging")
        let pageIds = try #require(page["hits"] as? [[String: Any]]).compactMap {
            ($0["doc"] as? [String: Any])?["id"] as? String
        }
        #expect(pageIds == Array(ids[1...2]))

        let text = IdxRun(["search", index, "genres:Comedy genres:Drama", "--limit", "2", "--offset", "1"])
        #expect(text.out.split(separator: "\n").last?.hasPrefix("4 matches, showing 2–3 (") == true)
    }

    @Test func noMatches() throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["search", folder.subpath("index"), "zzyzx"])
        #expect(run.code == .success)
        #expect(run.out.hasPrefix("0 matches ("))
        let json = try IdxRun(["search", folder.subpath("index"), "zzyzx", "--json"]).json()
        #expect(json["count"] as? Int == 0)
        #expect((json["hits"] as? [Any])?.isEmpty == true)
    }

    @Test func queryStartingWithDashNeedsDoubleDash() throws {
        let folder = try Fixtures.indexedFolder()
        let index = folder.subpath("index")
        #expect(IdxRun(["search", index, "-title:heat"]).code == .usage)

        let json = try IdxRun(["search", index, "--json", "--", "-title:heat genres:Crime"]).json()
        #expect(json["query"] as? String == "-title:heat genres:Crime")
        #expect(json["count"] as? Int == 1)
    }

    @Test func invalidQueryPointsAtTheByte() throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["search", folder.subpath("index"), "nosuchfield:heat"])
        #expect(run.code == .failure)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("idx search: "))
        #expect(run.err.contains("nosuchfield"))
        #expect(run.err.hasSuffix("\n  nosuchfield:heat\n  ^\n"))

        // The caret counts characters, not bytes: "é" is two bytes.
        let accented = IdxRun(["search", folder.subpath("index"), "é nosuchfield:heat"])
        #expect(accented.err.hasSuffix("\n  é nosuchfield:heat\n    ^\n"))
    }

    @Test func syntaxErrorQuotesTheQueryOnce() throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["search", folder.subpath("index"), "title:(heat"])
        #expect(run.code == .failure)
        #expect(run.err.hasPrefix("idx search: "))
        #expect(run.err.contains("never closed"))
        #expect(run.err.hasSuffix("\n  title:(heat\n        ^\n"))
        #expect(run.err.components(separatedBy: "title:(heat").count == 2)
    }

    @Test func noIndexIsAFailure() throws {
        let folder = try TemporaryFolder()
        let run = IdxRun(["search", folder.subpath("index"), "heat"])
        #expect(run.code == .failure)
        #expect(run.err.hasPrefix("idx search: no index at "))
    }

    @Test func sortSnippetCountAndConjunctionFlags() throws {
        let folder = try Fixtures.indexedFolder()
        let index = folder.subpath("index")

        let sorted = IdxRun(["search", index, "*", "--sort", "year:asc", "--limit", "2"])
        #expect(sorted.code == .success)
        #expect(sorted.out.split(separator: "\n").prefix(2).map { $0.split(separator: "  ")[1] } == ["m2", "m1"])
        let newest = try IdxRun(["search", index, "*", "--sort", "year", "--limit", "1", "--json"]).json()
        let hit = try #require((newest["hits"] as? [[String: Any]])?.first)
        #expect((hit["doc"] as? [String: Any])?["id"] as? String == "m5")
        #expect(hit["sort"] as? Int == 2008)

        let snippet = IdxRun(["search", index, "title:wave", "--snippet", "title"])
        #expect(snippet.out.contains("    Heat [Wave]\n"))

        #expect(IdxRun(["search", index, "title:hea*", "--count"]).out == "2\n")
        #expect(IdxRun(["search", index, "title:haet~1", "--count"]).out == "2\n")
        #expect(IdxRun(["search", index, "year:[1990 TO 2001]", "--count"]).out == "2\n")
        #expect(IdxRun(["search", index, "heat wave", "--count"]).out == "2\n")
        #expect(IdxRun(["search", index, "heat wave", "--count", "--and"]).out == "1\n")

        let badSort = IdxRun(["search", index, "heat", "--sort", "year:sideways"])
        #expect(badSort.code == .usage)
        let notFast = IdxRun(["search", index, "heat", "--sort", "title"])
        #expect(notFast.code != .success)
        #expect(notFast.err.contains("fast"))
    }
}
