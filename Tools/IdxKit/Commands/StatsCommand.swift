import Loupe
import LoupeCodec

/// `idx stats DIR`: documents, deletions, segments and bytes of an index, for people or (`--json`) for scripts.
struct StatsCommand: Command {
    static let spec = CommandSpec(
        name: "stats",
        abstract: "Show the documents, segments and size of an index.",
        arguments: [("DIR", "The index folder.")],
        options: [
            OptionSpec(
                name: "json", valueName: nil,
                help:
                    "Print one JSON object: documents, deleted, max_doc, bytes, bytes_by_kind, the same per segment, schema."
            )
        ])

    let directory: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        json = arguments.flag("json")
    }

    func run(_ console: Console) throws(CommandFailure) {
        let index = try openIndex(directory)
        let segments = index.searcher().segmentInfos
        let total = Totals(segments)
        if json {
            var schema: [UInt8] = []
            JSONWriter.write(index.schema.encode(), into: &schema, pretty: false)
            let members =
                total.jsonMembers + [
                    ("segments", JSONText.array(segments.map(Self.json))),
                    ("schema", String(decoding: schema, as: UTF8.self)),
                ]
            console.out.line(JSONText.object(members))
            return
        }
        let schema = index.schema
        console.out.line("index      \(directory)")
        console.out.line("documents  \(total.documents)")
        console.out.line("deleted    \(total.deleted)")
        console.out.line("max_doc    \(total.maxDoc)")
        console.out.line("bytes      \(total.bytes) (\(Format.bytes(total.bytes)))")
        console.out.line(
            "files      " + total.byKind.map { "\($0.kind) \(Format.bytes($0.bytes))" }.joined(separator: ", "))
        console.out.line(
            "fields     \(schema.fields.count); default: \(schema.defaultFields.joined(separator: ", ")); "
                + "id: \(schema.idField ?? "none")")
        console.out.line("segments   \(segments.count)")
        for segment in segments {
            console.out.line(
                "  \(segment.id)  documents \(segment.documentCount)  deleted \(segment.deletedCount)  "
                    + "max_doc \(segment.maxDoc)  bytes \(segment.byteCount)")
        }
    }

    private static func json(_ segment: SegmentInfo) -> String {
        JSONText.object([("id", JSONText.string(segment.id))] + Totals([segment]).jsonMembers)
    }

    /// The counts reported for the whole index and, in the same shape, for each segment.
    private struct Totals {
        var documents = 0
        var deleted = 0
        var maxDoc = 0
        var bytes = 0
        /// Bytes per file kind, in the order of a segment's files.
        var byKind: [(kind: String, bytes: Int)] = []

        init(_ segments: [SegmentInfo]) {
            var kinds: [String: Int] = [:]
            for segment in segments {
                documents += segment.documentCount
                deleted += segment.deletedCount
                maxDoc += segment.maxDoc
                bytes += segment.byteCount
                kinds.merge(segment.bytesByKind, uniquingKeysWith: +)
            }
            let order = ["terms", "postings", "positions", "norms", "store", "fast", "del"]
            byKind = order.compactMap { kind in kinds[kind].map { (kind, $0) } }
        }

        var jsonMembers: [(key: String, json: String)] {
            [
                ("documents", String(documents)), ("deleted", String(deleted)), ("max_doc", String(maxDoc)),
                ("bytes", String(bytes)),
                ("bytes_by_kind", JSONText.object(byKind.map { ($0.kind, String($0.bytes)) })),
            ]
        }
    }
}
