import Loupe

/// `FuzzIndex`'s documents committed as one segment, with a document deleted, held as the bytes of its files: the
/// `segment-…` targets copy them into a new `RAMDirectory` with one file's bytes replaced by the input, open the
/// index without the checksum pass (so the damage reaches the parsers) and search it as
/// `CorruptionWalkTests` does.
final class FuzzSegment: Sendable {
    static let shared = FuzzSegment()

    /// A file of the segment.
    enum File {
        /// The component file whose name ends with `.<extension>`.
        case component(String)
        /// The deleted-documents file, `<segment>.<generation>.del`.
        case deletedDocs

        var suffix: String {
            switch self {
            case .component(let fileExtension): "." + fileExtension
            case .deletedDocs: ".del"
            }
        }
    }

    /// Every file of the index, meta.json included, by name.
    let files: [String: [UInt8]]

    private init() {
        let directory = RAMDirectory()
        let index = try! Index(directory: directory, schema: FuzzIndex.schema, verifyChecksums: false)
        try! FuzzIndex.fill(index, commitAt: [])
        files = Dictionary(
            uniqueKeysWithValues: try! directory.list().map { name in
                let file = try! directory.open(name)
                return withExtendedLifetime(file) { unsafe (name, Array(file.bytes)) }
            })
    }

    /// The name of `file`.
    func name(_ file: File) -> String {
        files.keys.filter { $0.hasSuffix(file.suffix) }.sorted()[0]
    }

    /// The valid bytes of `file`.
    func file(_ file: File) -> [UInt8] { files[name(file)] ?? [] }

    static let queries: [Query] = [
        .term("title", .text("alpha")), .phrase("body", ["alpha", "beta"]), .prefix("title", "ti"),
        .fuzzy("title", "alpah", distance: 1), .regex("notes", "be.*"), .range("year", 1995...2005),
        .parsed("+alpha -delta genre:beta OR tag:Red OR classic:true OR rating:[1 TO 3]"),
    ]

    /// Opens the index with `file` replaced by `input`, then runs every query (counting every match and fetching the
    /// stored fields of the hits), a count, term counts, sorts by columns, an existence count, a fetch by id and an
    /// aggregation, each whatever the others did.
    func run(_ input: [UInt8], replacing file: File) -> FuzzOutcome {
        let directory = RAMDirectory()
        let replaced = name(file)
        for (name, bytes) in files {
            do {
                try directory.writeAtomically(name, name == replaced ? input : bytes)
            } catch {
                return .failed("the in-memory directory refused \(name): \(error)")
            }
        }
        let index: Index
        do {
            index = try Index(directory: directory, schema: nil, verifyChecksums: false)
        } catch {
            return FuzzSteps.refused(error)
        }
        var steps = FuzzSteps()
        for query in Self.queries {
            steps.run { () throws(IndexError) in
                for hit in try index.search(query, limit: 20, counting: .exact).hits { _ = hit.document.entries }
            }
        }
        steps.run { () throws(IndexError) in _ = try index.count(.parsed("alpha gamma")) }
        steps.run { () throws(IndexError) in for field in ["genre", "tag", "year"] { _ = try index.termCounts(field) } }
        steps.run { () throws(IndexError) in _ = try index.search(.matchAll, limit: 5, orderBy: .ascending("tag")) }
        steps.run { () throws(IndexError) in
            _ = try index.search(.parsed("alpha"), limit: 5, orderBy: .descending("rating"))
        }
        steps.run { () throws(IndexError) in _ = try index.count(.exists("rating")) }
        steps.run { () throws(IndexError) in _ = try index.get("id", equals: "d3")?.document.entries }
        steps.run { () throws(IndexError) in _ = try index.aggregate(Self.aggregation) }
        return steps.outcome
    }

    static let aggregation =
        #"{"g": {"terms": {"field": "genre"}, "aggs": {"y": {"stats": {"field": "year"}}}}, "#
        + #""d": {"date_histogram": {"field": "released", "fixed_interval": "365d"}}, "#
        + #""c": {"cardinality": {"field": "id"}}, "p": {"percentiles": {"field": "rating"}}}"#
}
