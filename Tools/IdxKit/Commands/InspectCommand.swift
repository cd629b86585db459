import Loupe

/// `idx inspect DIR [SEGMENT]`: per segment and per field, what the index holds and where its bytes go.
struct InspectCommand: Command {
    static let spec = CommandSpec(
        name: "inspect",
        abstract: "Show per segment and per field: terms and bytes of postings, positions, norms, fast columns.",
        arguments: [("DIR", "The index folder.")],
        options: [
            OptionSpec(
                name: "segment", valueName: "ID", help: "Only this segment (its 32-hex id, or a unique prefix)."),
            OptionSpec(name: "json", valueName: nil, help: "Print one JSON object: segments, each with its fields."),
        ])

    let directory: String
    let segmentPrefix: String?
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        segmentPrefix = arguments.value("segment")
        json = arguments.flag("json")
    }

    func run(_ console: Console) throws(CommandFailure) {
        let index = try openIndex(directory)
        let schema = index.schema
        var segments = index.searcher().segments
        if let segmentPrefix {
            segments = segments.filter { $0.id.description.hasPrefix(segmentPrefix) }
            guard segments.count == 1 else {
                throw CommandFailure("\(segments.isEmpty ? "no" : "more than one") segment matches '\(segmentPrefix)'")
            }
        }
        var objects: [String] = []
        for segment in segments {
            let fields = segment.footprints(schema: schema)
            if json {
                let fieldObjects = fields.map { f in
                    JSONText.object([
                        ("name", JSONText.string(schema.fields[f.field].name)), ("terms", String(f.terms)),
                        ("postings_bytes", String(f.postingsBytes)), ("positions_bytes", String(f.positionsBytes)),
                        ("norms_bytes", String(f.normsBytes)), ("fast_bytes", String(f.fastBytes)),
                        ("fast_layout", f.fastLayout.map(JSONText.string) ?? "null"),
                    ])
                }
                objects.append(
                    JSONText.object([
                        ("id", JSONText.string(segment.id.description)), ("documents", String(segment.liveCount)),
                        ("max_doc", String(segment.maxDoc)),
                        ("store_bytes", String(segment.bytesByKind["store"] ?? 0)),
                        ("terms_bytes", String(segment.bytesByKind["terms"] ?? 0)),
                        ("fields", JSONText.array(fieldObjects)),
                    ]))
                continue
            }
            console.out.line(
                "segment \(segment.id)  documents \(segment.liveCount)  max_doc \(segment.maxDoc)  "
                    + "store \(Format.bytes(segment.bytesByKind["store"] ?? 0))  "
                    + "terms \(Format.bytes(segment.bytesByKind["terms"] ?? 0))")
            let rows =
                [["field", "terms", "postings", "positions", "norms", "fast", "fast layout"]]
                + fields.map { f in
                    [
                        schema.fields[f.field].name, String(f.terms), Format.bytes(f.postingsBytes),
                        Format.bytes(f.positionsBytes), Format.bytes(f.normsBytes), Format.bytes(f.fastBytes),
                        f.fastLayout ?? "",
                    ]
                }
            let widths = (0..<7).map { column in rows.map { $0[column].count }.max() ?? 0 }
            for row in rows {
                let cells = row.enumerated().map { i, cell in
                    i == 6
                        ? cell
                        : i == 0
                            ? cell + String(repeating: " ", count: widths[i] - cell.count)
                            : String(repeating: " ", count: widths[i] - cell.count) + cell
                }
                var line = "  " + cells.joined(separator: "  ")
                while line.last == " " { line.removeLast() }
                console.out.line(line)
            }
        }
        if json { console.out.line(JSONText.object([("segments", JSONText.array(objects))])) }
    }
}
