import Foundation
import IdxKit
import Loupe
import Testing

@Suite struct SuggestCommandTests {
    @Test func textIsOneSuggestionPerLineWithCountAndSource() throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["suggest", folder.subpath("index"), "he"])
        #expect(run.code == .success, "\(run.err)")
        #expect(run.err.isEmpty)
        #expect(run.out == "heat  2  index\n")
        #expect(IdxRun(["suggest", folder.subpath("index"), "the godf"]).out == "the godfather  1  index\n")
        #expect(IdxRun(["suggest", folder.subpath("index"), "zzz"]).out.isEmpty)
    }

    @Test func jsonIsAnArrayBestFirst() throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["suggest", folder.subpath("index"), "godfathr", "--json"])
        #expect(run.code == .success)
        #expect(run.out == #"[{"text": "godfather", "count": 1, "source": "index"}]"# + "\n")
        let empty = IdxRun(["suggest", folder.subpath("index"), "zzz", "--json"])
        #expect(empty.out == "[]\n")
    }

    @Test func stdinPrintsOneJSONArrayPerLine() throws {
        let folder = try Fixtures.indexedFolder()
        let pipe = Pipe()
        try pipe.fileHandleForWriting.write(contentsOf: Data("h\nthe g\r\n\ngod".utf8))
        try pipe.fileHandleForWriting.close()
        let run = IdxRun(
            ["suggest", folder.subpath("index"), "--stdin"], input: pipe.fileHandleForReading.fileDescriptor)
        #expect(run.code == .success, "\(run.err)")
        #expect(
            run.out.split(separator: "\n", omittingEmptySubsequences: false) == [
                #"[{"text": "heat", "count": 2, "source": "index"}]"#,
                #"[{"text": "the godfather", "count": 1, "source": "index"}]"#,
                "[]",
                #"[{"text": "godfather", "count": 1, "source": "index"}]"#,
                "",
            ])
    }

    @Test func historyIsMergedFirstUnlessLeftOutAndNeverCreated() throws {
        let folder = try Fixtures.indexedFolder()
        let index = folder.subpath("index")
        let historyFile = index + "/search-history.bin"
        #expect(IdxRun(["suggest", index, "he"]).out == "heat  2  index\n")
        #expect(!FileManager.default.fileExists(atPath: historyFile), "suggest never creates the history")

        let history = try SearchHistory(beside: Index(path: index))
        try history.record("heat wave")
        try history.record("love actually")
        #expect(IdxRun(["suggest", index, "he"]).out == "heat wave  1  ↺ history\nheat       2  index\n")
        #expect(
            IdxRun(["suggest", index, "he", "--json"]).out
                == #"[{"text": "heat wave", "count": 1, "source": "history"}, {"text": "heat", "count": 2, "source": "index"}]"#
                + "\n")
        #expect(IdxRun(["suggest", index, "he", "--no-history"]).out == "heat  2  index\n")
        #expect(IdxRun(["suggest", index, "he", "--limit", "1"]).out == "heat wave  1  ↺ history\n")
        #expect(IdxRun(["suggest", index, "he", "--limit", "0"]).out.isEmpty)
        #expect(history.count == 2, "suggest records nothing")
    }

    @Test func fieldAndPopularity() throws {
        let folder = try Fixtures.indexedFolder()
        let index = folder.subpath("index")
        #expect(IdxRun(["suggest", index, "Cr", "--field", "genres"]).out == "Crime  2  index\n")
        #expect(IdxRun(["suggest", index, "he", "--popularity", "year"]).code == .success)
        let unknown = IdxRun(["suggest", index, "he", "--field", "nope"])
        #expect(unknown.code == .failure)
        #expect(unknown.err.contains("'nope'"))
        let notFast = IdxRun(["suggest", index, "he", "--popularity", "title"])
        #expect(notFast.code == .failure)
        #expect(notFast.err.hasPrefix("idx suggest: "))
    }

    @Test func textIsRequiredWithoutStdinAndRefusedWithIt() throws {
        let missing = IdxRun(["suggest", "/tmp/x"])
        #expect(missing.code == .usage)
        #expect(
            missing.err.hasPrefix(
                """
                idx suggest: missing TEXT (or --stdin to read texts from stdin)
                USAGE: idx suggest DIR [TEXT] [--field FIELD] [--limit N] [--popularity FIELD] [--no-history] [--stdin] [--json]

                """))
        let both = IdxRun(["suggest", "/tmp/x", "he", "--stdin"])
        #expect(both.code == .usage)
        #expect(both.err.hasPrefix("idx suggest: give either TEXT or --stdin, not both (got 'he')\n"))
        let extra = IdxRun(["suggest", "/tmp/x", "he", "wave"])
        #expect(extra.code == .usage)
        #expect(extra.err.hasPrefix("idx suggest: unexpected argument 'wave'\n"))
        #expect(IdxRun(["suggest"]).err.hasPrefix("idx suggest: missing DIR\n"))
        let limit = IdxRun(["suggest", "/tmp/x", "he", "--limit", "-1"])
        #expect(limit.code == .usage)
    }

    @Test func noIndexIsAFailure() throws {
        let folder = try TemporaryFolder()
        let run = IdxRun(["suggest", folder.subpath("index"), "he"])
        #expect(run.code == .failure)
        #expect(run.err.hasPrefix("idx suggest: no index at "))
    }
}
