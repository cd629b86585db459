import Foundation
import Loupe

/// `idx suggest DIR TEXT`: completions of text being typed, the search history's first, as a search bar shows them.
struct SuggestCommand: Command {
    static let spec = CommandSpec(
        name: "suggest",
        abstract: "Complete text being typed from the index's terms and the search history.",
        arguments: [("DIR", "The index folder.")],
        optionalArguments: [
            ("TEXT", "The text typed so far; its last word is completed (unless it ends with a space).")
        ],
        options: [
            OptionSpec(
                name: "field", valueName: "FIELD",
                help: "The text or string field completed (default: the first default field)."),
            OptionSpec(name: "limit", valueName: "N", help: "Show at most N suggestions (default 5)."),
            OptionSpec(
                name: "popularity", valueName: "FIELD",
                help: "Rank completions by their documents' summed values of this fast numeric field."),
            OptionSpec(
                name: "no-history", valueName: nil,
                help: "Leave out the search history kept beside the index (search-history.bin)."),
            OptionSpec(
                name: "stdin", valueName: nil,
                help: "Instead of TEXT, read one text per line from stdin and print one JSON array per line."),
            OptionSpec(
                name: "json", valueName: nil,
                help: "Print one JSON array: [{\"text\": T, \"count\": N, \"source\": \"index\"|\"history\"}, …]."),
        ],
        discussion: """
            Each line shows a suggestion, its count (documents holding it, with the earlier words), and its source:
            the index, or the history of searches that start with TEXT. Nothing is recorded in the history.
              idx suggest movies 'the godf'
              printf 'g\\ngo\\ngod\\n' | idx suggest movies --stdin
            """)

    /// How history suggestions are marked for people.
    static let historyMark = "↺"

    let directory: String
    /// Nil with `--stdin`.
    let text: String?
    let field: String?
    let limit: Int
    let popularity: String?
    let usesHistory: Bool
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        text = arguments.positional(1)
        if arguments.flag("stdin") {
            if let text { throw UsageError("give either TEXT or --stdin, not both (got '\(text)')") }
        } else if text == nil {
            throw UsageError("missing TEXT (or --stdin to read texts from stdin)")
        }
        field = arguments.value("field")
        limit = try arguments.integer("limit", minimum: 0) ?? 5
        popularity = arguments.value("popularity")
        usesHistory = !arguments.flag("no-history")
        json = arguments.flag("json") || text == nil
    }

    func run(_ console: Console) throws(CommandFailure) {
        let index = try openIndex(directory)
        let searcher = try engine(index.searcher())
        let history = usesHistory ? try openHistory(beside: index) : nil
        func suggestions(_ text: String) throws(CommandFailure) -> [Suggestion] {
            try engine(
                searcher.suggest(text, field: field, limit: limit, popularity: popularity, history: history))
        }
        guard let text else {
            try forEachLine(of: console.input) { (line) throws(CommandFailure) in
                console.out.line(Self.json(try suggestions(line)))
            }
            return
        }
        let found = try suggestions(text)
        if json {
            console.out.line(Self.json(found))
            return
        }
        let textWidth = found.map(\.text.count).max() ?? 0
        let countWidth = found.map { String($0.count).count }.max() ?? 0
        for suggestion in found {
            let count = String(suggestion.count)
            console.out.line(
                suggestion.text + String(repeating: " ", count: textWidth - suggestion.text.count + 2)
                    + String(repeating: " ", count: countWidth - count.count) + count + "  "
                    + (suggestion.source == .history ? Self.historyMark + " history" : "index"))
        }
    }

    /// `[{"text": T, "count": N, "source": "index"|"history"}, …]`.
    static func json(_ suggestions: [Suggestion]) -> String {
        JSONText.array(
            suggestions.map { suggestion in
                JSONText.object([
                    ("text", JSONText.string(suggestion.text)), ("count", String(suggestion.count)),
                    ("source", JSONText.string(suggestion.source.rawValue)),
                ])
            })
    }

    /// Calls `body` with each line read from `descriptor` (without its `\n` or `\r\n`) as soon as the line is
    /// complete, so a script feeding one line at a time gets each answer before it writes the next.
    private func forEachLine(
        of descriptor: Int32, _ body: (String) throws(CommandFailure) -> Void
    ) throws(CommandFailure) {
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        var pending: [UInt8] = []
        func emit(_ bytes: ArraySlice<UInt8>) throws(CommandFailure) {
            let line = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes
            try body(String(decoding: line, as: UTF8.self))
        }
        while true {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { break }
            pending.append(contentsOf: chunk)
            var start = 0
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                try emit(pending[start..<newline])
                start = newline + 1
            }
            pending.removeFirst(start)
        }
        if !pending.isEmpty { try emit(pending[...]) }
    }
}
