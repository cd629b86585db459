"""tantivy 0.27 (PyPI) on the benchmark's corpus, schema and queries; runs in its own worker process."""
import importlib.metadata
import os
import re
import time

import tantivy

from .aggregations import time_aggregations
from .inputs import corpus_lines
from .measure import class_summary, dir_size, floor_times, index_record, open_times, query_record, time_queries
from .updates import load_upserts, upsert_target


def tantivy_schema(schema):
    """Loupe's field types mapped onto tantivy's: string → raw tokenizer, basic record; the rest as declared."""
    builder = tantivy.SchemaBuilder()
    for f in schema["fields"]:
        name, kind, stored, indexed, fast = f["name"], f["type"], f["stored"], f["indexed"], f["fast"]
        if kind == "text":
            builder.add_text_field(name, stored=stored, fast=fast, tokenizer_name=f.get("tokenizer") or "default",
                                   index_option=f.get("record") or "position")
        elif kind == "string":
            builder.add_text_field(name, stored=stored, fast=fast, tokenizer_name="raw", index_option="basic")
        else:
            add = {"u64": builder.add_unsigned_field, "i64": builder.add_integer_field,
                   "f64": builder.add_float_field, "bool": builder.add_boolean_field,
                   "date": builder.add_date_field}[kind]
            add(name, stored=stored, indexed=indexed, fast=fast)
    return builder.build()


FUZZY_CLAUSE = re.compile(r"([A-Za-z_][\w.]*):([^\s~/]+)~([0-2]?)")
REGEX_CLAUSE = re.compile(r"([A-Za-z_][\w.]*):/(.+)/")


def extension_clause(schema, clause):
    """`field:word~N` (fuzzy, transpositions cost 1, `~` alone = 1) or `field:/re/` (whole-term regex) as a
    tantivy query, or None for anything else. tantivy's parser has neither: it reads `word~1` as the phrase
    "word 1" and needs allow_regexes(), which tantivy-py does not expose."""
    fuzzy = FUZZY_CLAUSE.fullmatch(clause)
    if fuzzy:
        field, word, edits = fuzzy.groups()
        return tantivy.Query.fuzzy_term_query(schema, field, word, distance=int(edits or 1),
                                              transposition_cost_one=True)
    regex = REGEX_CLAUSE.fullmatch(clause)
    if regex:
        return tantivy.Query.regex_query(schema, regex.group(1), regex.group(2))
    return None


def build_query(index, text, default_fields):
    """The tantivy query for one line of the query list: when every whitespace-separated clause is a fuzzy or
    regex clause, their OR (as Loupe reads `a b`); otherwise whatever tantivy's own parser makes of the text."""
    clauses = text.split()
    built = [extension_clause(index.schema, c) for c in clauses]
    if clauses and all(q is not None for q in built):
        if len(built) == 1:
            return built[0]
        return tantivy.Query.boolean_query([(tantivy.Occur.Should, q) for q in built])
    return index.parse_query(text, default_field_names=default_fields)


def relevant_ids(index, searcher, id_field, judge):
    """{query: ids of every doc holding the intended word as a term of one of the listed fields}: the judgement
    behind the fuzzy ranking figures (P@10, MRR). Plain term queries, so "holding" means what tantivy indexed."""
    out = {}
    for item in judge:
        terms = [tantivy.Query.term_query(index.schema, f, item["intended"]) for f in item["fields"]]
        query = tantivy.Query.boolean_query([(tantivy.Occur.Should, q) for q in terms])
        total = searcher.search(query, limit=1, count=True).count
        hits = searcher.search(query, limit=max(total, 1)).hits if total else []
        out[item["query"]] = [searcher.doc(address).get_first(id_field) for _, address in hits]
    return out


def search_modes(searcher, id_field):
    """The three timed calls on `searcher` (see measure.time_queries): top-10 with count and id fetch, pruned
    top-10 (count=False: TopDocs alone, tantivy's block-WAND path; no doc() call), and count."""
    def top10(query):
        found = searcher.search(query, limit=10, count=True)
        ids = [searcher.doc(address).get_first(id_field) if id_field else None for _, address in found.hits]
        return ids, [round(score, 6) for score, _ in found.hits], found.count

    def pruned(query):
        return searcher.search(query, limit=10, count=False).hits

    def count(query):
        return searcher.search(query, limit=1, count=True).count  # limit=0 panics in tantivy-py
    return top10, pruned, count


def timed_queries(index, searcher, job):
    """The job's query list, timed on `searcher` (see measure.time_queries); the engine's "queries" records."""
    schema = job["schema"]
    queries = []
    for cls, text in job["queries"]:
        record = query_record(cls, text)
        try:
            record["_run"] = build_query(index, text, schema["default_fields"])
        except BaseException as e:
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                raise
            record.update(status="error", error=f"{type(e).__name__}: {e}")
        queries.append(record)
    return time_queries(queries, *search_modes(searcher, schema["id_field"]), job["repeat"])


def timed_aggregations(index, searcher, job):
    """The job's facet and aggregation rows (bench/aggregations.py), timed on `searcher`: each is one
    `searcher.aggregate(query, request)` call, the request dict converted to tantivy's and the response back to a
    Python dict inside the call (tantivy-py's `depythonize` / `pythonize`), as an application calling it pays."""
    defaults = job["schema"]["default_fields"]

    def prepare(row):
        return tantivy.Query.all_query() if row["query"] is None else build_query(index, row["query"], defaults)

    def call(row, query):
        return searcher.aggregate(query, row["request"])

    def count(query):
        return searcher.search(query, limit=1, count=True).count
    absent = build_query(index, job["floor_query"], defaults)
    return time_aggregations(job["aggregations"], prepare, call, count, absent, job["agg_repeat"])


def run_updates(index, path, job):
    """The update-heavy phase: the job's upserts (delete by id, add the modified JSON) with a commit after every
    `upsert_batch` of them, timed from writer creation to the end of the last merge; then the queries again."""
    schema = job["schema"]
    id_field, id_type, _ = upsert_target(schema)
    upserts = load_upserts(job["upserts"], id_type)
    batch = job["upsert_batch"]
    failed = commits = 0
    start = time.perf_counter()
    writer = index.writer(heap_size=job["memory_mb"] * 1_000_000, num_threads=job["threads"])
    for n, (ident, doc) in enumerate(upserts, 1):
        writer.delete_documents_by_term(id_field, ident)
        try:
            writer.add_json(doc)
        except Exception:  # as at indexing: a document tantivy rejects is one failed upsert
            failed += 1
        if n % batch == 0 or n == len(upserts):
            writer.commit()
            commits += 1
    writer.wait_merging_threads()
    seconds = time.perf_counter() - start
    del writer
    index.reload()
    searcher = index.searcher()
    queries = timed_queries(index, searcher, job)
    return {"upserts": len(upserts), "batch": batch, "failed": failed, "seconds": round(seconds, 4),
            "upserts_per_s": round(len(upserts) / seconds, 1), "commits": commits,
            "segments": searcher.num_segments, "docs": searcher.num_docs, "deleted": None,
            "size_bytes": dir_size(path), "queries": queries, "classes": class_summary(queries),
            "timed": "writer creation → last commit + wait_merging_threads (merges run on tantivy's merge threads)"}


def build_index(job):
    """Indexes the job's corpus into WORKDIR/tantivy with its writer threads and memory budget, timed from writer
    creation to commit + wait_merging_threads, then times fresh opens: (index, path, index record, open times)."""
    path = os.path.join(job["workdir"], "tantivy")
    os.makedirs(path)
    index = tantivy.Index(tantivy_schema(job["schema"]), path=path)
    docs = failed = input_bytes = 0
    start = time.perf_counter()
    writer = index.writer(heap_size=job["memory_mb"] * 1_000_000, num_threads=job["threads"])
    for line in corpus_lines(job["corpus"], job.get("limit_docs")):
        input_bytes += len(line)
        try:
            writer.add_json(line.decode("utf-8"))  # JSON is parsed in Rust, as Loupe parses it in Swift
            docs += 1
        except Exception:  # tantivy-py reports a bad document as ValueError, but any error is one failed doc
            failed += 1
    writer.commit()
    writer.wait_merging_threads()
    seconds = time.perf_counter() - start
    del writer
    index.reload()
    indexed = index_record(docs, failed, input_bytes, seconds, path, index.searcher().num_segments)

    def open_once():
        fresh = tantivy.Index.open(path)
        fresh.reload()
        fresh.searcher()
    return index, path, indexed, open_times(open_once, job["repeat"])


def run_tantivy(job):
    """Indexes with Loupe's writer threads (one by default) and memory budget, then times open and queries."""
    schema = job["schema"]
    index, path, indexed, opened = build_index(job)
    searcher = index.searcher()
    id_field = schema["id_field"]
    queries = timed_queries(index, searcher, job)
    floor = floor_times(build_query(index, job["floor_query"], schema["default_fields"]),
                        *search_modes(searcher, id_field))
    judged = relevant_ids(index, searcher, id_field, job.get("judge") or []) if id_field else {}
    result = {"engine": "tantivy", "version": importlib.metadata.version("tantivy"),
              "config": {"heap_size_bytes": job["memory_mb"] * 1_000_000, "num_threads": job["threads"],
                         "repeat": job["repeat"], "top10": "search(limit=10, count=True) + doc(addr) per hit",
                         "pruned": "search(limit=10, count=False), no doc()", "count": "search(limit=1).count",
                         "timed": "writer creation → commit + wait_merging_threads; reads and gunzips the file",
                         "peak_rss": "whole Python worker process", "default_fields": schema["default_fields"]},
              "index": indexed, "open": opened, "queries": queries, "classes": class_summary(queries),
              "floor_us": floor, "fuzzy_relevant": judged}
    if job.get("aggregations"):
        result["aggregations"] = timed_aggregations(index, searcher, job)
        result["config"]["aggregations"] = "searcher.aggregate(query, dict) → dict; term counts: terms, size=limit"
    if job.get("upserts"):
        result["updates"] = run_updates(index, path, job)
    return result
