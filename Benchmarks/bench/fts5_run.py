"""SQLite FTS5 on the benchmark's corpus, with queries translated from tantivy syntax; runs in its own worker."""
import json
import os
import re
import sqlite3
import time

from .inputs import corpus_lines
from .measure import class_summary, floor_times, index_record, open_times, query_record, time_queries

CLAUSE = re.compile(r'([+-]?)(?:([A-Za-z_][\w.]*):)?("[^"]*"|[^\s"]+)(\S*)')
SPECIAL = set('[]{}()*^~:\\<>!')


def fts5_translate(query, text_fields, default_fields):
    """tantivy query syntax → FTS5 MATCH text, or (None, reason) when FTS5 has no equivalent."""
    columns = "{" + " ".join(default_fields) + "}"
    musts, shoulds, nots = [], [], []
    position = 0
    for m in CLAUSE.finditer(query):
        if query[position:m.start()].strip():
            return None, f"cannot parse near {query[position:m.start()]!r}"
        position = m.end()
        sign, field, body, tail = m.groups()
        if tail:
            return None, f"operator {tail!r} after {body!r} (slop, boost, range…)"
        if not field and body in ("AND", "OR", "NOT", "IN"):
            return None, f"boolean keyword {body}"
        if body.startswith('"'):
            words = body[1:-1]
        elif body.startswith("/"):
            return None, "regex query"
        elif "~" in body:
            return None, "fuzzy term"
        elif body[0] in "[{<>" or " TO " in query:
            return None, "range query"
        elif SPECIAL & set(body):
            return None, f"syntax in {body!r} (wildcard, grouping…)"
        else:
            words = body
        if field and field not in text_fields:
            return None, f"field {field} is not a text field in the FTS5 table"
        string = '"' + words.replace('"', '""') + '"'
        clause = f"{field} : ({string})" if field else f"{columns} : ({string})"
        {"+": musts, "-": nots, "": shoulds}[sign].append(clause)
    if query[position:].strip():
        return None, f"cannot parse near {query[position:]!r}"
    if not musts and not shoulds:
        return None, "no positive clause"
    # With a required clause the optional ones only change scores, never the match set.
    expr = "(" + (" AND ".join(musts) if musts else " OR ".join(shoulds)) + ")"
    return expr + "".join(f" NOT {n}" for n in nots), None


def run_fts5(job):
    """Indexes the text fields (plus an id table) in one WAL transaction, then times open and queries."""
    schema = job["schema"]
    text_fields = [f["name"] for f in schema["fields"] if f["type"] == "text" and f["indexed"]]
    default_fields = [f for f in schema["default_fields"] if f in text_fields]
    id_field = schema["id_field"]
    path = os.path.join(job["workdir"], "fts5")
    os.makedirs(path)
    db_path = os.path.join(path, "index.db")
    cache_kib = job["memory_mb"] * 1_000_000 // 1024
    columns = ", ".join(f'"{name}"' for name in text_fields)
    docs = failed = input_bytes = 0

    def rows():
        nonlocal docs, failed, input_bytes
        for line in corpus_lines(job["corpus"], job["limit_docs"]):
            input_bytes += len(line)
            try:
                doc = json.loads(line)
                values = [doc.get(name) for name in text_fields]
                # Multi-valued text fields become one string: FTS5 has no per-value position gap.
                values = [" \n ".join(map(str, v)) if isinstance(v, list) else (None if v is None else str(v))
                          for v in values]
                ident = doc.get(id_field) if id_field else None
            except (ValueError, AttributeError):
                failed += 1
                continue
            docs += 1
            yield (docs, None if ident is None else str(ident), *values)

    start = time.perf_counter()
    db = sqlite3.connect(db_path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute(f"PRAGMA cache_size=-{cache_kib}")
    db.execute("BEGIN")
    db.execute(f"CREATE VIRTUAL TABLE t USING fts5({columns}, tokenize='unicode61 remove_diacritics 0')")
    db.execute("CREATE TABLE docs(rowid INTEGER PRIMARY KEY, id TEXT)")
    placeholders = ", ".join("?" for _ in text_fields)
    for row in rows():
        db.execute("INSERT INTO docs VALUES (?, ?)", row[:2])
        db.execute(f"INSERT INTO t(rowid, {columns}) VALUES (?, {placeholders})", (row[0], *row[2:]))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    seconds = time.perf_counter() - start
    db.close()
    indexed = index_record(docs, failed, input_bytes, seconds, path, None)

    def open_once():
        conn = sqlite3.connect(db_path)
        conn.execute("SELECT rowid FROM t LIMIT 1").fetchall()
        conn.close()
    opened = open_times(open_once, job["repeat"])

    db = sqlite3.connect(db_path, isolation_level=None)
    db.execute(f"PRAGMA cache_size=-{cache_kib}")
    top_sql = ("SELECT d.id, -r.rank FROM (SELECT rowid, rank FROM t WHERE t MATCH ? ORDER BY rank LIMIT 10) r "
               "JOIN docs d ON d.rowid = r.rowid ORDER BY r.rank")
    # FTS5 cannot prune: its top-10 without the id lookup still ranks every match.
    pruned_sql = "SELECT rowid FROM t WHERE t MATCH ? ORDER BY rank LIMIT 10"
    count_sql = "SELECT count(*) FROM t WHERE t MATCH ?"
    queries = []
    for cls, text in job["queries"]:
        match, reason = fts5_translate(text, text_fields, default_fields)
        record = query_record(cls, text, "ok" if match else "unsupported", reason)
        record["_run"] = match
        if match:
            record["fts5_match"] = match
        queries.append(record)

    def top10(match):
        found = db.execute(top_sql, (match,)).fetchall()
        return [r[0] for r in found], [round(r[1], 6) for r in found], None

    def pruned(match):
        return db.execute(pruned_sql, (match,)).fetchall()

    def count(match):
        return db.execute(count_sql, (match,)).fetchone()[0]
    time_queries(queries, top10, pruned, count, job["repeat"])
    floor_match, _ = fts5_translate(job["floor_query"], text_fields, default_fields)
    floor = floor_times(floor_match, top10, pruned, count) if floor_match else None
    return {"engine": "fts5", "version": sqlite3.sqlite_version,
            "config": {"tokenizer": "unicode61 remove_diacritics 0", "columns": text_fields,
                       "default_columns": default_fields, "cache_size_kib": cache_kib, "journal_mode": "WAL",
                       "synchronous": "NORMAL", "repeat": job["repeat"],
                       "timed": "connect → one transaction → COMMIT + wal_checkpoint; includes Python json.loads",
                       "top10_note": "top-10 search does not count; the count comes from the count(*) query",
                       "pruned": "ORDER BY rank LIMIT 10 without the id lookup (FTS5 ranks every match: no pruning)",
                       "peak_rss": "whole Python worker process"},
            "index": indexed, "open": opened, "queries": queries, "classes": class_summary(queries), "floor_us": floor}
