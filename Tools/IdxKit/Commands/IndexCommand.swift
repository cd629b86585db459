import Loupe

/// `idx index DIR FILE`: adds the documents of a JSONL file (plain or gzip, or stdin) to an index, creating the index
/// from `--schema` when there is none.
struct IndexCommand: Command {
    static let spec = CommandSpec(
        name: "index",
        abstract: "Add the documents of a JSONL file (plain or gzip) to an index.",
        arguments: [
            ("DIR", "The index folder."),
            ("FILE", "One JSON object per line, plain or gzip; - reads stdin."),
        ],
        options: [
            OptionSpec(
                name: "schema", valueName: "S.json", help: "Create the index with this schema if there is none."),
            OptionSpec(
                name: "memory-mb", valueName: "N",
                help: "Buffer N MB of documents, over all indexing threads, before a flush (default 50)."),
            OptionSpec(
                name: "threads", valueName: "N",
                help:
                    "Index on N threads, 1 to \(IndexWriter.maxThreads), sharing the budget (default 1; more may reorder ties)."
            ),
            OptionSpec(
                name: "commit-every", valueName: "N", help: "Commit after every N documents (default: at the end)."),
            OptionSpec(name: "skip-bad", valueName: nil, help: "Report and skip lines that do not fit the schema."),
        ],
        discussion: """
            Blank lines are skipped. Without --skip-bad, the first bad line stops the run: it is reported as
            'line N: <reason>', the documents added since the last commit are dropped, and idx exits with 1.
            A progress line is drawn on stderr when it is a terminal.
            """)

    let directory: String
    let file: String
    let schemaPath: String?
    let memoryBudgetBytes: Int
    let threads: Int
    let commitEvery: Int?
    let skipBad: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        file = arguments.positionals[1]
        schemaPath = arguments.value("schema")
        memoryBudgetBytes =
            (try arguments.integer("memory-mb", minimum: 1, maximum: IndexWriter.maxMemoryBudget / 1_000_000) ?? 50)
            * 1_000_000
        threads = try arguments.integer("threads", minimum: 1, maximum: IndexWriter.maxThreads) ?? 1
        commitEvery = try arguments.integer("commit-every", minimum: 1)
        skipBad = arguments.flag("skip-bad")
    }

    func run(_ console: Console) throws(CommandFailure) {
        // The input first, so a mistyped file name does not leave a new, empty index behind.
        let input = try JSONLImport.open(file, console: console)
        let index = try openOrCreate()
        let writer = try engine(index.writer(memoryBudget: memoryBudgetBytes, threads: threads))
        let summary = try JSONLImport(commitEvery: commitEvery, skipBad: skipBad)
            .run(input, source: file == "-" ? "stdin" : file, into: writer, console: console)
        console.out.line(
            "indexed \(summary.documents) documents in \(Format.seconds(summary.duration)) "
                + "(\(Format.rate(summary.documents, per: summary.duration)) docs/s, "
                + "\(Format.megabytesPerSecond(summary.bytes, summary.duration)))")
        if summary.skippedLines > 0 {
            console.out.line("skipped \(summary.skippedLines) bad line\(summary.skippedLines == 1 ? "" : "s")")
        }
    }

    /// The index in `directory`; created from `--schema` when missing, which must then match an existing one.
    private func openOrCreate() throws(CommandFailure) -> Index {
        guard let schemaPath else { return try openIndex(directory) }
        let schema = try loadSchema(schemaPath)
        return try engine(Index(path: directory, schema: schema))
    }
}
