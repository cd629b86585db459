#!/usr/bin/env python3
"""Loupe vs tantivy 0.27 (PyPI) vs Lucene 9.9.1 (in a JVM) vs SQLite FTS5 on one corpus, schema and query list.

What it measures, per engine: indexing (docs/s, MB/s of JSONL, index size, segments, peak RSS), opening the
index (fresh open + searcher, several times), and per query, after warm-up passes (one; ten for Lucene's JIT),
`--repeat` interleaved passes of three searches back to back: "top-10", a top-10 with an exact hit count that
also fetches the id field of each hit; "pruned", a top-10 without exact count or stored fields, which lets an
engine skip what cannot reach the top 10 (tantivy count=False, Lucene's default totalHitsThreshold; FTS5 cannot,
and runs ORDER BY rank LIMIT 10); "count", the hit count only. Each engine's binding floor is the same three
searches for a term no document holds (`<first default field>:zqxjvkwpq`): its fixed cost per query.
Every engine indexes on ONE thread with the same memory budget, streams the (gzipped) JSONL file itself, and
gets the same schema: compare.py derives it from --schema (either shape) and writes it into its working folder,
with only the schema's id_field stored unless --stored all. tantivy, Lucene and FTS5 each run in a child process
so that their peak RSS is their own.

    Benchmarks/compare.sh --corpus Benchmarks/corpora/movies/movies.jsonl.gz \
        --schema Benchmarks/corpora/movies/schema.json --queries Benchmarks/corpora/movies/queries.classes.tsv \
        [--extra-queries Benchmarks/corpora/movies/regex.tsv] [--fuzzy Benchmarks/corpora/movies/fuzzy.txt] \
        [--repeat 3] [--rounds 2] [--limit-docs 3000] [--engines loupe,tantivy,lucene,fts5] [--stored id] \
        [--aggregations auto|off] [--agg-query Q] [--agg-repeat 20] [--instant FACET|none [--instant-queries 200]]

Query files hold `class<TAB>query` lines (or bare queries, classed by shape), in Loupe's query syntax, which
tantivy runs as is except for two clause forms its parser lacks: `field:word~N` (fuzzy) and `field:/pattern/`
(whole-term regex), which the tantivy worker builds as FuzzyTermQuery / RegexQuery and ORs when a whole query
is made of them. Lucene parses every line with a classic MultiFieldQueryParser set up to read it as tantivy
does (Benchmarks/lucene/TantivyQueryParser.java). FTS5 has no fuzzy, regex or range queries: those rows stay
blank for it.
  --stored id|all       the fields every engine stores: the schema's id_field only (the default: a top-10's
                        fetch is then one small field, as an application fetching ids), or all of them (a run
                        that fetches whole documents). Recorded as run.stored.
  --engines LIST        a comma-separated subset of loupe,tantivy,lucene,fts5 (the default: all four). Lucene's
                        first run downloads pyserini 1.6.0's sdist (~165 MB) for the Lucene jar inside it and
                        keeps the jar in $LOUPE_BENCH_CACHE (default ~/.cache/loupe-bench); it runs on the JDK at
                        $LOUPE_BENCH_JDK (default /usr/lib/jvm/temurin-25-jdk-amd64). Without them Lucene fails
                        with a message and the other engines still run (the exit status is then 1).
  --extra-queries PATH  (repeatable) more such lines, appended as their own classes, e.g. the `regex.tsv` that
                        corpora/make_regex_queries.py writes for each corpus.
  --fuzzy PATH          a corpus's fuzzy.txt (`misspelling<TAB>intended<TAB>edits<TAB>field,field`): one
                        "fuzzy" query per line, `f1:word~e f2:word~e` (transpositions cost 1), plus a ranking
                        block: P@10 (share of the top-10 hits holding the intended word) and MRR (of the first
                        such hit), for Loupe, tantivy and Lucene, judged by tantivy term queries for the intended
                        word. Loupe also gets the suggestion-quality cases (loupe-bench --suggest-quality, untimed):
                        each misspelling cut at 60–80% of the intended word (its edits kept where they fall),
                        passing when `suggest` returns the intended word among 5; shown in the instant block.
  --rounds N            run every engine N times (indexing included), in alternating order (loupe, tantivy,
                        lucene, fts5, then back), and keep per query and timed row each engine's best round, its
                        fastest indexing and open, and its lowest floors: a shared machine's slow minutes then
                        cannot fall on one engine's only round. Recorded as run.rounds.
  --loupe-json PATH     reuse a loupe-bench results file (e.g. a kept run) instead of building and running it.
  --upserts [N]         add the update-heavy phase (issue #5), run after the query passes on the index just built:
                        N upserts (100,000 when N is left out), each deleting one document by the schema's
                        id_field and adding it again with a fixed word ("upserted") appended to its first default
                        text field, in batches of --upsert-batch (100) with a commit after each batch. The
                        documents are drawn with replacement by random.Random(--upsert-seed, default 1) and written
                        once to a file every engine replays, so Loupe and tantivy apply the same sequence. Reports
                        upserts/s (writer creation to the last commit and its merges), commits, segments, index
                        size and live docs after the phase, then the query tables again on the updated indexes,
                        with hit-count agreement. Lucene and FTS5 have no update phase. Without --upserts nothing
                        changes.
  --aggregations auto|off  the facet and aggregation rows of issue #10 (bench/aggregations.py), Loupe and tantivy
                        only: termCounts of `section` and `tags` (tantivy: a terms aggregation, size = limit), a
                        histogram of `installed_size`, a terms aggregation of `section` with an avg sub-aggregation,
                        each over match-all and over --agg-query (default `description:database`). auto (the
                        default) runs the rows whose fields the schema declares fast (debian-packages has them all;
                        other corpora get none); off skips them. --agg-repeat N (20) timed passes; per row the
                        median, the floor (the same call over the absent-term query) and whether the answers agree.
  --instant FACET|none  the instant-search rows of issue #12, Loupe only (tantivy, Lucene and FTS5 have no
                        search-as-you-type or suggestion API): loupe-bench times `instantSearch` (top 10, facet
                        counts of the fast field FACET unless none, 5 suggestions, plus a 150-character snippet of
                        the first default field per hit) and `suggest` (5) on every keystroke prefix of the first
                        --instant-queries (200) plain-word queries; p50/p90/p99/max of each prefix's fastest pass.
                        Snippets read stored text, so it needs --stored all. With --rounds, the first round's.

Writes the merged "anchor-bench/1" JSON (--out), a PNG chart beside it (--chart) and prints the tables: indexing,
then one per timed row (top-10, pruned, count), then the binding floors, then the facet and aggregation rows.
The first run creates a virtualenv (env LOUPE_BENCH_VENV, default /tmp/loupe-bench-venv) with tantivy==0.27.0
and matplotlib, then re-runs itself inside it.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ inside the repository
from bench.aggregations import (SELECTIVE_QUERY, aggregation_rows, best_aggregations,  # noqa: E402
                                write_rows)
from bench.inputs import (STORED_CHOICES, corpus_lines, floor_query, load_fuzzy, load_queries,  # noqa: E402
                          load_schema, run_schema, write_schema)
from bench.lucene_run import LuceneUnavailable, run_lucene  # noqa: E402
from bench.measure import FLOOR_SAMPLES, best_of_rounds  # noqa: E402
from bench.report import ENGINES, draw_chart, report  # noqa: E402
from bench.updates import write_upserts  # noqa: E402
from bench.venv import ensure_venv  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_DIR = os.path.dirname(HERE)


# ---------------------------------------------------------------- engines

def run_loupe(args, queries_path):
    """Builds loupe-bench in release mode and runs it on the same inputs; returns its "loupe" engine record."""
    out = os.path.join(args.workdir, "loupe.json")
    subprocess.check_call(["swift", "build", "-c", "release", "--product", "loupe-bench"], cwd=args.package)
    bin_dir = subprocess.check_output(["swift", "build", "-c", "release", "--show-bin-path"],
                                      cwd=args.package, text=True).strip()
    command = [os.path.join(bin_dir, "loupe-bench"), "--corpus", args.corpus, "--schema", args.run_schema,
               "--queries", queries_path, "--out", out, "--repeat", str(args.repeat),
               "--memory-mb", str(args.memory_mb), "--index-dir", os.path.join(args.workdir, "loupe")]
    if args.threads:
        command += ["--threads", str(args.threads)]
    if args.limit_docs:
        command += ["--limit-docs", str(args.limit_docs)]
    if args.upserts_path:
        command += ["--upserts", args.upserts_path, "--upsert-batch", str(args.upsert_batch)]
    if args.aggregations_path:
        command += ["--aggregations", args.aggregations_path, "--agg-repeat", str(args.agg_repeat)]
    if args.instant:
        command += ["--instant", args.instant, "--instant-queries", str(args.instant_queries)]
    if args.fuzzy:
        command += ["--suggest-quality", args.fuzzy]
    subprocess.check_call(command, cwd=args.package, stdout=sys.stderr)
    return read_loupe_json(out)


def read_loupe_json(path):
    """The "loupe" engine record of a loupe-bench results file (with its binding floor, which loupe-bench may
    write beside the engines)."""
    with open(path) as fh:
        results = json.load(fh)
    record = results["engines"]["loupe"]
    if "floor_us" not in record and "floor_us" in results:
        record["floor_us"] = results["floor_us"]
    return record


def engine_job(engine, args, queries, schema, fuzzy):
    """What a tantivy, FTS5 or Lucene worker is given: the inputs, the run's settings and its working folder."""
    return {"corpus": args.corpus, "schema": schema, "queries": queries, "repeat": args.repeat,
            "limit_docs": args.limit_docs, "memory_mb": args.memory_mb,
            "threads": args.threads or 1, "workdir": args.workdir,
            "floor_query": floor_query(schema), "floor_samples": FLOOR_SAMPLES,
            "judge": [{k: f[k] for k in ("query", "intended", "fields")} for f in fuzzy],
            "upserts": args.upserts_path if engine == "tantivy" else None, "upsert_batch": args.upsert_batch,
            "aggregations": args.aggregation_rows if engine == "tantivy" else None, "agg_repeat": args.agg_repeat}


def run_worker(engine, args, queries, schema, fuzzy):
    """Runs one Python engine in a child process so that its peak RSS is its own."""
    job = engine_job(engine, args, queries, schema, fuzzy)
    job_path = os.path.join(args.workdir, f"{engine}.job.json")
    result_path = os.path.join(args.workdir, f"{engine}.json")
    with open(job_path, "w") as fh:
        json.dump(job, fh)
    subprocess.check_call([sys.executable, os.path.abspath(__file__), "--worker", engine, job_path, result_path])
    with open(result_path) as fh:
        return json.load(fh)


# ---------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True, help="JSONL corpus, optionally gzipped")
    ap.add_argument("--schema", required=True, help="Loupe schema JSON (list or object-keyed fields)")
    ap.add_argument("--queries", required=True, help="one query per line, optionally class<TAB>query")
    ap.add_argument("--extra-queries", action="append", default=[], metavar="PATH",
                    help="more queries in the same format, appended (never cut by --queries-limit); repeatable")
    ap.add_argument("--fuzzy", metavar="PATH",
                    help="fuzzy.txt (misspelling<TAB>intended<TAB>edits<TAB>fields): adds a 'fuzzy' class and "
                         "its ranking figures")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "latest.json"), help="merged results JSON")
    ap.add_argument("--chart", help="PNG path (default: --out with .png)")
    ap.add_argument("--engines", default=",".join(ENGINES), help="comma-separated subset of " + ",".join(ENGINES))
    ap.add_argument("--stored", choices=STORED_CHOICES, default="id",
                    help="fields every engine stores: only the schema's id_field (default), or all of them")
    ap.add_argument("--repeat", type=int, default=10, help="timed passes over the query list")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run every engine this many times, in alternating order, each keeping per query its best "
                         "round (default 1)")
    ap.add_argument("--threads", type=int,
                    help="indexing threads of Loupe and tantivy (default 1; Lucene and FTS5 always use one)")
    ap.add_argument("--memory-mb", type=int, help="indexing memory budget for every engine (default: Loupe's, or 50)")
    ap.add_argument("--limit-docs", type=int, help="index only the first N docs")
    ap.add_argument("--queries-limit", type=int, help="run only the first N queries")
    ap.add_argument("--loupe-json", help="reuse this loupe-bench results file instead of running loupe-bench")
    ap.add_argument("--upserts", type=int, nargs="?", const=100_000, metavar="N",
                    help="add the update-heavy phase: N upserts (default 100000) in batches, then the queries again")
    ap.add_argument("--upsert-batch", type=int, default=100, metavar="N", help="upserts per commit (default 100)")
    ap.add_argument("--upsert-seed", type=int, default=1, help="seed of the upserted documents' picks (default 1)")
    ap.add_argument("--aggregations", choices=("auto", "off"), default="auto",
                    help="the facet and aggregation rows (bench/aggregations.py): auto (default) runs those the "
                         "schema's fast fields allow, for Loupe and tantivy; off skips them")
    ap.add_argument("--agg-query", default=SELECTIVE_QUERY,
                    help=f"the selective query of the aggregation rows (default {SELECTIVE_QUERY!r})")
    ap.add_argument("--agg-repeat", type=int, default=20, metavar="N",
                    help="timed passes over the aggregation rows (default 20)")
    ap.add_argument("--instant", metavar="FACET|none",
                    help="add the instant-search rows (Loupe only), counting facets of the fast field FACET (or none)")
    ap.add_argument("--instant-queries", type=int, default=200, metavar="N",
                    help="plain-word queries whose keystroke prefixes the instant rows time (default 200)")
    ap.add_argument("--package", default=PACKAGE_DIR, help="Swift package holding loupe-bench")
    ap.add_argument("--keep", action="store_true", help="keep the temporary indexes and intermediate JSON")
    args = ap.parse_args(argv)
    args.engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    unknown = set(args.engines) - set(ENGINES)
    if unknown:
        ap.error(f"unknown engine(s): {', '.join(sorted(unknown))}")
    if args.agg_repeat < 1:
        ap.error("--agg-repeat needs a positive number")
    if (args.upserts is not None and args.upserts < 1) or args.upsert_batch < 1:
        ap.error("--upserts and --upsert-batch need a positive number")
    if args.instant and (args.stored != "all" or args.instant_queries < 1):
        ap.error("--instant builds snippets of stored text: it needs --stored all (and a positive --instant-queries)")
    if args.rounds < 1 or (args.rounds > 1 and (args.upserts is not None or args.loupe_json)):
        ap.error("--rounds needs a positive number, and 1 with --upserts or --loupe-json")
    args.corpus, args.schema, args.queries = map(os.path.abspath, (args.corpus, args.schema, args.queries))
    args.fuzzy = args.fuzzy and os.path.abspath(args.fuzzy)
    args.extra_queries = [os.path.abspath(p) for p in args.extra_queries]
    args.chart = args.chart or os.path.splitext(args.out)[0] + ".png"
    return args


def main(argv):
    args = parse_args(argv)
    try:
        schema = run_schema(load_schema(args.schema), args.stored)
    except ValueError as e:
        sys.exit(f"compare: {args.schema}: {e}")
    queries = load_queries(args.queries, args.queries_limit)
    for path in args.extra_queries:
        queries += load_queries(path, None)
    try:
        fuzzy = load_fuzzy(args.fuzzy) if args.fuzzy else []
    except ValueError as e:
        sys.exit(f"compare: {e}")
    queries += [("fuzzy", f["query"]) for f in fuzzy]
    args.workdir = tempfile.mkdtemp(prefix="loupe-compare-")
    args.run_schema = os.path.join(args.workdir, "schema.json")  # the one every engine indexes with
    write_schema(schema, args.run_schema)
    queries_path = os.path.join(args.workdir, "queries.tsv")
    with open(queries_path, "w", encoding="utf-8") as fh:  # the exact list every engine runs
        fh.writelines(f"{c}\t{q}\n" for c, q in queries)
    docs = total = 0
    for line in corpus_lines(args.corpus, args.limit_docs):
        docs, total = docs + 1, total + len(line)
    machine = f"{platform.machine()}, {len(os.sched_getaffinity(0))} CPUs"
    results = {"format": "anchor-bench/1", "corpus": {"path": args.corpus, "docs": docs, "bytes": total},
               "engines": {}, "run": {"date": datetime.date.today().isoformat(), "machine": machine,
                                      "corpus_name": re.sub(r"\.jsonl(\.gz)?$", "", os.path.basename(args.corpus)),
                                      "python": platform.python_version(), "queries": args.queries,
                                      "extra_queries": args.extra_queries, "fuzzy": args.fuzzy,
                                      "repeat": args.repeat, "rounds": args.rounds, "schema": args.schema,
                                      "stored": args.stored,
                                      "floor_query": floor_query(schema)}}
    args.aggregation_rows = aggregation_rows(schema, args.agg_query) if args.aggregations == "auto" else []
    args.aggregations_path = None
    if args.aggregation_rows:
        args.aggregations_path = os.path.join(args.workdir, "aggregations.json")
        write_rows(args.aggregation_rows, args.aggregations_path)
        results["run"]["aggregations"] = {"rows": [r["name"] for r in args.aggregation_rows],
                                          "selective_query": args.agg_query, "repeat": args.agg_repeat,
                                          "engines": [e for e in ("loupe", "tantivy") if e in args.engines]}
    if args.instant:
        results["run"]["instant"] = {"facet": None if args.instant == "none" else args.instant,
                                     "queries": args.instant_queries, "engines": ["loupe"]}
    args.upserts_path = None
    if args.upserts:
        args.upserts_path = os.path.join(args.workdir, "upserts.tsv")
        try:
            plan = write_upserts(args.corpus, args.limit_docs, schema, args.upserts, args.upsert_seed,
                                 args.upserts_path)
        except ValueError as e:
            shutil.rmtree(args.workdir, ignore_errors=True)
            sys.exit(f"compare: {e}")
        results["run"]["updates"] = dict(plan, batch=args.upsert_batch)
    loupe_reused = read_loupe_json(args.loupe_json) if args.loupe_json and "loupe" in args.engines else None
    if args.memory_mb is None:  # every engine gets Loupe's budget
        args.memory_mb = int(((loupe_reused or {}).get("config") or {}).get("memory_budget_mb") or 50)
    failures = []
    rounds = {engine: [] for engine in args.engines}
    for round_index in range(args.rounds):
        # Alternating the order puts each engine early in one round and late in the next.
        for engine in args.engines if round_index % 2 == 0 else args.engines[::-1]:
            if engine in failures:
                continue
            print(f"compare: running {engine}" + (f" (round {round_index + 1} of {args.rounds})" if args.rounds > 1
                                                  else "") + "…", file=sys.stderr, flush=True)
            shutil.rmtree(os.path.join(args.workdir, engine), ignore_errors=True)  # each round indexes afresh
            try:
                if engine == "loupe":
                    record = loupe_reused or run_loupe(args, queries_path)
                elif engine == "lucene":
                    record = run_lucene(engine_job(engine, args, queries, schema, fuzzy))
                else:
                    record = run_worker(engine, args, queries, schema, fuzzy)
                rounds[engine].append(record)
            except (subprocess.CalledProcessError, OSError, KeyError, ValueError, LuceneUnavailable) as e:
                print(f"compare: {engine} failed: {e}", file=sys.stderr)
                failures.append(engine)
    for engine in args.engines:
        if engine not in failures:
            results["engines"][engine] = best_of_rounds(rounds[engine]) if args.rounds > 1 else rounds[engine][0]
            if args.rounds > 1 and all("aggregations" in r for r in rounds[engine]):
                results["engines"][engine]["aggregations"] = best_aggregations(
                    [r["aggregations"] for r in rounds[engine]])
    table, chart = report(results, queries, fuzzy)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump(results, fh, indent=1, ensure_ascii=False)
    print(table)
    if "loupe" in results["engines"] and len(results["engines"]) > 1:
        draw_chart(args.chart, results, chart)
        print(f"\nwrote {args.out} and {args.chart}")
    else:
        print(f"\nwrote {args.out} (no chart: it needs Loupe and another engine)")
    if args.keep:
        print(f"kept {args.workdir}")
    else:
        shutil.rmtree(args.workdir, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--worker":
        _, _, engine_name, job_file, result_file = sys.argv
        with open(job_file) as job_fh:
            worker_job = json.load(job_fh)
        if engine_name == "tantivy":
            from bench.tantivy_run import run_tantivy as run_engine
        else:
            from bench.fts5_run import run_fts5 as run_engine
        worker_result = run_engine(worker_job)
        with open(result_file, "w") as result_fh:
            json.dump(worker_result, result_fh, ensure_ascii=False)
        sys.exit(0)
    ensure_venv("compare")
    sys.exit(main(sys.argv[1:]))
