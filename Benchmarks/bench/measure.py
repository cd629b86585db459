"""Measurement helpers shared by the Python engines (tantivy, FTS5) and the comparison."""
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


def time_queries(queries, top10, count, repeat):
    """One warm-up pass then `repeat` passes, each query's top-10 then its count back to back (as loupe-bench).

    `queries` are result dicts whose "_run" holds whatever top10/count need; results land in the dicts.
    top10 returns (ids, scores, hit count or None when it does not count)."""
    top_times = [[] for _ in queries]
    count_times = [[] for _ in queries]
    clock = time.perf_counter_ns
    for rep in range(repeat + 1):
        for i, q in enumerate(queries):
            if q["status"] != "ok":
                continue
            try:
                start = clock()
                ids, scores, hits = top10(q["_run"])
                middle = clock()
                hits_only = count(q["_run"])
                end = clock()
            except BaseException as e:  # pyo3 panics derive from BaseException
                if isinstance(e, (KeyboardInterrupt, SystemExit)):
                    raise
                q.update(status="error", error=f"{type(e).__name__}: {e}")
                continue
            if rep == 0:
                q.update(top10=ids, scores=scores, count=hits_only if hits is None else hits)
            else:
                top_times[i].append((middle - start) / 1000)
                count_times[i].append((end - middle) / 1000)
    for q, tops, counts in zip(queries, top_times, count_times):
        q.pop("_run", None)
        if q["status"] == "ok" and tops:
            q.update(latency_us_median=round(median(tops), 2), latency_us_min=round(min(tops), 2),
                     repeats=len(tops), count_latency_us_median=round(median(counts), 2))
    return queries


def query_record(cls, text, status="ok", error=None):
    """One entry of an engine's "queries" list, before timing fills it in."""
    return {"query": text, "class": cls, "status": status, "error": error, "latency_us_median": None,
            "latency_us_min": None, "repeats": 0, "count": None, "top10": [], "scores": [],
            "count_latency_us_median": None}


def class_summary(queries):
    """Per class, over the answered queries: n, p50/p90 of per-query medians, mean hit count, count-only p50."""
    groups = {}
    for q in queries:
        if q["status"] == "ok" and q.get("latency_us_median") is not None:
            groups.setdefault(q["class"], []).append(q)
    return {cls: {"n": len(qs), "latency_us_median": median([q["latency_us_median"] for q in qs]),
                  "latency_us_p90": p90([q["latency_us_median"] for q in qs]),
                  "mean_count": statistics.fmean(q["count"] for q in qs),
                  "count_latency_us_median": median([q["count_latency_us_median"] for q in qs])}
            for cls, qs in groups.items()}


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

