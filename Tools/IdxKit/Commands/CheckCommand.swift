import Loupe

/// `idx check DIR`: verifies every file's checksum and the structures' invariants, printing each problem found.
struct CheckCommand: Command {
    static let spec = CommandSpec(
        name: "check",
        abstract: "Verify every file's checksum and the index's invariants; list every problem.",
        arguments: [("DIR", "The index folder.")],
        options: [
            OptionSpec(name: "json", valueName: nil, help: "Print one JSON object per problem, then a summary object.")
        ],
        discussion: """
            Reads every byte: checksums, term order, postings (documents increasing and below max_doc, as many as
            the dictionary says) and every stored document. Exits 1 when any problem is found.
            """)

    let directory: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        json = arguments.flag("json")
    }

    func run(_ console: Console) throws(CommandFailure) {
        let index = try openIndex(directory)
        let problems = index.verify { error in
            if json {
                var members = [("problem", JSONText.string(error.message))]
                if let file = error.context.file { members.append(("file", JSONText.string(file))) }
                if let field = error.context.field { members.append(("field", JSONText.string(field))) }
                if let offset = error.context.byteOffset { members.append(("byte_offset", String(offset))) }
                console.out.line(JSONText.object(members))
            } else {
                console.out.line("problem: " + error.description)
            }
        }
        let stats = index.stats()
        if json {
            console.out.line(
                JSONText.object([
                    ("segments", String(stats.segmentCount)), ("documents", String(stats.documentCount)),
                    ("problems", String(problems)),
                ]))
        } else if problems == 0 {
            let segments = "\(stats.segmentCount) segment\(stats.segmentCount == 1 ? "" : "s")"
            console.out.line("ok: \(segments), \(stats.maxDoc) documents checked")
        }
        if problems > 0 {
            throw CommandFailure("\(problems) problem\(problems == 1 ? "" : "s") found in \(directory)")
        }
    }
}
