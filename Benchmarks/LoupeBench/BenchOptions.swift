import Loupe

/// Command-line options of loupe-bench.
struct BenchOptions {
    struct UsageError: Error { var message: String }

    var corpus = ""
    var schema = ""
    var queries = ""
    var out = ""
    var repetitions = 10
    var threads = 1
    var memoryMB = 50
    var limitDocs: Int?
    var queriesLimit: Int?
    var indexDirectory: String?
    /// Search the index already at `indexDirectory` instead of building one (for profiling the query phase).
    var reuseIndex = false
    /// `id<TAB>json` lines (compare.py writes them): when set, the update-heavy phase runs after the queries.
    var upserts: String?
    var upsertBatch = 100
    /// A JSON list of facet and aggregation rows (compare.py writes it from bench/aggregations.py): when set, they
    /// are timed after the queries, `aggregationRepetitions` passes.
    var aggregations: String?
    var aggregationRepetitions = 20
    /// When set, the instant-search rows (issue #12) run after the queries: `instantSearch` and `suggest` on every
    /// keystroke prefix of the first `instantQueries` plain-word queries; the associated value is the fast field
    /// `instantSearch` counts facets of (nil: none).
    var instant: InstantFacet?
    var instantQueries = 200
    /// A fuzzy.txt (`misspelling<TAB>intended<TAB>edits<TAB>fields`): when set, the suggestion-quality cases run.
    var suggestQuality: String?

    /// `--instant FACET|none`.
    enum InstantFacet {
        case none
        case field(String)

        var name: String? {
            if case .field(let name) = self { return name }
            return nil
        }
    }

    static let usage = """
        usage: loupe-bench --corpus F.jsonl[.gz] --schema S.json --queries Q.txt --out R.json
                           [--repeat N] [--threads N] [--memory-mb N] [--limit-docs N] [--queries-limit N]
                           [--index-dir D [--reuse-index]]
                           [--upserts U.tsv [--upsert-batch N]] [--aggregations A.json [--agg-repeat N]]
                           [--instant FACET|none [--instant-queries N]] [--suggest-quality FUZZY.txt]
        """

    static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
        var options = BenchOptions()
        var i = 0
        func value(_ name: String) throws(UsageError) -> String {
            i += 1
            guard i < arguments.count else { throw UsageError(message: "\(name) needs a value") }
            return arguments[i]
        }
        func number(_ name: String) throws(UsageError) -> Int {
            let text = try value(name)
            guard let n = Int(text), n > 0 else {
                throw UsageError(message: "\(name) needs a positive number, got '\(text)'")
            }
            return n
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--corpus": options.corpus = try value("--corpus")
            case "--schema": options.schema = try value("--schema")
            case "--queries": options.queries = try value("--queries")
            case "--out": options.out = try value("--out")
            case "--repeat": options.repetitions = try number("--repeat")
            case "--threads": options.threads = try number("--threads")
            case "--memory-mb": options.memoryMB = try number("--memory-mb")
            case "--limit-docs": options.limitDocs = try number("--limit-docs")
            case "--queries-limit": options.queriesLimit = try number("--queries-limit")
            case "--index-dir": options.indexDirectory = try value("--index-dir")
            case "--reuse-index": options.reuseIndex = true
            case "--upserts": options.upserts = try value("--upserts")
            case "--upsert-batch": options.upsertBatch = try number("--upsert-batch")
            case "--aggregations": options.aggregations = try value("--aggregations")
            case "--agg-repeat": options.aggregationRepetitions = try number("--agg-repeat")
            case "--instant":
                let facet = try value("--instant")
                options.instant = facet == "none" ? InstantFacet.none : .field(facet)
            case "--instant-queries": options.instantQueries = try number("--instant-queries")
            case "--suggest-quality": options.suggestQuality = try value("--suggest-quality")
            case "--help", "-h": throw UsageError(message: "measures indexing, opening and queries")
            case let other: throw UsageError(message: "unknown option '\(other)'")
            }
            i += 1
        }
        for (name, v) in [
            ("--corpus", options.corpus), ("--schema", options.schema), ("--queries", options.queries),
            ("--out", options.out),
        ]
        where v.isEmpty {
            throw UsageError(message: "\(name) is required")
        }
        if options.reuseIndex && options.indexDirectory == nil {
            throw UsageError(message: "--reuse-index needs --index-dir")
        }
        guard (1...IndexWriter.maxThreads).contains(options.threads) else {
            throw UsageError(message: "--threads needs 1 to \(IndexWriter.maxThreads) (got \(options.threads))")
        }
        return options
    }
}
