import Loupe
import LoupeQueryGrammar

/// `idx optimize DIR`: merges every segment into one, dropping deleted documents.
struct OptimizeCommand: Command {
    static let spec = CommandSpec(
        name: "optimize",
        abstract: "Merge every segment into one and drop deleted documents.",
        arguments: [("DIR", "The index folder.")],
        options: [OptionSpec(name: "json", valueName: nil, help: "Print one JSON object: before and after.")])

    let directory: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        json = arguments.flag("json")
    }

    func run(_ console: Console) throws(CommandFailure) {
        let index = try openIndex(directory)
        let before = index.stats()
        if !json { console.err.line("merging \(before.segmentCount) segments (\(before.maxDoc) documents)…") }
        let clock = ContinuousClock()
        let start = clock.now
        try engine(index.optimize())
        let elapsed = clock.now - start
        let after = index.stats()
        if json {
            console.out.line(
                JSONText.object([
                    ("before", Self.summary(before)), ("after", Self.summary(after)),
                    ("seconds", Format.decimal((elapsed / .seconds(1)), places: 3)),
                ]))
            return
        }
        console.out.line("before  \(Self.line(before))")
        console.out.line("after   \(Self.line(after))")
        console.out.line("took    \(Format.milliseconds(elapsed))")
    }

    private static func bytes(_ stats: IndexStats) -> Int { stats.segments.reduce(0) { $0 + $1.byteCount } }

    private static func line(_ stats: IndexStats) -> String {
        "\(stats.segmentCount) segment\(stats.segmentCount == 1 ? "" : "s"), \(stats.documentCount) documents, "
            + "\(stats.deletedCount) deleted, \(Format.bytes(bytes(stats)))"
    }

    private static func summary(_ stats: IndexStats) -> String {
        JSONText.object([
            ("segments", String(stats.segmentCount)), ("documents", String(stats.documentCount)),
            ("deleted", String(stats.deletedCount)), ("bytes", String(bytes(stats))),
        ])
    }
}

/// `idx gc DIR`: removes the files no commit references.
struct GarbageCollectCommand: Command {
    static let spec = CommandSpec(
        name: "gc",
        abstract: "Remove the files of the index folder that no commit references.",
        arguments: [("DIR", "The index folder.")],
        options: [
            OptionSpec(name: "dry-run", valueName: nil, help: "List the files without removing them."),
            OptionSpec(name: "json", valueName: nil, help: "Print one JSON object: files and bytes."),
        ])

    let directory: String
    let dryRun: Bool
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        dryRun = arguments.flag("dry-run")
        json = arguments.flag("json")
    }

    func run(_ console: Console) throws(CommandFailure) {
        let index = try openIndex(directory)
        let result = try engine(index.garbageCollect(dryRun: dryRun))
        if json {
            console.out.line(
                JSONText.object([
                    ("files", JSONText.array(result.files.map(JSONText.string))), ("bytes", String(result.byteCount)),
                    ("removed", dryRun ? "false" : "true"),
                ]))
            return
        }
        for file in result.files { console.out.line(file) }
        let verb = dryRun ? "would reclaim" : "reclaimed"
        console.out.line(
            "\(result.files.count) file\(result.files.count == 1 ? "" : "s"), \(verb) \(Format.bytes(result.byteCount))"
        )
    }
}

/// `idx delete DIR QUERY`: deletes the matching documents and commits.
struct DeleteCommand: Command {
    static let spec = CommandSpec(
        name: "delete",
        abstract: "Delete the documents matching a query, and commit.",
        arguments: [("DIR", "The index folder."), ("QUERY", "A query string (see idx search).")],
        options: [OptionSpec(name: "json", valueName: nil, help: "Print one JSON object: query and deleted.")])

    let directory: String
    let query: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        query = arguments.positionals[1]
        json = arguments.flag("json")
    }

    func run(_ console: Console) throws(CommandFailure) {
        let index = try openIndex(directory)
        let parsed: Query
        do {
            parsed = try index.parseQuery(query)
        } catch {
            let failure = CommandFailure(error)
            guard let byte = error.context.byteOffset, !error.message.contains("\n") else { throw failure }
            throw CommandFailure(failure.message + "\n" + QuerySyntaxError.pointer(at: byte, in: query))
        }
        let deleted = try engine(index.delete(matching: parsed))
        if json {
            console.out.line(JSONText.object([("query", JSONText.string(query)), ("deleted", String(deleted))]))
        } else {
            console.out.line("deleted \(deleted) document\(deleted == 1 ? "" : "s")")
        }
    }
}

/// `idx recover DIR`: makes the previous commit the latest, for an index whose meta.json is damaged or lost.
struct RecoverCommand: Command {
    static let spec = CommandSpec(
        name: "recover",
        abstract: "Restore the previous commit when meta.json (the commit point) is damaged or lost.",
        arguments: [("DIR", "The index folder.")],
        options: [OptionSpec(name: "json", valueName: nil, help: "Print one JSON object: the restored commit.")],
        discussion: """
            Every commit keeps the one before it (meta.previous.json and its segment files). This checks that commit
            and every byte of its segments, keeps the damaged meta.json as meta.damaged.json, and makes the previous
            commit the latest. What the last commit added or deleted is lost. No writer may be open.
            """)

    let directory: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        json = arguments.flag("json")
    }

    func run(_ console: Console) throws(CommandFailure) {
        try engine(Index.restorePreviousCommit(path: directory))
        let stats = try openIndex(directory).stats()
        if json {
            console.out.line(
                JSONText.object([
                    ("segments", String(stats.segmentCount)), ("documents", String(stats.documentCount)),
                ]))
            return
        }
        let segments = "\(stats.segmentCount) segment\(stats.segmentCount == 1 ? "" : "s")"
        console.out.line("restored the previous commit: \(segments), \(stats.documentCount) documents")
    }
}
