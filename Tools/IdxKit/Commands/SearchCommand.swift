import Loupe
import LoupeQueryGrammar

/// `idx search DIR QUERY`: the best hits for a query string, as lines for people or (`--json`) one object for scripts.
struct SearchCommand: Command {
    static let spec = CommandSpec(
        name: "search",
        abstract: "Search an index with a query string.",
        arguments: [
            ("DIR", "The index folder."),
            ("QUERY", "Words, field:value, \"a phrase\", +must, -must_not (tantivy syntax)."),
        ],
        options: [
            OptionSpec(name: "limit", valueName: "N", help: "Show at most N hits (default 10)."),
            OptionSpec(name: "offset", valueName: "N", help: "Skip the N best hits first (default 0)."),
            OptionSpec(
                name: "json", valueName: nil,
                help: "Print one JSON object: {\"query\", \"count\", \"hits\": [{\"score\", \"doc\"}]}."),
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

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        query = arguments.positionals[1]
        limit = try arguments.integer("limit", minimum: 0) ?? 10
        offset = try arguments.integer("offset", minimum: 0) ?? 0
        json = arguments.flag("json")
    }

    func run(_ console: Console) throws(CommandFailure) {
        let index = try openIndex(directory)
        let clock = ContinuousClock()
        let start = clock.now
        let results = try search(index)
        let elapsed = clock.now - start
        let idField = index.schema.idField
        if json {
            let hits = results.hits.map {
                JSONText.object([
                    ("score", JSONText.number($0.score)), ("doc", JSONText.document($0.document, idField: idField)),
                ])
            }
            console.out.line(
                JSONText.object([
                    ("query", JSONText.string(query)), ("count", String(results.count)), ("hits", JSONText.array(hits)),
                ]))
            return
        }
        for hit in results.hits {
            console.out.line(Self.line(hit, idField: idField))
        }
        let shown = results.hits.isEmpty ? "" : ", showing \(offset + 1)–\(offset + results.hits.count)"
        console.out.line(
            "\(results.count) match\(results.count == 1 ? "" : "es")\(shown) (\(Format.milliseconds(elapsed)))")
    }

    private func search(_ index: Index) throws(CommandFailure) -> SearchResults {
        do {
            return try index.search(index.parseQuery(query), limit: limit, offset: offset)
        } catch {
            let failure = CommandFailure(error)
            // A multi-line message quotes the query itself.
            guard error.code == .invalidQuery, !error.message.contains("\n"), let byte = error.context.byteOffset else {
                throw failure
            }
            throw CommandFailure(failure.message + "\n" + QuerySyntaxError.pointer(at: byte, in: query))
        }
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
