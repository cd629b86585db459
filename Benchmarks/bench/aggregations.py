"""The facet and aggregation rows (issue #10): the shared request list, the per-engine timing loop, the check that
Loupe's answers equal tantivy's, and best-of-rounds for them.

Each row is one request over one query: `term_counts` (Loupe `searcher.termCounts(field, matching:, limit:)`,
tantivy a `terms` aggregation with `size` = limit) or `aggregate` (the same Elasticsearch-shaped request to
Loupe's `searcher.aggregate(json, matching:)` and tantivy-py's `searcher.aggregate(query, dict)`). Every request
runs over match-all and over SELECTIVE_QUERY. A row is kept only when the run's schema has its fields, fast, so
the rows appear on any corpus that has them (debian-packages) and nowhere else.

Timing, per engine (as measure.time_queries does for searches): the query is built before the clock starts; one
warm-up pass over the list records each answer; then `repeat` interleaved passes; per row the median and minimum
µs. The row's floor is the same request over the absent-term query (`<first default field>:zqxjvkwpq`), FLOOR_SAMPLES
runs after one untimed run: what the call costs before any document is collected (request decoding, per-segment
set-up, building the empty response, and for tantivy-py the Python conversion both ways).
"""
import copy
import json
import math
import time

from .measure import FLOOR_SAMPLES, median

# Matches ~2.9% of debian-packages (1,827 of 63,440 packages hold the word in their description, by Python's
# rough tokenization; the engines' hit count is in each row's "hits"), spread over many sections and tags.
SELECTIVE_QUERY = "description:database"
# installed_size is in KiB, 0 to 5.6 million on debian-packages: 564 buckets over match-all (tantivy's
# min_doc_count defaults to 0, so every bucket between the lowest and the highest value is returned).
HISTOGRAM_INTERVAL = 10_000
FACET_LIMIT = 10

# (name, kind, fast fields it needs (string or numeric), request or (field, limit)).
TEMPLATES = (
    ("termcounts_section", "term_counts", {"section": "string"}, ("section", FACET_LIMIT)),
    ("termcounts_tags", "term_counts", {"tags": "string"}, ("tags", FACET_LIMIT)),
    ("histogram_installed_size", "aggregate", {"installed_size": "numeric"},
     {"h": {"histogram": {"field": "installed_size", "interval": HISTOGRAM_INTERVAL}}}),
    ("terms_section_avg_installed_size", "aggregate", {"section": "string", "installed_size": "numeric"},
     {"t": {"terms": {"field": "section", "size": FACET_LIMIT},
            "aggs": {"a": {"avg": {"field": "installed_size"}}}}}),
)
NUMERIC = ("u64", "i64", "f64", "date")
FLOAT_TOLERANCE = 1e-9  # relative, for metric values (avg): Kahan sums in different segment orders


def has_fast(schema, needs):
    """Whether every field of `needs` is in `schema`, fast, of the wanted kind."""
    fields = {f["name"]: f for f in schema["fields"]}
    for name, kind in needs.items():
        f = fields.get(name)
        if f is None or not f.get("fast"):
            return False
        if (kind == "numeric") != (f["type"] in NUMERIC):
            return False
    return True


def query_field_exists(schema, text):
    """Whether the field a `field:word` query names is a field of the schema (a bare word always searches)."""
    field, colon, _ = text.partition(":")
    return not colon or any(f["name"] == field for f in schema["fields"])


def aggregation_rows(schema, selective=SELECTIVE_QUERY):
    """The rows the run's schema can answer: each template over match-all (query None) and over `selective`.

    Each row is {"name", "kind", "query", "field", "limit", "request", "request_json"}: `request` is the dict
    tantivy-py gets (for term_counts the equivalent terms aggregation), `request_json` the string Loupe gets."""
    queries = [None] + ([selective] if selective and query_field_exists(schema, selective) else [])
    rows = []
    for name, kind, needs, spec in TEMPLATES:
        if not has_fast(schema, needs):
            continue
        for query in queries:
            row = {"name": name + ("_all" if query is None else "_selective"), "kind": kind, "query": query,
                   "field": None, "limit": None}
            if kind == "term_counts":
                row["field"], row["limit"] = spec
                row["request"] = {"t": {"terms": {"field": spec[0], "size": spec[1]}}}
            else:
                row["request"] = copy.deepcopy(spec)
            row["request_json"] = json.dumps(row["request"], separators=(",", ":"))
            rows.append(row)
    return rows


def write_rows(rows, path):
    """The file loupe-bench's --aggregations reads: a JSON list of the rows."""
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(rows, fh, indent=1)
        fh.write("\n")


# ---------------------------------------------------------------- timing (any Python engine)

def agg_record(row):
    """One entry of an engine's "aggregations" list, before timing fills it in."""
    return {"name": row["name"], "kind": row["kind"], "query": row["query"], "status": "ok", "error": None,
            "hits": None, "latency_us_median": None, "latency_us_min": None, "repeats": 0, "floor_us": None,
            "result": None}


def time_aggregations(rows, prepare, call, count, absent, repeat):
    """Times every row on one engine: `prepare(row)` → the engine's query for the row (outside the clock),
    `call(row, query)` → the answer (timed, conversion to Python included), `count(query)` → hits (untimed),
    `absent` the absent-term query for the floors. Returns the "aggregations" records."""
    records = [agg_record(row) for row in rows]
    prepared = []
    for row, record in zip(rows, records):
        try:
            query = prepare(row)
            record["hits"] = count(query)
        except BaseException as e:  # pyo3 panics derive from BaseException
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                raise
            record.update(status="error", error=f"{type(e).__name__}: {e}")
            query = None
        prepared.append(query)
    samples = [[] for _ in rows]
    clock = time.perf_counter_ns
    for rep in range(repeat + 1):
        for i, (row, record) in enumerate(zip(rows, records)):
            if record["status"] != "ok":
                continue
            try:
                start = clock()
                answer = call(row, prepared[i])
                elapsed = (clock() - start) / 1000
            except BaseException as e:
                if isinstance(e, (KeyboardInterrupt, SystemExit)):
                    raise
                record.update(status="error", error=f"{type(e).__name__}: {e}")
                continue
            if rep == 0:
                record["result"] = answer
            else:
                samples[i].append(elapsed)
    for row, record, values in zip(rows, records, samples):
        if record["status"] != "ok" or not values:
            continue
        record.update(latency_us_median=round(median(values), 2), latency_us_min=round(min(values), 2),
                      repeats=len(values))
        floor = []
        for rep in range(FLOOR_SAMPLES + 1):
            start = clock()
            call(row, absent)
            if rep:
                floor.append((clock() - start) / 1000)
        record["floor_us"] = round(median(floor), 2)
    return records


def best_aggregations(records_per_round):
    """Per row, the lowest median, minimum and floor over the rounds (as measure.best_of_rounds for queries)."""
    best = [dict(r) for r in records_per_round[0]]
    for other in records_per_round[1:]:
        for mine, theirs in zip(best, other):
            if mine["name"] != theirs["name"]:
                raise ValueError(f"rounds ran different aggregation rows: {mine['name']} and {theirs['name']}")
            for key in ("latency_us_median", "latency_us_min", "floor_us"):
                if theirs.get(key) is not None and (mine.get(key) is None or theirs[key] < mine[key]):
                    mine[key] = theirs[key]
    return best


# ---------------------------------------------------------------- agreement

def term_count_pairs(kind, result):
    """A term_counts answer as [(key, count)]: Loupe's [{"value", "count"}] or tantivy's {"t": {"buckets"}}."""
    if isinstance(result, list):
        return [(r["value"], r["count"]) for r in result]
    return [(b["key"], b["doc_count"]) for b in result["t"]["buckets"]]


def same_value(a, b, path, differences):
    """Deep comparison: objects as maps (tantivy orders keys by hash), floats to FLOAT_TOLERANCE relative."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                differences.append(f"{path}.{key}: only in {'tantivy' if key in b else 'Loupe'}")
            else:
                same_value(a[key], b[key], f"{path}.{key}", differences)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            differences.append(f"{path}: {len(a)} entries in Loupe, {len(b)} in tantivy")
        for i, (x, y) in enumerate(zip(a, b)):
            same_value(x, y, f"{path}[{i}]", differences)
    elif isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        if a != b and not math.isclose(a, b, rel_tol=FLOAT_TOLERANCE):
            differences.append(f"{path}: Loupe {a!r}, tantivy {b!r}")
    elif a != b:
        differences.append(f"{path}: Loupe {a!r}, tantivy {b!r}")


def agreement(kind, mine, theirs):
    """(agree, note) of Loupe's answer against tantivy's for one row. term_counts compares the (value, count)
    lists; a difference only among values tied at the cut-off count is reported as such (both engines then
    return a correct top-`limit`). aggregate compares the whole responses."""
    if mine is None or theirs is None:
        return None, "not answered by both"
    differences = []
    if kind == "term_counts":
        a, b = term_count_pairs(kind, mine), term_count_pairs(kind, theirs)
        if a == b:
            return True, ""
        if [c for _, c in a] == [c for _, c in b] and a:
            cut = a[-1][1]
            if [p for p in a if p[1] != cut] == [p for p in b if p[1] != cut]:
                return True, f"values tied at count {cut} differ at the cut-off"
        same_value([list(p) for p in a], [list(p) for p in b], "counts", differences)
    else:
        same_value(mine, theirs, "", differences)
    if not differences:
        return True, ""
    return False, "; ".join(differences[:3]) + (f" (+{len(differences) - 3} more)" if len(differences) > 3 else "")
