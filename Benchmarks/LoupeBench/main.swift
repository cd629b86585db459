// loupe-bench: indexes a JSONL corpus, times opening the index and every query of a query file, and writes the
// results as "anchor-bench/1" JSON (the shape Benchmarks/compare.py reads for every engine).
//
//   swift run -c release loupe-bench --corpus F.jsonl[.gz] --schema S.json --queries Q.txt --out R.json
//       [--repeat N] [--threads N] [--memory-mb N] [--limit-docs N] [--queries-limit N] [--index-dir D [--reuse-index]]
//       [--upserts U.tsv [--upsert-batch N]] [--aggregations A.json [--agg-repeat N]]
//       [--instant FACET|none [--instant-queries N]] [--suggest-quality FUZZY.txt]
//
// --reuse-index skips indexing and searches the index already in --index-dir (to profile the query phase alone).
//
// What is timed: indexing from writer creation to the end of commit (one writer thread); opening the index and its
// searcher, several times; per query, after one warm-up pass over the whole list, `repeat` interleaved passes of
// three searches back to back: a top-10 BM25 search with an exact count that also fetches the id field of the hits
// (`latency_us_median`), the pruned top-10 without a count or any fetch (`top10_pruned_nofetch_latency_us_median`),
// and a count-only search (`count_latency_us_median`); and, after the passes, the same three for a term absent from the
// index (`floor_us`: the fixed cost of a query). A query the engine rejects, when parsed or when run, is an "error"
// row of the results; the other queries still run.
//
// With --upserts (a file of `id<TAB>json` lines, which compare.py writes so that every engine replays the same
// sequence), an update-heavy phase follows: each line deletes the documents whose id field holds `id` and adds
// `json`, with a commit after every --upsert-batch lines (100); timed from writer creation to the last commit,
// merges included (they run inside commit). Then the query passes run again on the updated index.
//
// With --instant, before the update phase, instantSearch and suggest are timed on every keystroke prefix of the first
// --instant-queries plain-word queries (BenchRun+Instant.swift); with --suggest-quality, suggest's completions of
// half-typed misspellings are checked against the words meant (BenchRun+SuggestQuality.swift).
import Foundation

do {
    let options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
    let report = try BenchRun(options: options).run()
    try report.write(to: options.out)
    report.printSummary()
} catch let error as BenchOptions.UsageError {
    FileHandle.standardError.write(Data("loupe-bench: \(error.message)\n\n\(BenchOptions.usage)\n".utf8))
    exit(64)
} catch {
    FileHandle.standardError.write(Data("loupe-bench: \(error)\n".utf8))
    exit(1)
}
