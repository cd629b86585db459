import Loupe

/// `idx facets DIR FIELD`: the values of a fast field held by the most matching documents, with their counts.
struct FacetsCommand: Command {
    static let spec = CommandSpec(
        name: "facets",
        abstract: "Count the matching documents per value of a fast field (a filter sidebar).",
        arguments: [("DIR", "The index folder."), ("FIELD", "A fast field (declared with \"fast\": true).")],
        options: [
            OptionSpec(
                name: "query", valueName: "Q",
                help: "Count only the documents matching this query string (default: all)."),
            OptionSpec(name: "limit", valueName: "N", help: "Show the N most frequent values (default 10)."),
            OptionSpec(name: "json", valueName: nil, help: "Print one JSON array: [{\"value\": V, \"count\": N}, …]."),
        ],
        discussion: """
            Values are listed most frequent first; equal counts go to the smaller value, so the order is stable.
              idx facets packages section --query 'description:python' --limit 5
            """)

    let directory: String
    let field: String
    let query: String?
    let limit: Int
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        field = arguments.positionals[1]
        query = arguments.value("query")
        limit = try arguments.integer("limit", minimum: 0) ?? 10
        json = arguments.flag("json")
    }

    func run(_ console: Console) throws(CommandFailure) {
        let index = try openIndex(directory)
        let counts = try querying(query ?? "") { () throws(IndexError) in
            let matching = try query.map { text throws(IndexError) in try index.parseQuery(text) } ?? .matchAll
            return try index.termCounts(field, matching: matching, limit: limit)
        }
        if json {
            console.out.line(Self.json(counts))
            return
        }
        let width = counts.map { String($0.count).count }.max() ?? 0
        for facet in counts {
            let count = String(facet.count)
            console.out.line(String(repeating: " ", count: width - count.count) + count + "  " + Self.text(facet.value))
        }
    }

    /// `[{"value": V, "count": N}, …]`.
    static func json(_ counts: [FacetCount]) -> String {
        JSONText.array(
            counts.map { JSONText.object([("value", JSONText.value($0.value)), ("count", String($0.count))]) })
    }

    /// A value as people read it: strings bare, everything else as in JSON.
    static func text(_ value: FieldValue) -> String {
        if case .text(let s) = value { return s }
        return JSONText.value(value)
    }
}
