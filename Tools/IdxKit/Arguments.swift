import Foundation

/// The arguments of one subcommand, checked against its spec: positionals in order, option values, and flags.
///
/// Accepts `--name value`, `--name=value`, boolean `--flag`, `-` as a positional (stdin) and `--` to end options
/// (for a query that starts with `-`). Anything else starting with `-` is an unknown option. An option may be
/// given more than once: `value` reads the last, `list` all of them.
struct ParsedArguments {
    /// The spec's required arguments, then as many of its optional ones as were given; anything, when `wantsHelp`.
    private(set) var positionals: [String] = []
    /// Per option, its values in command-line order.
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// `-h` or `--help` was given; the rest is then not checked, so help works whatever else is on the line.
    private(set) var wantsHelp = false

    /// - Throws: `UsageError` for an unknown option, a missing value, a value given to a flag, a missing required
    ///   option, or too few or too many positionals.
    init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
        var rest = arguments[...]
        var optionsEnded = false
        var firstError: UsageError?
        while let argument = rest.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument == "-h" || argument == "--help" {
                wantsHelp = true
            } else {
                do {
                    try parseOption(argument, rest: &rest, spec: spec)
                } catch {
                    firstError = firstError ?? error
                }
            }
        }
        if wantsHelp { return }
        if let firstError { throw firstError }
        if positionals.count < spec.arguments.count {
            throw UsageError("missing \(spec.arguments[positionals.count].name)")
        }
        let most = spec.arguments.count + spec.optionalArguments.count
        if positionals.count > most {
            throw UsageError("unexpected argument '\(positionals[most])'")
        }
        for option in spec.options where option.isRequired && values[option.name] == nil {
            throw UsageError("missing \(option.synopsis)")
        }
    }

    private mutating func parseOption(
        _ argument: String, rest: inout ArraySlice<String>, spec: CommandSpec
    )
        throws(UsageError)
    {
        let body = argument.dropFirst(2)
        let name = String(body.prefix { $0 != "=" })
        let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
        guard argument.hasPrefix("--"), let option = spec.options.first(where: { $0.name == name }) else {
            throw UsageError("unknown option '\(argument.prefix { $0 != "=" })'")
        }
        guard let valueName = option.valueName else {
            guard inlineValue == nil else { throw UsageError("option --\(name) takes no value") }
            flags.insert(name)
            return
        }
        guard let value = inlineValue ?? rest.popFirst() else {
            throw UsageError("option --\(name) needs a value (\(valueName))")
        }
        values[name, default: []].append(value)
    }

    /// The value of option `--name`, if given (the last one wins when repeated).
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of option `--name`, in order, each split at commas: `--facet a,b --facet c` is `[a, b, c]`.
    /// Blanks around the names and empty names (`a,,b`, a trailing comma) are dropped.
    func list(_ name: String) -> [String] {
        (values[name] ?? []).flatMap { value in
            value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    /// The positional argument at `position`, or nil when an optional argument there was left out.
    func positional(_ position: Int) -> String? {
        positionals.indices.contains(position) ? positionals[position] : nil
    }

    /// Whether the boolean flag `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of `--name` as an integer in `minimum...maximum`, or nil when the option is absent.
    ///
    /// The default maximum (2³¹ − 1) keeps sums and products of options (`limit + offset`, megabytes × 10⁶) far
    /// from overflowing.
    /// - Throws: `UsageError` if the value is not such an integer.
    func integer(_ name: String, minimum: Int, maximum: Int = Int(Int32.max)) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), (minimum...maximum).contains(number) else {
            throw UsageError("option --\(name) needs an integer from \(minimum) to \(maximum) (got '\(text)')")
        }
        return number
    }
}
