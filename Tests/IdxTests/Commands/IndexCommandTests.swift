import Foundation
import IdxKit
import Testing

@Suite struct IndexCommandTests {
    /// Documents the index in `folder/index` holds, per `idx stats --json`.
    private func documentCount(_ index: String) throws -> Int? {
        try IdxRun(["stats", index, "--json"]).json()["documents"] as? Int
    }

    @Test func createsTheIndexFromSchemaAndAddsEveryLine() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let corpus = try folder.file("movies.jsonl", Fixtures.moviesJSONL)
        let index = folder.subpath("index")

        let run = IdxRun(["index", index, corpus, "--schema", schema])
        #expect(run.code == .success)
        #expect(run.err.isEmpty, "no progress line when stderr is not a terminal")
        let summary = try #require(run.out.split(separator: "\n").first)
        #expect(summary.hasPrefix("indexed 5 documents in "))
        #expect(summary.contains(" s (") && summary.hasSuffix(" MB/s)"))
        #expect(try documentCount(index) == 5)

        // A second run appends, and needs no schema now.
        #expect(IdxRun(["index", index, corpus]).code == .success)
        #expect(try documentCount(index) == 10)
    }

    @Test func severalThreadsIndexEveryLine() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let corpus = try folder.file("movies.jsonl", Fixtures.moviesJSONL)
        let index = folder.subpath("index")
        let run = IdxRun(["index", index, corpus, "--schema", schema, "--threads", "2", "--commit-every", "2"])
        #expect(run.code == .success)
        #expect(try documentCount(index) == 5)
        #expect(IdxRun(["check", index]).code == .success)

        let starved = IdxRun(["index", index, corpus, "--threads", "2", "--memory-mb", "1"])
        #expect(starved.code == .failure)
        #expect(starved.err.contains("at least 1,000,000 bytes a thread"))
        #expect(try documentCount(index) == 5)
    }

    @Test func withoutAnIndexOrSchemaFails() throws {
        let folder = try TemporaryFolder()
        let corpus = try folder.file("movies.jsonl", Fixtures.moviesJSONL)
        let run = IdxRun(["index", folder.subpath("index"), corpus])
        #expect(run.code == .failure)
        #expect(run.err.hasPrefix("idx index: no index at \(folder.subpath("index"))"))
    }

    @Test func missingInputLeavesNoIndexBehind() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let run = IdxRun(["index", folder.subpath("index"), folder.subpath("nope.jsonl"), "--schema", schema])
        #expect(run.code == .failure)
        #expect(run.err.hasPrefix("idx index: cannot open \(folder.subpath("nope.jsonl"))"))
        #expect(!FileManager.default.fileExists(atPath: folder.subpath("index")))
    }

    @Test func schemaMismatchFails() throws {
        let folder = try Fixtures.indexedFolder()
        let other = try folder.file("other.json", Fixtures.otherSchema)
        let corpus = try folder.file("more.jsonl", Fixtures.movies[0])
        let run = IdxRun(["index", folder.subpath("index"), corpus, "--schema", other])
        #expect(run.code == .failure)
        #expect(run.err.contains("another schema"))
    }

    @Test func badLineStopsWithoutCommitting() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let lines = [Fixtures.movies[0], Fixtures.movies[1], #"{"id": "x", "year": "nineteen"}"#, Fixtures.movies[2]]
        let corpus = try folder.file("bad.jsonl", lines.joined(separator: "\n"))
        let index = folder.subpath("index")

        let run = IdxRun(["index", index, corpus, "--schema", schema])
        #expect(run.code == .failure)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("idx index: line 3: field 'year': "))
        #expect(run.err.contains("\nstopped without committing the 2 documents added since the last commit"))
        #expect(try documentCount(index) == 0)
    }

    @Test func badLineKeepsEarlierCommits() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let lines = Array(Fixtures.movies[0..<3]) + ["{not json", Fixtures.movies[3]]
        let corpus = try folder.file("bad.jsonl", lines.joined(separator: "\n"))
        let index = folder.subpath("index")

        let run = IdxRun(["index", index, corpus, "--schema", schema, "--commit-every", "2"])
        #expect(run.code == .failure)
        #expect(run.err.hasPrefix("idx index: line 4: malformed JSON"))
        #expect(run.err.contains("(byte "))
        #expect(run.err.contains("the 1 document added since the last commit"))
        #expect(try documentCount(index) == 2)
    }

    @Test func skipBadReportsEachLineAndCommitsTheRest() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let lines = [
            Fixtures.movies[0], #"{"id": "x", "year": "nineteen"}"#, Fixtures.movies[1], "[1, 2]",
            #"{"id": "y", "director": "nobody"}"#, Fixtures.movies[2],
        ]
        let corpus = try folder.file("bad.jsonl", lines.joined(separator: "\n") + "\n")
        let index = folder.subpath("index")

        let run = IdxRun(["index", index, corpus, "--schema", schema, "--skip-bad"])
        #expect(run.code == .success)
        let reports = run.err.split(separator: "\n")
        #expect(reports.count == 3)
        #expect(reports[0].hasPrefix("line 2: field 'year': "))
        #expect(reports[1].hasPrefix("line 4: "))
        #expect(reports[2] == "line 5: unknown field 'director' (not in the schema)")
        #expect(run.out.hasPrefix("indexed 3 documents in "))
        #expect(run.out.hasSuffix("\nskipped 3 bad lines\n"))
        #expect(try documentCount(index) == 3)
    }

    /// A line past one of the engine's limits (Docs/FORMAT.md, "Limits") is a bad line: reported with its number
    /// and field, and skipped with --skip-bad.
    @Test func lineWithATermPastTheLimitIsReportedWithItsLineAndField() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let long = String(repeating: "g", count: 65_531)
        let lines = [Fixtures.movies[0], #"{"id": "x", "genres": ["Drama", "\#(long)"]}"#, Fixtures.movies[1]]
        let corpus = try folder.file("long.jsonl", lines.joined(separator: "\n"))
        let index = folder.subpath("index")

        let run = IdxRun(["index", index, corpus, "--schema", schema])
        #expect(run.code == .failure)
        #expect(
            run.err.hasPrefix(
                "idx index: line 2: field 'genres': a string value of 65531 bytes is longer than the 65530 bytes"))
        #expect(run.err.contains("\nstopped without committing the 1 document added since the last commit"))
        #expect(try documentCount(index) == 0)

        let skipped = IdxRun(["index", index, corpus, "--skip-bad"])
        #expect(skipped.code == .success)
        #expect(skipped.err.hasPrefix("line 2: field 'genres': a string value of 65531 bytes"))
        #expect(skipped.out.hasSuffix("\nskipped 1 bad line\n"))
        #expect(try documentCount(index) == 2)
    }

    @Test func schemaPastTheFieldLimitIsRefused() throws {
        let folder = try TemporaryFolder()
        let fields = (0...1_000).map { #"{"name": "f\#($0)", "type": "u64"}"# }
        let schema = try folder.file("wide.json", #"{"fields": [\#(fields.joined(separator: ", "))]}"#)
        let corpus = try folder.file("movies.jsonl", Fixtures.moviesJSONL)
        let run = IdxRun(["index", folder.subpath("index"), corpus, "--schema", schema])
        #expect(run.code == .failure)
        #expect(
            run.err.contains("schema: 1001 fields, more than the 1000 a schema may declare (from field 'f1000' on)"))
    }

    @Test func blankLinesAreSkippedButCounted() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let text = "\n" + Fixtures.movies[0] + "\n  \t\n\r\n" + Fixtures.movies[1] + "\n{\"id\": 7}\n"
        let corpus = try folder.file("blank.jsonl", text)

        let run = IdxRun(["index", folder.subpath("index"), corpus, "--schema", schema])
        #expect(run.code == .failure)
        #expect(run.err.hasPrefix("idx index: line 6: field 'id': "), "blank lines keep their numbers")

        let skipped = IdxRun(["index", folder.subpath("index"), corpus, "--skip-bad"])
        #expect(skipped.out.hasPrefix("indexed 2 documents"))
        #expect(skipped.out.hasSuffix("skipped 1 bad line\n"))
    }

    // `Process` (to run gzip) exists in Foundation on macOS and Linux, not on iOS, tvOS, watchOS or visionOS.
    #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func readsGzip() throws {
        let gzip = try #require(
            ["/usr/bin/gzip", "/bin/gzip"].first { FileManager.default.isExecutableFile(atPath: $0) }, "gzip not found")
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let corpus = try folder.file("movies.jsonl", Fixtures.moviesJSONL)
        let process = try Process.run(URL(fileURLWithPath: gzip), arguments: ["-9", corpus])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let run = IdxRun(["index", folder.subpath("index"), corpus + ".gz", "--schema", schema])
        #expect(run.code == .success, "\(run.err)")
        #expect(run.out.hasPrefix("indexed 5 documents"))
        #expect(try documentCount(folder.subpath("index")) == 5)
    }
    #endif

    @Test func dashReadsTheInputDescriptor() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(Fixtures.moviesJSONL.utf8))
        try pipe.fileHandleForWriting.close()

        let run = IdxRun(
            ["index", folder.subpath("index"), "-", "--schema", schema, "--memory-mb", "1"],
            input: pipe.fileHandleForReading.fileDescriptor)
        #expect(run.code == .success, "\(run.err)")
        #expect(run.out.hasPrefix("indexed 5 documents"))
        #expect(try documentCount(folder.subpath("index")) == 5)
    }

    @Test func emptyInputCommitsNothing() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let corpus = try folder.file("empty.jsonl", "")
        let run = IdxRun(["index", folder.subpath("index"), corpus, "--schema", schema])
        #expect(run.code == .success)
        #expect(run.out.hasPrefix("indexed 0 documents"))
        #expect(try documentCount(folder.subpath("index")) == 0)
    }
}
