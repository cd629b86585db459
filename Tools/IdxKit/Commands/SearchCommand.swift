import Loupe
import LoupeQueryGrammar

/// `idx search DIR QUERY`: the best hits for a query string, as lines for people or (`--json`) one object for scripts.
struct SearchCommand: Command {
    static let spec = CommandSpec(
        name: "search",
        abstract: "Search an index with a query string.",
        arguments: [
            ("DIR", "The index folder."),
            (
                "QUERY",
                "Words, field:value, \"a phrase\"~1, +must, -not, [a TO b], word~1, pre*, /re/ (Docs/QUERY-SYNTAX.md)."
            ),
        ],
        options: [
            OptionSpec(name: "limit", valueName: "N", help: "Show at most N hits (default 10)."),
            OptionSpec(name: "offset", valueName: "N", help: "Skip the N best hits first (default 0)."),
            OptionSpec(
                name: "sort", valueName: "FIELD[:asc|desc]",
                help: "Order hits by a fast field instead of by score (default desc; strings in byte order)."),
            OptionSpec(
                name: "snippet", valueName: "FIELD",
                help: "Print the best fragment of a stored text field with matches in [brackets]."),
            OptionSpec(name: "count", valueName: nil, help: "Print only the number of matches."),
            OptionSpec(
                name: "exact", valueName: nil,
                help:
                    "Count every match (default: exactly up to 1,000, then \"≥ N\", which lets the search skip what cannot rank)."
            ),
            OptionSpec(
                name: "and", valueName: nil, help: "Words without +, -, AND or OR must all match (default: any)."),
            OptionSpec(
                name: "json", valueName: nil,
                help:
                    "Print one JSON object: {\"query\", \"count\", \"count_exact\", \"hits\": [{\"score\", \"doc\"}]}."),
        ],
        discussion: """
            Words without a field search the schema's default fields. Each hit prints its score, then its
            stored fields (the id field first). Put -- before a query that starts with '-':
              idx search movies -- '-title:love genres:Drama'
            """)

    let directory: String
    let query: String
    let limit: Int
    let offset: Int
    let json: Bool
    let order: SearchOrder
    let snippetField: String?
    let countOnly: Bool
    let counting: CountPolicy
    let conjunction: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        query = arguments.positionals[1]
        limit = try arguments.integer("limit", minimum: 0) ?? 10
        offset = try arguments.integer("offset", minimum: 0) ?? 0
        json = arguments.flag("json")
        snippetField = arguments.value("snippet")
        countOnly = arguments.flag("count")
        counting = arguments.flag("exact") ? .exact : .standard
        conjunction = arguments.flag("and")
        order = try Self.sortOrder(arguments.value("sort"))
    }

    /// `year`, `year:desc` or `year:asc`.
    private static func sortOrder(_ value: String?) throws(UsageError) -> SearchOrder {
        guard let value else { return .relevance }
        let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
        guard let field = parts.first, !field.isEmpty else {
            throw UsageError("--sort needs a field name (got '\(value)')")
        }
        switch parts.count == 2 ? parts[1] : "desc" {
        case "asc": return .ascending(field)
        case "desc": return .descending(field)
        default: throw UsageError("--sort takes FIELD, FIELD:asc or FIELD:desc (got '\(value)')")
        }
    }

    func run(_ console: Console) throws(CommandFailure) {
        let index = try openIndex(directory)
        let clock = ContinuousClock()
        let start = clock.now
        if countOnly {
            let count = try querying(query) { () throws(IndexError) in try index.count(parse(index)) }
            console.out.line(
                json ? JSONText.object([("query", JSONText.string(query)), ("count", String(count))]) : String(count))
            return
        }
        let results = try querying(query) { () throws(IndexError) in
            try index.search(parse(index), limit: limit, offset: offset, orderBy: order, counting: counting)
        }
        let elapsed = clock.now - start
        let idField = index.schema.idField
        if json {
            let hits = results.hits.map { hit in
                var members = [
                    ("score", JSONText.number(hit.score)), ("doc", JSONText.document(hit.document, idField: idField)),
                ]
                if let value = hit.sortValue { members.append(("sort", JSONText.values([value]))) }
                if let field = snippetField, let snippet = hit.snippet(field) {
                    members.append(("snippet", JSONText.string(snippet.rendered(escapingHTML: false))))
                }
                return JSONText.object(members)
            }
            console.out.line(
                JSONText.object([
                    ("query", JSONText.string(query)), ("count", String(results.totalCount)),
                    ("count_exact", results.isTotalCountExact ? "true" : "false"), ("hits", JSONText.array(hits)),
                ]))
            return
        }
        for hit in results.hits {
            console.out.line(Self.line(hit, idField: idField))
            if let field = snippetField, let snippet = hit.snippet(field) {
                console.out.line("    " + snippet.rendered(open: "[", close: "]", escapingHTML: false))
            }
        }
        let shown = results.hits.isEmpty ? "" : ", showing \(offset + 1)–\(offset + results.hits.count)"
        let count = results.isTotalCountExact ? "\(results.totalCount)" : "≥ \(results.totalCount)"
        console.out.line(
            "\(count) match\(results.totalCount == 1 && results.isTotalCountExact ? "" : "es")\(shown) (\(Format.milliseconds(elapsed)))"
        )
    }

    private func parse(_ index: Index) throws(IndexError) -> Query {
        try index.parseQuery(query, options: QueryParserOptions(conjunctionByDefault: conjunction))
    }

    /// `9.4900  movie-1  title="Heat"  year=1995  genres=["Crime", "Drama"]`: values as JSON, so text with spaces
    /// and multi-valued fields read unambiguously.
    static func line(_ hit: SearchHit, idField: String?) -> String {
        var parts = [Format.decimal(Double(hit.score), places: 4)]
        for field in JSONText.orderedFields(hit.document, idField: idField) {
            if field.name == idField, field.values.count == 1, case .text(let id) = field.values[0] {
                parts.append(id)
            } else {
                parts.append(field.name + "=" + JSONText.values(field.values))
            }
        }
        return parts.joined(separator: "  ")
    }
}
