import Loupe

/// `idx search DIR TEXT --instant`: one keystroke of a search bar, as `instantSearch` answers it.
extension SearchCommand {
    /// The options that only `--instant` takes.
    struct InstantOptions {
        /// The fields searched; empty means the schema's default fields.
        let fields: [String]
        /// The fast fields counted per value, each once, in the order given.
        let facets: [String]
        let popularity: String?
        /// Whether the suggestions merge the search history kept beside the index.
        let usesHistory: Bool

        /// Nil without `--instant`.
        /// - Throws: `UsageError` for an option of plain search that instant search cannot honour, or one of
        ///   instant search given without `--instant`.
        init?(_ arguments: ParsedArguments) throws(UsageError) {
            guard arguments.flag("instant") else {
                let given =
                    ["fields", "facet", "popularity"].filter { arguments.value($0) != nil }
                    + (arguments.flag("no-history") ? ["no-history"] : [])
                if let option = given.first { throw UsageError("--\(option) applies only with --instant") }
                return nil
            }
            let unsupported: [(option: String, given: Bool, reason: String)] = [
                ("sort", arguments.value("sort") != nil, "hits rank by typos, then relevance, then --popularity"),
                ("offset", arguments.value("offset") != nil, "it shows the first hits only"),
                ("and", arguments.flag("and"), "every word must match already"),
            ]
            if let given = unsupported.first(where: \.given) {
                throw UsageError("--\(given.option) does not apply with --instant (\(given.reason))")
            }
            fields = arguments.list("fields")
            var seen: Set<String> = []
            facets = arguments.list("facet").filter { seen.insert($0).inserted }
            popularity = arguments.value("popularity")
            usesHistory = !arguments.flag("no-history")
        }
    }

    /// How many suggestions `--instant` shows.
    static let suggestionCount = 5

    func runInstant(_ options: InstantOptions, index: Index, console: Console) throws(CommandFailure) {
        let history = options.usesHistory ? try openHistory(beside: index) : nil
        let clock = ContinuousClock()
        let start = clock.now
        let results = try engine(
            index.instantSearch(
                query, fields: options.fields, limit: countOnly ? 0 : limit, facets: options.facets,
                popularity: options.popularity, suggestions: countOnly ? 0 : Self.suggestionCount, history: history))
        let elapsed = clock.now - start
        if countOnly {
            let count = String(results.totalCount)
            console.out.line(json ? JSONText.object([("query", JSONText.string(query)), ("count", count)]) : count)
            return
        }
        let idField = index.schema.idField
        if json {
            var members = jsonMembers(results.hits, count: results.totalCount, exact: true, idField)
            members.append(("suggestions", SuggestCommand.json(results.suggestions)))
            if !options.facets.isEmpty {
                let facets = options.facets.map { field in (field, FacetsCommand.json(results.facets[field] ?? [])) }
                members.append(("facets", JSONText.object(facets)))
            }
            console.out.line(JSONText.object(members))
            return
        }
        write(results.hits, idField: idField, to: console.out)
        console.out.line(summary(count: results.totalCount, exact: true, shown: results.count, elapsed: elapsed))
        let suggestions = results.suggestions.map { suggestion in
            (suggestion.source == .history ? SuggestCommand.historyMark + " " : "")
                + "\(suggestion.text) (\(suggestion.count))"
        }
        console.out.line("suggestions: " + (suggestions.isEmpty ? "none" : suggestions.joined(separator: ", ")))
        for field in options.facets {
            let counts = (results.facets[field] ?? []).map { "\(FacetsCommand.text($0.value)) (\($0.count))" }
            console.out.line("\(field): " + (counts.isEmpty ? "none" : counts.joined(separator: ", ")))
        }
    }
}
