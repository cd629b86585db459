"""Measurement helpers shared by the Python engines (tantivy, FTS5), the Lucene runner's results and the comparison."""
import math
import os
import resource
import statistics
import time


def peak_rss_mb():
    """Peak resident set of this whole Python process (ru_maxrss is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def dir_size(path):
    """Bytes of every file under `path`: the index size on disk."""
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)


def median(values):
    """Median, or None for no values (a class nobody answered)."""
    return statistics.median(values) if values else None


def p90(values):
    """Nearest-rank p90, the rule loupe-bench uses, so small classes compare like for like."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(len(ordered) * 0.9) - 1)]


# The per-query keys of the three timed rows, in the order each query runs them.
TOP10 = "latency_us_median"  # top-10 with an exact hit count, then the id field of each hit
PRUNED = "top10_pruned_nofetch_latency_us_median"  # top-10 only: no exact count, no stored fields
COUNT = "count_latency_us_median"  # the hit count only
MODES = (TOP10, PRUNED, COUNT)
FLOOR_KEYS = {TOP10: "top10", PRUNED: "pruned", COUNT: "count"}  # an engine's "floor_us" object
FLOOR_SAMPLES = 100  # runs of the floor query per mode; it takes microseconds


def time_queries(queries, top10, pruned, count, repeat):
    """One warm-up pass then `repeat` passes, each query's three modes back to back (as loupe-bench).

    `queries` are result dicts whose "_run" holds whatever the modes need; results land in the dicts. top10
    returns (ids, scores, hit count or None when it does not count); pruned and count are only timed, except that
    count's answer stands in for a top10 that does not count."""
    modes = ((TOP10, top10), (PRUNED, pruned), (COUNT, count))
    times = [{key: [] for key in MODES} for _ in queries]
    clock = time.perf_counter_ns
    for rep in range(repeat + 1):
        for q, samples in zip(queries, times):
            if q["status"] != "ok":
                continue
            answers = {}
            try:
                for key, call in modes:
                    start = clock()
                    answers[key] = call(q["_run"])
                    samples[key].append((clock() - start) / 1000)
            except BaseException as e:  # pyo3 panics derive from BaseException
                if isinstance(e, (KeyboardInterrupt, SystemExit)):
                    raise
                q.update(status="error", error=f"{type(e).__name__}: {e}")
                continue
            if rep == 0:
                ids, scores, hits = answers[TOP10]
                q.update(top10=ids, scores=scores, count=answers[COUNT] if hits is None else hits)
                for values in samples.values():
                    values.clear()
    for q, samples in zip(queries, times):
        q.pop("_run", None)
        if q["status"] == "ok" and samples[TOP10]:
            q.update(latency_us_min=round(min(samples[TOP10]), 2), repeats=len(samples[TOP10]))
            q.update({key: round(median(values), 2) for key, values in samples.items()})
    return queries


def floor_times(run, top10, pruned, count):
    """The binding floor: each mode's median µs over FLOOR_SAMPLES runs of the absent-term query `run`, after one
    untimed run, the modes interleaved as in time_queries."""
    modes = ((TOP10, top10), (PRUNED, pruned), (COUNT, count))
    samples = {key: [] for key in MODES}
    clock = time.perf_counter_ns
    for rep in range(FLOOR_SAMPLES + 1):
        for key, call in modes:
            start = clock()
            call(run)
            if rep:
                samples[key].append((clock() - start) / 1000)
    return {FLOOR_KEYS[key]: round(median(values), 2) for key, values in samples.items()}


def query_record(cls, text, status="ok", error=None):
    """One entry of an engine's "queries" list, before timing fills it in."""
    return {"query": text, "class": cls, "status": status, "error": error, TOP10: None, "latency_us_min": None,
            "repeats": 0, "count": None, "top10": [], "scores": [], PRUNED: None, COUNT: None}


def class_summary(queries):
    """Per class, over the answered queries: n, mean hit count, and p50/p90 of the per-query medians of each
    timed row (None for a row the engine did not time)."""
    groups = {}
    for q in queries:
        if q["status"] == "ok" and q.get(TOP10) is not None:
            groups.setdefault(q["class"], []).append(q)
    out = {}
    for cls, qs in groups.items():
        summary = {"n": len(qs), "mean_count": statistics.fmean(q["count"] for q in qs)}
        for key in MODES:
            values = [q[key] for q in qs if q.get(key) is not None]
            summary[key] = median(values)
            summary[key.replace("_median", "_p90")] = p90(values)
        out[cls] = summary
    return out


def best_of_rounds(records):
    """One engine's record over several rounds of the same run: per query and timed row, the lowest of the rounds'
    medians (and of their minimums); the fastest round's indexing and open figures; per row, the lowest floor.
    Shared machines slow one stretch of minutes down, and so one engine's round only: keeping each engine's best
    round per query gives every engine the same protection from it."""
    best = dict(records[0], queries=[dict(q) for q in records[0]["queries"]])
    for other in records[1:]:
        for mine, theirs in zip(best["queries"], other["queries"]):
            if mine["query"] != theirs["query"]:
                raise ValueError(f"rounds ran different queries: {mine['query']!r} and {theirs['query']!r}")
            for key in (*MODES, "latency_us_min"):
                if theirs.get(key) is not None and (mine.get(key) is None or theirs[key] < mine[key]):
                    mine[key] = theirs[key]
        if other["index"]["docs_per_s"] > best["index"]["docs_per_s"]:
            best["index"] = other["index"]
        if other["open"]["median_ms"] < best["open"]["median_ms"]:
            best["open"] = other["open"]
        floors = best.get("floor_us") or {}
        for key, value in (other.get("floor_us") or {}).items():
            floors[key] = min(value, floors.get(key, value))
        best["floor_us"] = floors
    best["classes"] = class_summary(best["queries"])
    best["rounds"] = len(records)
    return best


def open_times(open_once, repeat):
    """Times `open_once` as loupe-bench times its opens: max(5, min(repeat, 20)) runs; first and median ms."""
    times = []
    for _ in range(max(5, min(repeat, 20))):
        start = time.perf_counter()
        open_once()
        times.append((time.perf_counter() - start) * 1000)
    return {"first_ms": round(times[0], 3), "median_ms": round(median(times), 3), "repeat": len(times)}


def index_record(docs, failed, input_bytes, seconds, path, segments):
    """An engine's "index" entry; peak RSS is read now, right after indexing, before any query runs."""
    return {"docs": docs, "docs_failed": failed, "input_bytes": input_bytes, "index_s": round(seconds, 4),
            "docs_per_s": round(docs / seconds, 1), "mb_per_s": round(input_bytes / 1e6 / seconds, 3),
            "size_bytes": dir_size(path), "peak_rss_mb": round(peak_rss_mb(), 1), "segments": segments}
