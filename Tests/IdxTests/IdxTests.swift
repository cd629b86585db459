import IdxKit
import Testing

/// The `idx` dispatcher: the command list, help texts and usage errors, common to every command.
@Suite struct IdxTests {
    static let overview = """
        OVERVIEW: Build and search Loupe indexes.

        USAGE: idx COMMAND [ARGUMENTS] [OPTIONS]

        COMMANDS:
          create      Create an empty index with a schema.
          index       Add the documents of a JSONL file (plain or gzip) to an index.
          search      Search an index with a query string.
          suggest     Complete text being typed from the index's terms and the search history.
          browse      Search an index interactively in the terminal, as you type.
          facets      Count the matching documents per value of a fast field (a filter sidebar).
          aggregate   Run aggregations (terms, histograms, ranges, stats, percentiles, cardinality) over an index.
          stats       Show the documents, segments and size of an index.
          delete      Delete the documents matching a query, and commit.
          optimize    Merge every segment into one and drop deleted documents.
          gc          Remove the files of the index folder that no commit references.
          check       Verify every file's checksum and the index's invariants; list every problem.
          recover     Restore the previous commit when meta.json (the commit point) is damaged or lost.
          inspect     Show per segment and per field: terms and bytes of postings, positions, norms, fast columns.
          quickstart  Build an index of the bundled movie corpus and run example queries.

        Run 'idx COMMAND --help' for a command's arguments and options.

        """

    @Test(arguments: [[], ["--help"], ["-h"]])
    func commandListWithoutACommand(arguments: [String]) {
        let run = IdxRun(arguments)
        #expect(run.code == .success)
        #expect(run.out == Self.overview)
        #expect(run.err.isEmpty)
    }

    @Test func unknownCommandIsAUsageError() {
        let run = IdxRun(["serach", "movies", "heat"])
        #expect(run.code == .usage)
        #expect(run.out.isEmpty)
        #expect(run.err == "idx: unknown command 'serach'\n\n" + Self.overview)
    }

    @Test func searchHelp() {
        let run = IdxRun(["search", "--help"])
        #expect(run.code == .success)
        #expect(run.err.isEmpty)
        #expect(
            run.out == """
                OVERVIEW: Search an index with a query string.

                USAGE: idx search DIR QUERY [--limit N] [--offset N] [--sort FIELD[:asc|desc]] [--snippet FIELD] [--count] [--exact] [--and] [--json] [--instant] [--fields A,B] [--facet FIELD]... [--popularity FIELD] [--no-history]

                ARGUMENTS:
                  DIR                      The index folder.
                  QUERY                    Words, field:value, "a phrase"~1, +must, -not, [a TO b], word~1, pre*, /re/ (Docs/QUERY-SYNTAX.md).

                OPTIONS:
                  --limit N                Show at most N hits (default 10).
                  --offset N               Skip the N best hits first (default 0).
                  --sort FIELD[:asc|desc]  Order hits by a fast field instead of by score (default desc; strings in byte order).
                  --snippet FIELD          Print the best fragment of a stored text field with matches in [brackets].
                  --count                  Print only the number of matches.
                  --exact                  Count every match (default: exactly up to 1,000, then "≥ N", which lets the search skip what cannot rank).
                  --and                    Words without +, -, AND or OR must all match (default: any).
                  --json                   Print one JSON object: {"query", "count", "count_exact", "hits": [{"score", "doc"}]}.
                  --instant                Search as you type: QUERY is plain words, the last a prefix, with typos; adds suggestions.
                  --fields A,B             With --instant: the fields searched (default: the default fields).
                  --facet FIELD            With --instant: count the matches per value of a fast field.
                  --popularity FIELD       With --instant: a fast numeric field ranking equal hits and the suggestions (larger first).
                  --no-history             With --instant: leave the search history beside the index out of the suggestions.
                  -h, --help               Show this help.

                Words without a field search the schema's default fields. Each hit prints its score, then its
                stored fields (the id field first). Put -- before a query that starts with '-':
                  idx search movies -- '-title:love genres:Drama'
                With --instant, the count is exact and the suggestions (the history's searches first) follow it;
                --sort, --offset and --and do not apply. Nothing is recorded in the history.
                  idx search movies 'godfathr pa' --instant --facet genres

                """)
    }

    @Test func indexHelp() {
        let run = IdxRun(["index", "-h"])
        #expect(run.code == .success)
        #expect(
            run.out == """
                OVERVIEW: Add the documents of a JSONL file (plain or gzip) to an index.

                USAGE: idx index DIR FILE [--schema S.json] [--memory-mb N] [--threads N] [--commit-every N] [--skip-bad]

                ARGUMENTS:
                  DIR               The index folder.
                  FILE              One JSON object per line, plain or gzip; - reads stdin.

                OPTIONS:
                  --schema S.json   Create the index with this schema if there is none.
                  --memory-mb N     Buffer N MB of documents, over all indexing threads, before a flush (default 50).
                  --threads N       Index on N threads, 1 to 64, sharing the budget (default 1; more may reorder ties).
                  --commit-every N  Commit after every N documents (default: at the end).
                  --skip-bad        Report and skip lines that do not fit the schema.
                  -h, --help        Show this help.

                Blank lines are skipped. Without --skip-bad, the first bad line stops the run: it is reported as
                'line N: <reason>', the documents added since the last commit are dropped, and idx exits with 1.
                A progress line is drawn on stderr when it is a terminal.

                """)
    }

    /// Every command answers `--help` with its usage line, wherever the flag sits and whatever else is given.
    @Test(arguments: ["create", "index", "search", "suggest", "browse", "stats", "quickstart"])
    func everyCommandHasHelp(command: String) {
        let run = IdxRun([command, "extra", "--help", "--no-such-option"])
        #expect(run.code == .success)
        #expect(run.out.hasPrefix("OVERVIEW: "))
        #expect(run.out.contains("USAGE: idx \(command)"))
        #expect(run.out.contains("-h, --help  "))
        #expect(run.err.isEmpty)
    }

    @Test func createAndStatsHelp() {
        #expect(
            IdxRun(["create", "--help"]).out.contains("USAGE: idx create DIR --schema S.json\n"))
        #expect(IdxRun(["stats", "--help"]).out.contains("USAGE: idx stats DIR [--json]\n"))
        #expect(
            IdxRun(["browse", "--help"]).out.contains(
                "USAGE: idx browse DIR [--facet FIELD]... [--fields A,B] [--limit N] [--popularity FIELD]\n"))
        #expect(
            IdxRun(["quickstart", "--help"]).out.contains("USAGE: idx quickstart [--dir D] [--corpus F] [--schema S]\n")
        )
    }

    @Test(arguments: [
        (["create", "/tmp/x"], "missing --schema S.json"),
        (["create"], "missing DIR"),
        (["search", "/tmp/x"], "missing QUERY"),
        (["search"], "missing DIR"),
        (["search", "/tmp/x", "heat", "wave"], "unexpected argument 'wave'"),
        (["stats", "/tmp/x", "--bogus"], "unknown option '--bogus'"),
        (["stats", "-x", "/tmp/x"], "unknown option '-x'"),
        (["search", "/tmp/x", "heat", "--limit"], "option --limit needs a value (N)"),
        (
            ["search", "/tmp/x", "heat", "--limit", "many"],
            "option --limit needs an integer from 0 to 2147483647 (got 'many')"
        ),
        (
            ["search", "/tmp/x", "heat", "--limit", "9223372036854775807"],
            "option --limit needs an integer from 0 to 2147483647 (got '9223372036854775807')"
        ),
        (
            ["search", "/tmp/x", "heat", "--offset=-1"],
            "option --offset needs an integer from 0 to 2147483647 (got '-1')"
        ),
        (["search", "/tmp/x", "heat", "--json=yes"], "option --json takes no value"),
        (
            ["index", "/tmp/x", "f.jsonl", "--commit-every", "0"],
            "option --commit-every needs an integer from 1 to 2147483647 (got '0')"
        ),
        (
            ["index", "/tmp/x", "f.jsonl", "--memory-mb=0"],
            "option --memory-mb needs an integer from 1 to 4000 (got '0')"
        ),
        (
            ["index", "/tmp/x", "f.jsonl", "--memory-mb", "4001"],
            "option --memory-mb needs an integer from 1 to 4000 (got '4001')"
        ),
        (
            ["index", "/tmp/x", "f.jsonl", "--threads", "65"],
            "option --threads needs an integer from 1 to 64 (got '65')"
        ),
        (["quickstart", "extra"], "unexpected argument 'extra'"),
    ])
    func usageErrorsExit64(arguments: [String], message: String) {
        let run = IdxRun(arguments)
        #expect(run.code == .usage)
        #expect(run.out.isEmpty)
        let command = arguments.first ?? ""
        let usage = run.err.split(separator: "\n").dropFirst().first ?? ""
        #expect(run.err.hasPrefix("idx \(command): \(message)\n"))
        #expect(usage.hasPrefix("USAGE: idx \(command)"))
        #expect(run.err.hasSuffix("Run 'idx \(command) --help' for more.\n"))
    }

    @Test func exitCodesAreSysexitsNumbers() {
        #expect(ExitCode.success.rawValue == 0)
        #expect(ExitCode.failure.rawValue == 1)
        #expect(ExitCode.usage.rawValue == 64)
    }
}
