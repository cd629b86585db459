import Loupe

/// The fuzz targets of issue #14: one body per input format the engine reads, each taking arbitrary bytes and
/// driving the engine through its package API.
///
/// A body answers (the input was accepted and used) or refuses (the engine threw its typed `IndexError`); a trap, a
/// sanitizer report or a hang is a finding, and so is an outcome that breaks a stated property (`.failed`). Two
/// callers share these bodies: the libFuzzer entry point (`Tests/Fuzz/libFuzzer`, built by `Tools/fuzz.sh`) and
/// `FuzzRegressionTests`, which replays the committed inputs of `Tests/LoupeTests/Fixtures/fuzz/<target>/`.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The bytes as a query string: parsed by LoupeQueryGrammar, compiled and searched against `FuzzIndex`.
    case query
    /// The bytes as one JSON document (`Schema.prepareJSON`, `IndexWriter.addJSON`) and as JSONL lines.
    case jsonDocument = "json-document"
    /// The bytes as schema JSON (`Schema(json:)`).
    case schema
    /// The bytes as an aggregation request run against `FuzzIndex`.
    case aggregation
    /// The bytes as one component file of a small valid segment (`FuzzSegment`), the index then opened and searched.
    case segmentTerms = "segment-terms"
    case segmentPostings = "segment-postings"
    case segmentPositions = "segment-positions"
    case segmentNorms = "segment-norms"
    case segmentStore = "segment-store"
    case segmentFast = "segment-fast"
    case segmentDeletedDocs = "segment-del"

    /// Runs the body on `input`.
    public func run(_ input: [UInt8]) -> FuzzOutcome {
        switch self {
        case .query: Self.query(input)
        case .jsonDocument: Self.jsonDocument(input)
        case .schema: Self.schema(input)
        case .aggregation: Self.aggregation(input)
        default: FuzzSegment.shared.run(input, replacing: segmentFile)
        }
    }

    /// Inputs to start from: what the body accepts, so that mutations start inside the format.
    public var seeds: [[UInt8]] {
        switch self {
        case .query: Self.querySeeds.map { Array($0.utf8) }
        case .jsonDocument: Self.jsonDocumentSeeds.map { Array($0.utf8) }
        case .schema: [Array(FuzzIndex.schema.json.utf8)] + Self.schemaSeeds.map { Array($0.utf8) }
        case .aggregation: Self.aggregationSeeds.map { Array($0.utf8) }
        default: [FuzzSegment.shared.file(segmentFile)]
        }
    }

    /// The segment file the `segment-…` targets replace: the extension its name ends with.
    var segmentFile: FuzzSegment.File {
        switch self {
        case .segmentTerms: .component("terms")
        case .segmentPostings: .component("postings")
        case .segmentPositions: .component("positions")
        case .segmentNorms: .component("norms")
        case .segmentStore: .component("store")
        case .segmentFast: .component("fast")
        default: .deletedDocs
        }
    }

}

/// What a fuzz body did with one input.
public enum FuzzOutcome: Sendable {
    /// The engine accepted the input and answered.
    case answered
    /// The engine refused the input with its typed error.
    case refused(IndexError)
    /// The engine broke a property the body checks (a round trip, an error without a message): a finding.
    case failed(String)
}

/// The steps of a body, each run whatever the others did, summed up as one outcome: the first refusal, unless a
/// step broke a property. An `IndexError` is a refusal provided it says what went wrong.
struct FuzzSteps {
    private(set) var outcome = FuzzOutcome.answered

    /// Runs `step`, unless an earlier one already broke a property.
    mutating func run(_ step: () throws(IndexError) -> Void) {
        if case .failed = outcome { return }
        do {
            try step()
        } catch {
            if error.message.isEmpty {
                outcome = .failed("an IndexError without a message: \(error)")
            } else if case .answered = outcome {
                outcome = .refused(error)
            }
        }
    }

    /// The outcome of a body whose input was refused before any step.
    static func refused(_ error: IndexError) -> FuzzOutcome {
        var steps = FuzzSteps()
        steps.run { () throws(IndexError) in throw error }
        return steps.outcome
    }
}
