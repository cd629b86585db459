#!/usr/bin/env python3
"""Growth curves (issue #13): Loupe and tantivy 0.27 (PyPI) on the synthetic corpus at N = 10^4, 10^5, 10^6…

    python3 Benchmarks/growth.py [--docs 10000,100000,1000000] [--seed 13] [--repeat 10] [--memory-mb 50]
        [--stored id|all] [--corpus PATH] [--out Docs/benchmarks/growth.json] [--chart Docs/benchmarks/growth.png]
        [--extend PATH] [--no-build] [--keep]

The corpus is Benchmarks/corpora/synthetic/generate.py's, written once for the largest N into the working folder
(or --corpus, an existing one written with the same --seed): its first N documents are exactly what
`generate.py --docs N` writes, so every point reads the same file up to document N.

Queries come from the corpus, deterministically: the document frequencies of words and collocations (title or
body) over its first min(largest N, 100,000) documents; for each band of BANDS (0.1%, 1%, 10% of the documents)
the words whose share of documents is nearest the band make QUERIES_PER_CELL term queries (`w`), and2 queries
(`+a +b`, both words at the band) and or2 queries (`a b`), and the collocations nearest it phrase queries
(`"a b"`). The corpus is i.i.d., so a band holds the same share of every N: one query list serves all points.

Per N, both engines read the same plain JSONL file of the first N documents (a copy in the working folder unless
the corpus is exactly that), with one indexing thread and the same --memory-mb budget, every step in its own
process (so that each peak RSS is that step's own):
  indexing   Loupe: `idx index DIR FILE --schema S --memory-mb M`, timed by idx from the first line read to the end
             of the commit and of the merges it started (`waitForMerges`, which publishes them); tantivy: the
             worker below, from writer creation to commit + wait_merging_threads. JSON parsing is included in both.
             Peak RSS (wait4's ru_maxrss for idx; tantivy's own, read right after indexing), peak RssAnon (anonymous
             memory, not the mmap'd index pages; sampled every 50 ms), index size on disk and segment count.
             Loupe's size is the files of its latest commit (`idx optimize --json`'s "before" bytes): its folder
             also keeps the previous commit's until the next commit (recorded as folder_bytes); tantivy's is its
             folder, from which it removes merged-away files at once;
  optimize   Loupe: `idx optimize DIR --json` (merge every segment into one), its own time, its process's peak RSS
             and RssAnon. tantivy-py 0.27 exposes no merge call, so tantivy has no optimize row;
  open       median of max(5, min(repeat, 20)) fresh opens with a searcher (Loupe also after the optimize);
  queries    per query the median of --repeat passes (after one warm-up) of a top-10 with an exact count and the id
             field of each hit, as compare.py's "top-10"; per class and band, the p50 of those medians. Loupe
             (`loupe-bench --reuse-index`) runs them on the index as built and again after the optimize.
Each point runs once, Loupe then tantivy: the machine's noise falls into the figures (see Docs/BENCHMARKS.md).

--extend PATH adds larger (or re-run) points to an earlier results file measured with the same settings and
queries. Writes the results JSON (--out), a markdown table on stdout (and beside the JSON, .md) and a log-log PNG
chart (--chart). The first run creates the virtualenv compare.py uses (env LOUPE_BENCH_VENV, default
/tmp/loupe-bench-venv) with tantivy==0.27.0 and matplotlib, then re-runs itself inside it.
"""
import argparse
import datetime
import importlib.metadata
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ inside the repository
HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_DIR = os.path.dirname(HERE)
SYNTHETIC = os.path.join(HERE, "corpora", "synthetic")
sys.path.insert(0, SYNTHETIC)
from bench.inputs import corpus_lines, load_schema, run_schema, write_schema  # noqa: E402
from bench.measure import dir_size, median  # noqa: E402
from bench.venv import ensure_venv  # noqa: E402
from generate import WORD_LIST, Generator, document_frequencies, load_words  # noqa: E402

BANDS = (0.001, 0.01, 0.1)
QUERIES_PER_CELL = 5
CLASSES = ("term", "and2", "or2", "phrase")
SAMPLE_DOCS = 100_000
ENGINES = ("loupe", "tantivy")


# ---------------------------------------------------------------- measuring a child process

def rss_anon_kb(pid):
    """The process's current RssAnon in KiB (anonymous memory: not the mmap'd index pages), or None once gone."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def run_measured(command, stdout=None):
    """Runs `command` (its stderr kept in a file, shown when it fails); returns (wall seconds, peak RSS MB from
    wait4's ru_maxrss, peak RssAnon MB sampled every 50 ms). Raises CalledProcessError when it fails."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=stdout, stderr=errors, cwd=PACKAGE_DIR)
        peak = [0]
        done = threading.Event()

        def sample():
            while not done.wait(0.05):
                kb = rss_anon_kb(child.pid)
                if kb is not None:
                    peak[0] = max(peak[0], kb)
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        done.set()
        sampler.join()
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            errors.seek(0)
            sys.stderr.write(errors.read().decode("utf-8", "replace")[-4000:])
            raise subprocess.CalledProcessError(child.returncode, command)
    return seconds, round(usage.ru_maxrss / 1024, 1), round(peak[0] / 1024, 1)


# ---------------------------------------------------------------- queries

def nearest(counts, share, docs, count, exclude=()):
    """The `count` keys of `counts` whose share of `docs` is nearest `share` (by ratio; ties by key)."""
    def distance(item):
        ratio = item[1] / docs / share
        return (max(ratio, 1 / ratio), item[0])
    ranked = sorted(((k, v) for k, v in counts.items() if k not in exclude and v > 0), key=distance)
    return [k for k, _ in ranked[:count]]


def make_queries(corpus, seed, sample_docs):
    """[(class, query, band)], drawn from the document frequencies of the corpus's first `sample_docs` documents
    (see the header); the collocation candidates are generate.py's for `seed`."""
    sampled = [0]

    def docs():
        for line in corpus_lines(corpus, sample_docs):
            sampled[0] += 1
            yield json.loads(line)
    collocations = Generator(load_words(WORD_LIST), seed).collocations
    words, pairs = document_frequencies(docs(), collocations)
    sampled = sampled[0]
    queries = []
    for band in BANDS:
        label = f"{band * 100:g}%"
        chosen = nearest(words, band, sampled, 5 * QUERIES_PER_CELL)
        terms, pair_words = chosen[:QUERIES_PER_CELL], chosen[QUERIES_PER_CELL:]
        queries += [("term", w, label) for w in terms]
        and_words, or_words = pair_words[:2 * QUERIES_PER_CELL], pair_words[2 * QUERIES_PER_CELL:]
        queries += [("and2", f"+{a} +{b}", label) for a, b in zip(and_words[::2], and_words[1::2])]
        queries += [("or2", f"{a} {b}", label) for a, b in zip(or_words[::2], or_words[1::2])]
        queries += [("phrase", f'"{p}"', label) for p in nearest(pairs, band, sampled, QUERIES_PER_CELL)]
    return queries, sampled, {w: words[w] for _, q, _ in queries for w in q.replace("+", "").strip('"').split()}


# ---------------------------------------------------------------- engines

def summarize(queries, records, key="latency_us_median"):
    """Per "class@band": n, mean hit count and the p50 (median) of the per-query medians of `key`."""
    cells = {}
    for (cls, _, band), record in zip(queries, records):
        if record.get("status") == "ok" and record.get(key) is not None:
            cells.setdefault(f"{cls}@{band}", []).append(record)
    return {cell: {"n": len(rs), "mean_count": round(sum(r["count"] for r in rs) / len(rs), 1),
                   "p50_us": round(median([r[key] for r in rs]), 2)} for cell, rs in cells.items()}


def slim(records):
    """The per-query fields worth keeping in the results file (no top-10 ids or scores)."""
    return [{k: r.get(k) for k in ("query", "class", "status", "count", "latency_us_median")} for r in records]


def loupe_queries(args, bin_dir, corpus, index_dir, out):
    """loupe-bench --reuse-index on the index in `index_dir`: its open times and the query list, timed."""
    run_measured([os.path.join(bin_dir, "loupe-bench"), "--corpus", corpus, "--schema", args.run_schema,
                  "--queries", args.queries_path, "--out", out, "--repeat", str(args.repeat), "--index-dir",
                  index_dir, "--reuse-index"], subprocess.DEVNULL)
    with open(out) as fh:
        return json.load(fh)["engines"]["loupe"]


INDEXED = re.compile(r"indexed (\d+) documents in ([\d,.]+) s")


def run_loupe(args, bin_dir, corpus, docs, workdir, queries):
    """Loupe at one point: `idx index` (which commits, then waits for the merges the commit started and publishes
    them, as tantivy's worker waits for its merge threads), loupe-bench --reuse-index (open, queries), `idx
    optimize`, loupe-bench --reuse-index again; each its own process."""
    index_dir = os.path.join(workdir, "index")
    idx = os.path.join(bin_dir, "idx")
    summary = os.path.join(workdir, "index.txt")
    with open(summary, "w") as fh:
        wall, rss, anon = run_measured([idx, "index", index_dir, corpus, "--schema", args.run_schema,
                                        "--memory-mb", str(args.memory_mb)], fh)
    with open(summary) as fh:
        found = INDEXED.search(fh.read())
    if not found or int(found.group(1)) != docs:
        raise ValueError(f"idx index did not report {docs} documents indexed (see {summary})")
    seconds = float(found.group(2).replace(",", ""))
    folder = dir_size(index_dir)
    built = loupe_queries(args, bin_dir, corpus, index_dir, os.path.join(workdir, "built.json"))
    optimize_out = os.path.join(workdir, "optimize.json")
    with open(optimize_out, "w") as fh:
        _, optimize_rss, optimize_anon = run_measured([idx, "optimize", index_dir, "--json"], fh)
    with open(optimize_out) as fh:
        optimized = json.load(fh)
    after = loupe_queries(args, bin_dir, corpus, index_dir, os.path.join(workdir, "optimized.json"))
    return {"index": {"docs": docs, "index_s": seconds, "process_s": round(wall, 3),
                      "docs_per_s": round(docs / seconds, 1), "peak_rss_mb": rss,
                      "peak_rss_anon_mb_sampled": anon, "size_bytes": optimized["before"]["bytes"],
                      "folder_bytes": folder,
                      "segments": optimized["before"]["segments"]},
            "open": built["open"],
            "optimize": {"seconds": float(optimized["seconds"]), "peak_rss_mb": optimize_rss,
                         "peak_rss_anon_mb_sampled": optimize_anon, "before": optimized["before"],
                         "after": optimized["after"]},
            "open_optimized": after["open"], "size_optimized_bytes": optimized["after"]["bytes"],
            "queries": slim(built["queries"]), "cells": summarize(queries, built["queries"]),
            "queries_optimized": slim(after["queries"]), "cells_optimized": summarize(queries, after["queries"]),
            "config": {"memory_budget_mb": args.memory_mb, "threads": 1,
                       "timed": "idx index: first line read → commit + waitForMerges (its own clock)",
                       "peak_rss": "idx index process (wait4 ru_maxrss); RssAnon sampled every 50 ms"}}


def tantivy_worker(mode, job):
    """One step of tantivy in this (child) process: "index" indexes the job's corpus with bench/tantivy_run.py's
    build_index (one writer thread, the budget, add_json per line, commit, wait_merging_threads) and times opening it;
    "queries" times the query list on it. Two processes, so that indexing's peak memory is its own."""
    import tantivy
    from bench.measure import peak_rss_mb
    from bench.tantivy_run import build_index, timed_queries
    path = os.path.join(job["workdir"], "tantivy")
    if mode == "queries":
        index = tantivy.Index.open(path)
        index.reload()
        return {"queries": timed_queries(index, index.searcher(), job), "peak_rss_mb": round(peak_rss_mb(), 1)}
    _, _, indexed, opened = build_index(dict(job, threads=1))
    return {"index": indexed, "open": opened,
            "version": importlib.metadata.version("tantivy")}


def run_tantivy(args, corpus, docs, workdir, queries, schema):
    """tantivy at one point: the "index" then the "queries" step of tantivy_worker, each in its own process."""
    job = {"corpus": corpus, "schema": schema, "queries": [[c, q] for c, q, _ in queries], "repeat": args.repeat,
           "memory_mb": args.memory_mb, "workdir": workdir}
    job_path = os.path.join(workdir, "tantivy.job.json")
    with open(job_path, "w") as fh:
        json.dump(job, fh)
    steps = {}
    for mode in ("index", "queries"):
        out = os.path.join(workdir, f"tantivy-{mode}.json")
        steps[mode] = run_measured([sys.executable, os.path.abspath(__file__), "--worker", mode, job_path, out])
        with open(out) as fh:
            steps[mode] += (json.load(fh),)
    _, _, anon, indexed = steps["index"]
    result = steps["queries"][3]
    if indexed["index"]["docs"] != docs:
        raise ValueError(f"tantivy indexed {indexed['index']['docs']} documents, not {docs}")
    return {"index": dict(indexed["index"], peak_rss_anon_mb_sampled=anon), "open": indexed["open"],
            "optimize": None, "queries": slim(result["queries"]), "cells": summarize(queries, result["queries"]),
            "version": indexed["version"],
            "config": {"heap_size_bytes": args.memory_mb * 1_000_000, "num_threads": 1,
                       "timed": "writer creation → commit + wait_merging_threads",
                       "peak_rss": "indexing worker's ru_maxrss right after indexing; RssAnon sampled every 50 ms"}}


# ---------------------------------------------------------------- report

def fmt(value, places=0):
    return "—" if value is None else f"{value:,.{places}f}"


def tables(results):
    """The markdown tables: indexing, size, optimize and open per point; then top-10 p50 per class and band."""
    rows = ["| docs | engine | docs/s | peak RSS MB | RssAnon MB | segments | size MB | optimize s | "
            "optimize RSS MB (anon) | open ms (optimized) |", "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for point in results["points"]:
        for name in ENGINES:
            e = point.get(name)
            if not e:
                continue
            i, o = e["index"], e.get("optimize")
            opt = (fmt(o["seconds"], 2), f"{fmt(o['peak_rss_mb'])} ({fmt(o['peak_rss_anon_mb_sampled'])})") if o \
                else ("—", "—")
            opened = fmt(e["open"]["median_ms"], 2)
            if e.get("open_optimized"):
                opened += f" ({fmt(e['open_optimized']['median_ms'], 2)})"
            rows.append(f"| {point['docs']:,} | {name} | {fmt(i['docs_per_s'])} | {fmt(i['peak_rss_mb'])} | "
                        f"{fmt(i['peak_rss_anon_mb_sampled'])} | {i['segments']} | {fmt(i['size_bytes'] / 1e6, 1)} | "
                        f"{opt[0]} | {opt[1]} | {opened} |")
    rows += ["", "| docs | query | mean hits | Loupe µs | Loupe optimized µs | tantivy µs | Loupe / tantivy |",
             "|---:|---|---:|---:|---:|---:|---:|"]
    for point in results["points"]:
        loupe, tantivy = point.get("loupe") or {}, point.get("tantivy") or {}
        for band in BANDS:
            for cls in CLASSES:
                cell = f"{cls}@{band * 100:g}%"
                lc = (loupe.get("cells") or {}).get(cell) or {}
                lo = (loupe.get("cells_optimized") or {}).get(cell) or {}
                tc = (tantivy.get("cells") or {}).get(cell) or {}
                ratio = lc["p50_us"] / tc["p50_us"] if lc and tc else None
                hits = (lc or tc).get("mean_count")
                rows.append(f"| {point['docs']:,} | {cell} | {fmt(hits)} | {fmt(lc.get('p50_us'), 1)} | "
                            f"{fmt(lo.get('p50_us'), 1)} | {fmt(tc.get('p50_us'), 1)} | "
                            f"{'—' if ratio is None else f'{ratio:.2f}×'} |")
    agree = [f"{p['docs']:,}: {p['hits_agree'][0]} of {p['hits_agree'][1]}" for p in results["points"]
             if p.get("hits_agree")]
    if agree:
        rows += ["", "Queries whose hit counts Loupe and tantivy agree on: " + "; ".join(agree) + "."]
    return "\n".join(rows)


def draw_chart(path, results):
    """Log-log panels against N: docs/s, peak RSS, index size, open time, and top-10 p50 per class (one line per
    band; Loupe solid, tantivy dashed)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    points = results["points"]
    ns = [p["docs"] for p in points]
    fig, axes = plt.subplots(2, 4, figsize=(18, 8))
    styles = {"loupe": dict(color="tab:blue", linestyle="-", marker="o"),
              "tantivy": dict(color="tab:orange", linestyle="--", marker="s")}

    def series(engine, pick):
        xs, ys = [], []
        for n, p in zip(ns, points):
            value = pick(p[engine]) if p.get(engine) else None
            if value:
                xs.append(n)
                ys.append(value)
        return xs, ys
    panels = [("indexing docs/s", lambda e: e["index"]["docs_per_s"]),
              ("peak RSS while indexing, MB", lambda e: e["index"]["peak_rss_mb"]),
              ("index size, MB", lambda e: e["index"]["size_bytes"] / 1e6),
              ("open ms (median)", lambda e: e["open"]["median_ms"])]
    for ax, (title, pick) in zip(axes[0], panels):
        for engine in ENGINES:
            ax.plot(*series(engine, pick), label=engine, **styles[engine])
        ax.set_title(title)
    axes[0][1].plot(*series("loupe", lambda e: (e.get("optimize") or {}).get("peak_rss_mb")),
                    label="loupe optimize", color="tab:green", linestyle=":", marker="^")
    band_colors = dict(zip(BANDS, ("tab:green", "tab:blue", "tab:red")))
    for ax, cls in zip(axes[1], CLASSES):
        for band in BANDS:
            cell = f"{cls}@{band * 100:g}%"
            for engine in ENGINES:
                xs, ys = series(engine, lambda e: ((e.get("cells") or {}).get(cell) or {}).get("p50_us"))
                ax.plot(xs, ys, color=band_colors[band], linestyle=styles[engine]["linestyle"],
                        marker=styles[engine]["marker"], label=f"{engine} df {band * 100:g}%")
        ax.set_title(f"{cls}: top-10 p50 µs")
    for ax in axes.flat:
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("documents")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(f"Loupe vs tantivy {results['run']['tantivy']} on the synthetic corpus (one thread, "
                 f"{results['run']['memory_mb']} MB budget, {results['run']['date']}; each point run once)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ---------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", default="10000,100000,1000000", help="comma-separated N (default 10^4,10^5,10^6)")
    ap.add_argument("--seed", type=int, default=13, help="generate.py's seed (default 13)")
    ap.add_argument("--corpus", help="an existing generate.py corpus (.jsonl or .jsonl.gz, written with the same "
                                     "--seed) of at least the largest N documents")
    ap.add_argument("--repeat", type=int, default=10, help="timed passes over the query list (default 10)")
    ap.add_argument("--memory-mb", type=int, default=50, help="indexing memory budget of both engines (default 50)")
    ap.add_argument("--stored", choices=("id", "all"), default="id", help="stored fields, as compare.py (id)")
    ap.add_argument("--out", default=os.path.join(PACKAGE_DIR, "Docs", "benchmarks", "growth.json"))
    ap.add_argument("--chart", default=os.path.join(PACKAGE_DIR, "Docs", "benchmarks", "growth.png"))
    ap.add_argument("--engines", default=",".join(ENGINES), help="comma-separated subset of loupe,tantivy")
    ap.add_argument("--extend", metavar="PATH",
                    help="add this run's points to the results file PATH (same seed, budget, stored, repeat and "
                         "queries), replacing any of the same N, and write the whole to --out")
    ap.add_argument("--no-build", action="store_true", help="use the release idx and loupe-bench as they are")
    ap.add_argument("--keep", action="store_true",
                    help="keep the working folder (the corpus; each index is deleted after its step)")
    args = ap.parse_args(argv)
    try:
        args.docs = sorted({int(n.replace("_", "")) for n in args.docs.split(",") if n.strip()})
    except ValueError:
        ap.error("--docs needs comma-separated numbers")
    args.engines = [e for e in args.engines.split(",") if e]
    if not args.docs or args.docs[0] < 1 or args.repeat < 1 or set(args.engines) - set(ENGINES):
        ap.error("--docs and --repeat need positive numbers, --engines a subset of loupe,tantivy")
    return args


def prefix(corpus, docs, workdir):
    """A plain JSONL file of the corpus's first `docs` documents, which both engines read whole: the corpus itself
    when it is plain and holds exactly that many, else a copy in `workdir`. Exits when the corpus is shorter."""
    path = os.path.join(workdir, f"first-{docs}.jsonl")
    written = 0
    with open(path, "wb") as fh:
        for line in corpus_lines(corpus, docs + 1):
            if written == docs:
                written += 1
                break
            fh.write(line)
            written += 1
    if written < docs:
        sys.exit(f"growth: {corpus} holds {written} documents, fewer than {docs}")
    if written == docs and not corpus.endswith(".gz"):
        os.unlink(path)
        return corpus
    return path


def extended(path, fresh):
    """The results file at `path`, to which this run adds (or in which it replaces) points: only when it ran with
    the same seed, budget, stored fields, repeat and queries, so that every point measures the same thing."""
    with open(path) as fh:
        results = json.load(fh)
    same = ("seed", "memory_mb", "stored", "repeat", "queries", "tantivy")
    differing = [key for key in same if results["run"].get(key) != fresh["run"][key]]
    if differing:
        sys.exit(f"growth: {path} ran with another {', '.join(differing)}; cannot add points to it")
    results["run"].setdefault("extended", []).append(
        {"command": fresh["run"]["command"], "date": fresh["run"]["date"]})
    return results


def main(argv):
    args = parse_args(argv)
    workdir = tempfile.mkdtemp(prefix="loupe-growth-")
    bin_dir = None
    if "loupe" in args.engines:
        for product in () if args.no_build else ("idx", "loupe-bench"):  # one --product per build: the last wins
            subprocess.check_call(["swift", "build", "-c", "release", "--product", product], cwd=PACKAGE_DIR,
                                  stdout=sys.stderr)
        bin_dir = subprocess.check_output(["swift", "build", "-c", "release", "--show-bin-path"],
                                          cwd=PACKAGE_DIR, text=True).strip()
    corpus = args.corpus and os.path.abspath(args.corpus)
    generation_s = None
    if not corpus:
        corpus = os.path.join(workdir, "synthetic.jsonl")
        start = time.perf_counter()
        subprocess.check_call([sys.executable, os.path.join(SYNTHETIC, "generate.py"), "--docs",
                               str(args.docs[-1]), "--seed", str(args.seed), "-o", corpus])
        generation_s = round(time.perf_counter() - start, 1)
    schema = run_schema(load_schema(os.path.join(SYNTHETIC, "schema.json")), args.stored)
    args.run_schema = os.path.join(workdir, "schema.json")
    write_schema(schema, args.run_schema)
    queries, sampled, frequencies = make_queries(corpus, args.seed, min(SAMPLE_DOCS, args.docs[-1]))
    args.queries_path = os.path.join(workdir, "queries.tsv")
    with open(args.queries_path, "w", encoding="utf-8") as fh:
        fh.writelines(f"{c}\t{q}\n" for c, q, _ in queries)
    results = {"format": "loupe-growth/1", "run": {
        "date": datetime.date.today().isoformat(), "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
        "command": "python3 Benchmarks/growth.py " + " ".join(argv), "seed": args.seed, "repeat": args.repeat,
        "memory_mb": args.memory_mb, "stored": args.stored, "python": platform.python_version(),
        "tantivy": importlib.metadata.version("tantivy"), "corpus_generation_s": generation_s,
        "query_sample_docs": sampled, "bands": [f"{b * 100:g}%" for b in BANDS],
        "queries": [{"class": c, "query": q, "band": b} for c, q, b in queries],
        "sample_document_frequencies": frequencies}, "points": []}
    if args.extend:
        results = extended(args.extend, results)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    try:
        for docs in args.docs:
            point = {"docs": docs, "measured": datetime.datetime.now(datetime.timezone.utc).isoformat("T", "seconds")}
            results["points"] = sorted([p for p in results["points"] if p["docs"] != docs] + [point],
                                       key=lambda p: p["docs"])
            source = prefix(corpus, docs, workdir)
            for engine in args.engines:
                print(f"growth: {engine}, {docs:,} documents…", file=sys.stderr, flush=True)
                folder = os.path.join(workdir, f"{engine}-{docs}")
                os.makedirs(folder)
                try:
                    point[engine] = (run_loupe(args, bin_dir, source, docs, folder, queries) if engine == "loupe"
                                     else run_tantivy(args, source, docs, folder, queries, schema))
                except (subprocess.CalledProcessError, OSError, KeyError, ValueError) as e:
                    print(f"growth: {engine} at {docs:,} failed: {e}", file=sys.stderr)
                    point[engine] = None
                shutil.rmtree(folder, ignore_errors=True)  # the indexes: disk is shared
                if engine == args.engines[-1] and all(point.get(e) for e in ENGINES):
                    pairs = list(zip(point["loupe"]["queries"], point["tantivy"]["queries"]))
                    point["hits_agree"] = [sum(a["count"] == b["count"] for a, b in pairs), len(pairs)]
                with open(args.out, "w") as fh:  # after every step, so an interrupted run keeps what it measured
                    json.dump(results, fh, indent=1, ensure_ascii=False)
            if source != corpus:
                os.unlink(source)
    finally:
        if args.keep:
            print(f"growth: kept {workdir}", file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    table = tables(results)
    with open(os.path.splitext(args.out)[0] + ".md", "w", encoding="utf-8") as fh:
        fh.write(table + "\n")
    print(table)
    draw_chart(args.chart, results)
    print(f"\nwrote {args.out}, its .md table and {args.chart}", file=sys.stderr)
    return 1 if any(p.get(e) is None for p in results["points"] for e in args.engines) else 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--worker":
        with open(sys.argv[3]) as job_fh:
            worker_result = tantivy_worker(sys.argv[2], json.load(job_fh))
        with open(sys.argv[4], "w") as result_fh:
            json.dump(worker_result, result_fh, ensure_ascii=False)
        sys.exit(0)
    ensure_venv("growth")
    sys.exit(main(sys.argv[1:]))
