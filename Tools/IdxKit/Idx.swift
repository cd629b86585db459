/// How `idx` ends, numbered as sysexits(3) and ArgumentParser do.
package enum ExitCode: Int32, Sendable {
    /// The command did what was asked (with `--skip-bad`, even if it skipped lines).
    case success = 0
    /// A data or index error: a bad JSONL line, a missing index, a query that does not parse.
    case failure = 1
    /// The command line does not fit the command (`EX_USAGE`).
    case usage = 64
}

/// The `idx` command line: picks the subcommand, checks its arguments, runs it, and maps the outcome to an exit code.
package enum Idx {
    /// Every subcommand, in the order `idx --help` lists them.
    static var commands: [any Command.Type] {
        [
            CreateCommand.self, IndexCommand.self, SearchCommand.self, SuggestCommand.self, BrowseCommand.self,
            FacetsCommand.self, AggregateCommand.self, StatsCommand.self, DeleteCommand.self, OptimizeCommand.self,
            GarbageCollectCommand.self, CheckCommand.self, RecoverCommand.self, InspectCommand.self,
            QuickstartCommand.self,
        ]
    }

    /// Runs one `idx` invocation.
    /// - Parameters:
    ///   - arguments: the command line without the program name, e.g. `["search", "movies", "heat"]`.
    ///   - input: the descriptor `-` reads from.
    package static func run(
        _ arguments: [String], input: Int32 = 0, stdout: any Output, stderr: any Output
    )
        -> ExitCode
    {
        guard let name = arguments.first, name != "--help", name != "-h" else {
            stdout.write(overview)
            return .success
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            stderr.write("idx: unknown command '\(name)'\n\n" + overview)
            return .usage
        }
        return run(command, Array(arguments.dropFirst()), Console(input: input, out: stdout, err: stderr))
    }

    private static func run(_ type: any Command.Type, _ arguments: [String], _ console: Console) -> ExitCode {
        let spec = type.spec
        do throws(UsageError) {
            let parsed = try ParsedArguments(arguments, spec: spec)
            if parsed.wantsHelp {
                console.out.write(spec.help)
                return .success
            }
            let command = try type.init(parsed)
            do throws(CommandFailure) {
                try command.run(console)
                return .success
            } catch {
                console.err.line("idx \(spec.name): \(error.message)")
                return .failure
            }
        } catch {
            console.err.line("idx \(spec.name): \(error.message)")
            console.err.line("USAGE: \(spec.usage)")
            console.err.line("Run 'idx \(spec.name) --help' for more.")
            return .usage
        }
    }

    /// The text of `idx` and `idx --help`.
    static var overview: String {
        let specs = commands.map { $0.spec }
        let width = specs.map { $0.name.count }.max() ?? 0
        let rows = specs.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count + 2) + $0.abstract }
        return """
            OVERVIEW: Build and search Loupe indexes.

            USAGE: idx COMMAND [ARGUMENTS] [OPTIONS]

            COMMANDS:
            \(rows.joined(separator: "\n"))

            Run 'idx COMMAND --help' for a command's arguments and options.

            """
    }
}
