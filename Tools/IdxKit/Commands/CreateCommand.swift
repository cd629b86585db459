import Loupe

/// `idx create DIR --schema S.json`: an empty index; running it again with the same schema changes nothing.
struct CreateCommand: Command {
    static let spec = CommandSpec(
        name: "create",
        abstract: "Create an empty index with a schema.",
        arguments: [("DIR", "The index folder (created if missing).")],
        options: [
            OptionSpec(name: "schema", valueName: "S.json", help: "The schema as JSON.", isRequired: true)
        ],
        discussion: """
            A schema file looks like {"fields": [{"name": "title", "type": "text", "stored": true}, ...],
            "default_fields": ["title"], "id_field": "id"}. It is an error if DIR already holds an index
            with another schema.
            """)

    let directory: String
    let schemaPath: String

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        schemaPath = arguments.value("schema") ?? ""
    }

    func run(_ console: Console) throws(CommandFailure) {
        let schema = try loadSchema(schemaPath)
        if let existing = try openIndexIfPresent(directory) {
            guard existing.schema == schema else {
                throw CommandFailure(
                    "\(directory) already holds an index with another schema; choose another folder, "
                        + "or delete this one to recreate it")
            }
            console.out.line("\(directory) already holds an index with this schema; nothing to do")
            return
        }
        _ = try engine(Index(path: directory, schema: schema))
        console.out.line("created an empty index at \(directory) (\(schema.fields.count) fields)")
    }
}
