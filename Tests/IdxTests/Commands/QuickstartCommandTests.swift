import Foundation
import IdxKit
import Testing

@Suite struct QuickstartCommandTests {
    /// A corpus in the movie schema's shape, small enough for a debug build.
    static let corpus = [
        #"{"id": "movie-1", "title": "The Godfather", "year": 1972, "genres": ["Crime", "Drama"], "people": "Francis Ford Coppola ; Marlon Brando"}"#,
        #"{"id": "movie-2", "title": "Star Wars", "year": 1977, "genres": ["Action", "Adventure"], "people": "George Lucas ; Mark Hamill"}"#,
        #"{"id": "movie-3", "title": "The Dark Knight", "year": 2008, "genres": ["Action", "Crime"], "people": "Christopher Nolan"}"#,
        #"{"id": "movie-4", "title": "Jaws", "year": 1975, "genres": ["Thriller"], "people": "Steven Spielberg ; Roy Scheider"}"#,
        #"{"id": "movie-5", "title": "Love Actually", "year": 2003, "genres": ["Comedy", "Romance", "Drama"], "people": "Richard Curtis"}"#,
    ].joined(separator: "\n")

    @Test func buildsAndRunsTheExamples() throws {
        let folder = try TemporaryFolder()
        let corpus = try folder.file("movies.jsonl", Self.corpus)
        let index = folder.subpath("index")

        // No --schema: the bundled movie schema is found next to the sources.
        let run = IdxRun(["quickstart", "--dir", index, "--corpus", corpus])
        #expect(run.code == .success, "\(run.err)")
        #expect(run.err.isEmpty)
        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "indexing \(corpus)")
        #expect(lines[1] == "into \(index)")
        #expect(lines[2].hasPrefix("5 documents, 1 segment, "))
        #expect(lines[2].contains(" on disk, ") && lines[2].hasSuffix(" docs/s)"))
        for query in [
            "title:godfather", "star wars", "\"the dark knight\"", "+genres:Comedy +genres:Romance",
            "genres:Drama -title:love", "people:spielberg", "title:godfathr~1", "\"star wa\"*", "year:[1970 TO 1979]",
        ] {
            #expect(lines.contains { $0 == "> \(query)" }, "query \(query)")
        }
        #expect(example("title:godfather", in: lines) == ["  1 match", "  1. The Godfather (1972)"])
        #expect(example("star wars", in: lines) == ["  1 match", "  1. Star Wars (1977)"])
        #expect(example("\"the dark knight\"", in: lines) == ["  1 match", "  1. The Dark Knight (2008)"])
        #expect(example("+genres:Comedy +genres:Romance", in: lines) == ["  1 match", "  1. Love Actually (2003)"])
        #expect(example("genres:Drama -title:love", in: lines) == ["  1 match", "  1. The Godfather (1972)"])
        #expect(example("people:spielberg", in: lines) == ["  1 match", "  1. Jaws (1975)"])
        #expect(example("title:godfathr~1", in: lines) == ["  1 match", "  1. The Godfather (1972)"])
        #expect(example("\"star wa\"*", in: lines) == ["  1 match", "  1. Star Wars (1977)"])
        #expect(
            example("year:[1970 TO 1979]", in: lines)
                == ["  3 matches", "  1. The Godfather (1972)", "  2. Star Wars (1977)", "  3. Jaws (1975)"])
        #expect(lines.last(where: { !$0.isEmpty }) == "try your own: idx search \(index) 'QUERY'    idx stats \(index)")

        let stats = try IdxRun(["stats", index, "--json"]).json()
        #expect(stats["documents"] as? Int == 5)
    }

    /// The lines an example printed after its `> query` line, with the latency cut off.
    private func example(_ query: String, in lines: [Substring]) -> [String] {
        guard let start = lines.firstIndex(of: "> \(query)"[...]) else { return [] }
        let body = lines[(start + 1)...].prefix { !$0.isEmpty }
        return body.map { line in
            guard line.hasSuffix(" ms"), let cut = line.range(of: " in ") else { return String(line) }
            return String(line[..<cut.lowerBound])
        }
    }

    @Test func refusesAFolderThatHoldsAnIndex() throws {
        let folder = try Fixtures.indexedFolder()
        // Without --corpus or --schema, this also checks that the bundled corpus and schema are found.
        let run = IdxRun(["quickstart", "--dir", folder.subpath("index")])
        #expect(run.code == .failure)
        #expect(
            run.err
                == "idx quickstart: \(folder.subpath("index")) already holds an index; choose another --dir, or leave it out\n"
        )
    }

    @Test func examplesThatDoNotFitAnotherCorpusAreReported() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let corpus = try folder.file("movies.jsonl", Fixtures.moviesJSONL)
        let run = IdxRun(["quickstart", "--dir", folder.subpath("index"), "--corpus", corpus, "--schema", schema])
        #expect(run.code == .success, "\(run.err)")
        #expect(run.out.contains("> people:spielberg\n  error: "))
        #expect(run.out.contains("> title:godfather\n  1 match in "))
    }
}
