import Loupe

/// One `idx` subcommand: built from its checked arguments, then run against injected streams.
///
/// Commands never call `exit()`: a command line that does not fit throws `UsageError` from `init` (exit 64),
/// a data or index problem throws `CommandFailure` from `run` (exit 1), and returning means success.
protocol Command {
    /// The name, arguments, options and help of the command; the parser and `--help` both read it.
    static var spec: CommandSpec { get }

    /// - Throws: `UsageError` for option values that parse but make no sense (e.g. `--limit -1`).
    init(_ arguments: ParsedArguments) throws(UsageError)

    /// - Throws: `CommandFailure` with a message for the user.
    func run(_ console: Console) throws(CommandFailure)
}

/// The streams a command reads and writes.
struct Console {
    /// The descriptor `-` reads from (0 in the real process; a pipe in tests).
    let input: Int32
    let out: any Output
    let err: any Output
}

/// What a command accepts, and the text of its `--help`.
struct CommandSpec {
    let name: String
    /// One sentence, shown in `idx --help`'s command list and atop the command's help.
    let abstract: String
    /// The required positional arguments, in order: placeholder and meaning.
    var arguments: [(name: String, help: String)] = []
    /// Positional arguments that may follow the required ones, in order; the command checks which it needs.
    var optionalArguments: [(name: String, help: String)] = []
    var options: [OptionSpec] = []
    /// Paragraphs after the option list: examples, caveats.
    var discussion: String? = nil

    /// The one-line synopsis, e.g. `idx search DIR QUERY [--limit N] [--json]`.
    var usage: String {
        var parts = ["idx", name] + arguments.map(\.name) + optionalArguments.map { "[" + $0.name + "]" }
        for option in options {
            let synopsis = option.isRequired ? option.synopsis : "[" + option.synopsis + "]"
            parts.append(option.isRepeatable ? synopsis + "..." : synopsis)
        }
        return parts.joined(separator: " ")
    }

    /// The full `--help` text.
    var help: String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: \(usage)\n"
        let optionRows = options.map { ($0.synopsis, $0.help) }
        let helpRow = ("-h, --help", "Show this help.")
        let positionals = arguments + optionalArguments
        let width = (positionals.map(\.name) + optionRows.map(\.0) + [helpRow.0]).map(\.count).max() ?? 0
        func row(_ left: String, _ right: String) -> String {
            "  " + left + String(repeating: " ", count: width - left.count + 2) + right + "\n"
        }
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n" + positionals.map { row($0.name, $0.help) }.joined()
        }
        text += "\nOPTIONS:\n" + (optionRows + [helpRow]).map { row($0.0, $0.1) }.joined()
        if let discussion { text += "\n" + discussion + "\n" }
        return text
    }
}

/// One option of a command: `--name VALUE` when it has a value name, a boolean flag `--name` otherwise.
struct OptionSpec {
    let name: String
    /// The placeholder of the value in the help (`N`, `S.json`); nil for a flag.
    let valueName: String?
    let help: String
    /// A required option is checked by the parser, like a positional argument.
    var isRequired = false
    /// Whether the option may be given more than once (read with `ParsedArguments.list`); shown as `...`.
    var isRepeatable = false

    /// `--name VALUE`, or `--name` for a flag.
    var synopsis: String { "--" + name + (valueName.map { " " + $0 } ?? "") }
}

/// A command line that does not fit the command; `idx` prints it with the usage and exits 64.
struct UsageError: Error, Equatable {
    let message: String

    init(_ message: String) { self.message = message }
}

/// A data or index problem that ends a command; `idx` prints it and exits 1.
struct CommandFailure: Error {
    let message: String

    init(_ message: String) { self.message = message }

    /// The engine's message, with the byte offset when it points into user input (a JSON line, a schema, a
    /// query). Messages about files name their offsets already, and so do multi-line ones (which quote the input).
    init(_ error: IndexError) {
        let pointsIntoInput = [.invalidDocument, .invalidQuery, .invalidArgument].contains(error.code)
        guard pointsIntoInput, !error.message.contains("\n"), let byte = error.context.byteOffset else {
            message = error.message
            return
        }
        message = error.message + " (byte \(byte))"
    }
}
