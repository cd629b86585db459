import Foundation
import Loupe
import LoupeCodec

/// `idx aggregate DIR REQUEST.json`: Elasticsearch-shaped aggregations over the matching documents, printed as
/// tantivy's response JSON.
struct AggregateCommand: Command {
    static let spec = CommandSpec(
        name: "aggregate",
        abstract: "Run aggregations (terms, histograms, ranges, stats, percentiles, cardinality) over an index.",
        arguments: [
            ("DIR", "The index folder."),
            ("REQUEST.json", "A file holding the request, such as {\"g\": {\"terms\": {\"field\": \"genres\"}}}."),
        ],
        options: [
            OptionSpec(name: "query", valueName: "Q", help: "Aggregate only the documents matching Q (default: all)."),
            OptionSpec(name: "json", valueName: nil, help: "Print the response on one line (default: indented)."),
        ],
        discussion: """
            The request and response have the shape of tantivy's (and Elasticsearch's) aggregations; every
            kind and parameter is in Docs/AGGREGATIONS.md. REQUEST.json may be - to read stdin.
              echo '{"decades": {"histogram": {"field": "year", "interval": 10}}}' \\
                | idx aggregate movies - --query 'genres:Drama'
            """)

    let directory: String
    let requestPath: String
    let query: String?
    let compact: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        requestPath = arguments.positionals[1]
        query = arguments.value("query")
        compact = arguments.flag("json")
    }

    func run(_ console: Console) throws(CommandFailure) {
        let request = try readRequest(console)
        let index = try openIndex(directory)
        let response = try querying(query ?? "") { () throws(IndexError) in
            let matching = try query.map { text throws(IndexError) in try index.parseQuery(text) } ?? .matchAll
            return try index.aggregate(request, matching: matching)
        }
        console.out.line(compact ? response : Self.indented(response))
    }

    private func readRequest(_ console: Console) throws(CommandFailure) -> String {
        let data: Data
        if requestPath == "-" {
            data = FileHandle(fileDescriptor: console.input, closeOnDealloc: false).readDataToEndOfFile()
        } else {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: requestPath))
            } catch {
                throw CommandFailure("cannot read request \(requestPath): \(error.localizedDescription)")
            }
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure("\(requestPath == "-" ? "stdin" : requestPath): the request is not UTF-8 text")
        }
        return text
    }

    /// The response indented two spaces per level, one member or element per line.
    static func indented(_ json: String) -> String {
        guard let value = try? JSONParser.parse(json) else { return json }
        var bytes: [UInt8] = []
        JSONWriter.write(value, into: &bytes, pretty: true)
        return String(decoding: bytes, as: UTF8.self)
    }
}
