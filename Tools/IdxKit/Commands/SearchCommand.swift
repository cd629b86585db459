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
            OptionSpec(
                name: "instant", valueName: nil,
                help: "Search as you type: QUERY is plain words, the last a prefix, with typos; adds suggestions."),
            OptionSpec(
                name: "fields", valueName: "A,B",
                help: "With --instant: the fields searched (default: the default fields)."),
            OptionSpec(
                name: "facet", valueName: "FIELD", help: "With --instant: count the matches per value of a fast field.",
                isRepeatable: true),
            OptionSpec(
                name: "popularity", valueName: "FIELD",
                help: "With --instant: a fast numeric field ranking equal hits and the suggestions (larger first)."),
            OptionSpec(
                name: "no-history", valueName: nil,
                help: "With --instant: leave the search history beside the index out of the suggestions."),
        ],
        discussion: """
            Words without a field search the schema's default fields. Each hit prints its score, then its
            stored fields (the id field first). Put -- before a query that starts with '-':
              idx search movies -- '-title:love genres:Drama'
            With --instant, the count is exact and the suggestions (the history's searches first) follow it;
            --sort, --offset and --and do not apply. Nothing is recorded in the history.
              idx search movies 'godfathr pa' --instant --facet genres
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
    /// Set by `--instant`: the search runs as `instantSearch`.
    let instant: InstantOptions?

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
        instant = try InstantOptions(arguments)
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
        if let instant {
            try runInstant(instant, index: index, console: console)
            return
        }
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
            console.out.line(
                JSONText.object(
                    jsonMembers(results.hits, count: results.totalCount, exact: results.isTotalCountExact, idField)))
            return
        }
        write(results.hits, idField: idField, to: console.out)
        console.out.line(
            summary(
                count: results.totalCount, exact: results.isTotalCountExact, shown: results.hits.count,
                elapsed: elapsed))
    }

    /// The members of the `--json` object, up to its hits.
    func jsonMembers(_ hits: [SearchHit], count: Int, exact: Bool, _ idField: String?) -> [(key: String, json: String)]
    {
        let hits = hits.map { hit in
            var members = [
                ("score", JSONText.number(hit.score)), ("doc", JSONText.document(hit.document, idField: idField)),
            ]
            if let value = hit.sortValue { members.append(("sort", JSONText.values([value]))) }
            if let field = snippetField, let snippet = hit.snippet(field) {
                members.append(("snippet", JSONText.string(snippet.rendered(escapingHTML: false))))
            }
            return JSONText.object(members)
        }
        return [
            ("query", JSONText.string(query)), ("count", String(count)), ("count_exact", exact ? "true" : "false"),
            ("hits", JSONText.array(hits)),
        ]
    }

    /// One line per hit, each followed by its `--snippet` line.
    func write(_ hits: [SearchHit], idField: String?, to out: any Output) {
        for hit in hits {
            out.line(Self.line(hit, idField: idField))
            if let field = snippetField, let snippet = hit.snippet(field) {
                out.line("    " + snippet.rendered(open: "[", close: "]", escapingHTML: false))
            }
        }
    }

    /// `4 matches, showing 2–3 (0.42 ms)`.
    func summary(count: Int, exact: Bool, shown: Int, elapsed: Duration) -> String {
        let range = shown == 0 ? "" : ", showing \(offset + 1)–\(offset + shown)"
        let total = exact ? "\(count)" : "≥ \(count)"
        return "\(total) match\(count == 1 && exact ? "" : "es")\(range) (\(Format.milliseconds(elapsed)))"
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
