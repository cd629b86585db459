import Foundation
import Loupe

/// `idx quickstart`: indexes the bundled movie corpus and runs a few example queries, to show in one command what
/// Loupe does and how fast.
struct QuickstartCommand: Command {
    static let spec = CommandSpec(
        name: "quickstart",
        abstract: "Build an index of the bundled movie corpus and run example queries.",
        options: [
            OptionSpec(name: "dir", valueName: "D", help: "Build the index in D (default: a new temporary folder)."),
            OptionSpec(name: "corpus", valueName: "F", help: "Index this JSONL file instead of the movies."),
            OptionSpec(name: "schema", valueName: "S", help: "Use this schema instead of the movies'."),
        ])

    /// The example queries, one per feature of the query syntax.
    private static let exampleQueries = [
        "title:godfather", "star wars", "\"the dark knight\"", "+genres:Comedy +genres:Romance",
        "genres:Drama -title:love", "people:spielberg", "title:godfathr~1", "\"star wa\"*", "year:[1970 TO 1979]",
    ]

    let directory: String?
    let corpusPath: String?
    let schemaPath: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.value("dir")
        corpusPath = arguments.value("corpus")
        schemaPath = arguments.value("schema")
    }

    func run(_ console: Console) throws(CommandFailure) {
        let corpus = try Self.bundledFile("movies.jsonl.gz", unless: corpusPath)
        let schema = try loadSchema(Self.bundledFile("schema.json", unless: schemaPath))
        let directory = self.directory ?? Self.temporaryFolder()
        guard try openIndexIfPresent(directory) == nil else {
            throw CommandFailure("\(directory) already holds an index; choose another --dir, or leave it out")
        }
        console.out.line("indexing \(corpus)")
        console.out.line("into \(directory)")
        let input = try JSONLImport.open(corpus, console: console)
        let index = try engine(Index(path: directory, schema: schema))
        let writer = try engine(index.writer())
        let summary = try JSONLImport().run(input, source: corpus, into: writer, console: console)
        try engine(index.reload())
        let segments = index.searcher().segmentInfos
        console.out.line(
            "\(summary.documents) documents, \(segments.count) segment\(segments.count == 1 ? "" : "s"), "
                + "\(Format.bytes(segments.reduce(0) { $0 + $1.byteCount })) on disk, "
                + "\(Format.seconds(summary.duration)) (\(Format.rate(summary.documents, per: summary.duration)) docs/s)"
        )
        for query in Self.exampleQueries {
            console.out.line()
            Self.runExample(query, on: index, console: console)
        }
        console.out.line()
        console.out.line("try your own: idx search \(directory) 'QUERY'    idx stats \(directory)")
    }

    /// Runs one example and prints its count, latency and top three hits; a query the index cannot answer
    /// (another corpus with other fields) is reported and the tour goes on.
    private static func runExample(_ query: String, on index: Index, console: Console) {
        console.out.line("> \(query)")
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let results = try index.search(index.parseQuery(query), limit: 3)
            let elapsed = clock.now - start
            console.out.line(
                "  \(results.totalCount) match\(results.totalCount == 1 ? "" : "es") in \(Format.milliseconds(elapsed))"
            )
            for (rank, hit) in results.hits.enumerated() {
                console.out.line("  \(rank + 1). \(summary(of: hit.document, idField: index.schema.idField))")
            }
        } catch {
            console.out.line("  error: \(CommandFailure(error).message)")
        }
    }

    /// `The Godfather (1972)`; without a title, the id, or else the first stored value.
    private static func summary(of document: StoredDocument, idField: String?) -> String {
        let year = document.uint("year").map { " (\($0))" } ?? ""
        if let title = document.string("title") { return title + year }
        if let idField, let id = document.string(idField) { return id }
        return document.entries.first.map { $0.name + "=" + JSONText.values($0.values) } ?? "(no stored fields)"
    }

    /// The file the user gave, or else the file `name` of the movie corpus: found in the repository this source file
    /// is in, else under the current folder.
    /// - Throws: `CommandFailure` when neither has it.
    private static func bundledFile(
        _ name: String, unless given: String?, sourceFile: String = #filePath
    )
        throws(CommandFailure) -> String
    {
        if let given { return given }
        let root = URL(fileURLWithPath: sourceFile)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            root.appendingPathComponent(bundledFolder).appendingPathComponent(name).path,
            bundledFolder + "/" + name,
        ]
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw CommandFailure(
                "cannot find \(name) (looked for \(candidates.joined(separator: " and "))); "
                    + "pass --corpus F and --schema S")
        }
        return found
    }

    /// Where the corpus lives, relative to the repository root.
    private static let bundledFolder = "Benchmarks/corpora/movies"

    private static func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("loupe-quickstart-\(UUID().uuidString.prefix(8).lowercased())").path
    }
}
