#!/usr/bin/env python3
"""Regenerate tantivy's aggregation and facet goldens for the bundled movies corpus.

Run from the repository root:
    python3 -m venv /tmp/loupe-bench-venv && /tmp/loupe-bench-venv/bin/pip install tantivy==0.27.0
    /tmp/loupe-bench-venv/bin/python Tests/LoupeTests/Fixtures/aggregations/make_aggregation_goldens.py

Inputs: Benchmarks/corpora/movies/{movies.jsonl.gz, schema.json} and requests.json beside this file, an array
of {"name", "query", "request"}: `query` is a tantivy query string (parsed with the schema's default fields)
or null for match-all, `request` an Elasticsearch-shaped aggregation request handed unchanged to tantivy-py's
`Searcher.aggregate(query, request)`.

The index mirrors Loupe's schema (string → raw tokenizer, text → its tokenizer) with every numeric and date
field fast and the string fields of FAST_STRINGS fast too, so they can be aggregated. One writer thread with a
heap that holds the whole corpus and a single commit give one segment whose doc ids follow file order.

Outputs, beside this file (UTF-8, json.dumps(indent=1), byte-identical from run to run):
  movies.golden.json   one entry per case: name, query, request, response (tantivy's result with its key order;
                       NaN, which tantivy's serde_json writes as null, written as null), and two flags computed by
                       re-running the case with every terms aggregation widened to WIDE buckets:
                         tie_at_cutoff          some count-ordered terms aggregation (at any depth) cut its buckets
                                                between two of equal doc_count.
                         arbitrary_tie_members  some terms aggregation (at any depth) does not list the first `size`
                                                buckets of its widened run. tantivy orders equal counts by key, so
                                                this happens only when its per-segment cut (segment_size) fell
                                                inside a tie and kept arbitrary members of it; such a case cannot
                                                be compared bucket for bucket.
  facets.golden.json   for each field of FACET_FIELDS and query of FACET_QUERIES: every value the matching
                       documents hold and its doc count, as [value, count] sorted by count descending then value
                       ascending (values with no matching document are not listed).
"""
import gzip
import json
import math
import os
import sys
import tempfile

import tantivy

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "..", "Benchmarks", "corpora", "movies"))
# String fields stored as fast (columnar) fields in the golden index, so that terms aggregations can read them.
FAST_STRINGS = {"genres", "mpaa_rating", "languages", "countries", "directors"}
# One thread's heap must hold the whole corpus, or tantivy flushes a second segment.
WRITER_HEAP_BYTES = 1_000_000_000
# Bucket count of a widened terms aggregation: more than any field of the corpus has distinct values.
WIDE = 60_000
FACET_FIELDS = ["genres", "mpaa_rating", "languages", "countries"]
FACET_QUERIES = [None, "title:love", "year:[2000 TO 2010]"]
BUCKET_AGGREGATIONS = {"terms", "histogram", "date_histogram", "range"}


def build_schema(loupe_schema):
    builder = tantivy.SchemaBuilder()
    numeric = {"u64": builder.add_unsigned_field, "i64": builder.add_integer_field,
               "f64": builder.add_float_field, "bool": builder.add_boolean_field, "date": builder.add_date_field}
    for field in loupe_schema["fields"]:
        name, kind, stored = field["name"], field["type"], field["stored"]
        if kind == "text":
            builder.add_text_field(name, stored=stored, tokenizer_name=field["tokenizer"],
                                   index_option=field["record"])
        elif kind == "string":
            builder.add_text_field(name, stored=stored, fast=name in FAST_STRINGS, tokenizer_name="raw",
                                   index_option="basic")
        else:
            numeric[kind](name, stored=stored, indexed=field["indexed"], fast=True)
    return builder.build()


def build_index(loupe_schema, path):
    index = tantivy.Index(build_schema(loupe_schema), path=path)
    writer = index.writer(heap_size=WRITER_HEAP_BYTES, num_threads=1)
    docs = 0
    with gzip.open(os.path.join(CORPUS, "movies.jsonl.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            writer.add_json(line)
            docs += 1
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    searcher = index.searcher()
    if searcher.num_segments != 1:
        sys.exit("index has %d segments; raise WRITER_HEAP_BYTES" % searcher.num_segments)
    if searcher.num_docs != docs:
        sys.exit("index has %d docs, corpus %d" % (searcher.num_docs, docs))
    return index


def null_nan(value):
    """The value with every NaN replaced by None: serde_json, which tantivy serialises with, writes NaN as null."""
    if isinstance(value, dict):
        return {k: null_nan(v) for k, v in value.items()}
    if isinstance(value, list):
        return [null_nan(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def sub_aggregations(spec):
    return spec.get("aggs") or spec.get("aggregations") or {}


def kind_of(spec):
    (kind,) = [k for k in spec if k not in ("aggs", "aggregations")]
    return kind


def widened(request):
    """The request with every terms aggregation asking for WIDE buckets from its segment and in its result."""
    out = {}
    for name, spec in request.items():
        spec = dict(spec)
        kind = kind_of(spec)
        if kind == "terms":
            terms = {k: v for k, v in spec[kind].items() if k not in ("shard_size", "split_size")}
            terms.update(size=WIDE, segment_size=WIDE)
            spec[kind] = terms
        subs = sub_aggregations(spec)
        if subs:
            spec["aggs" if "aggs" in spec else "aggregations"] = widened(subs)
        out[name] = spec
    return out


def count_order(terms):
    """True when the terms aggregation orders its buckets by doc count (tantivy's default)."""
    return list((terms.get("order") or {"_count": "desc"}).keys()) == ["_count"]


def bucket_list(result):
    buckets = result["buckets"]
    return list(buckets.values()) if isinstance(buckets, dict) else buckets


def tie_flags(request, response, wide):
    """(tie_at_cutoff, arbitrary_tie_members) over every terms aggregation of `request`, at any depth; `wide` is
    the response to widened(request), whose buckets are matched to `response`'s by key."""
    cutoff = arbitrary = False
    for name, spec in request.items():
        kind = kind_of(spec)
        if kind not in BUCKET_AGGREGATIONS:
            continue
        buckets, wide_buckets = bucket_list(response[name]), bucket_list(wide[name])
        if kind == "terms":
            size = spec[kind].get("size", 10)
            if count_order(spec[kind]) and 0 < size < len(wide_buckets):
                cutoff |= wide_buckets[size - 1]["doc_count"] == wide_buckets[size]["doc_count"]
            arbitrary |= [(b["key"], b["doc_count"]) for b in buckets] != \
                [(b["key"], b["doc_count"]) for b in wide_buckets[:size]]
        subs = sub_aggregations(spec)
        if subs:
            by_key = {json.dumps(b["key"]): b for b in wide_buckets}
            for bucket in buckets:
                c, a = tie_flags(subs, bucket, by_key[json.dumps(bucket["key"])])
                cutoff, arbitrary = cutoff or c, arbitrary or a
    return cutoff, arbitrary


def parse(index, default_fields, query):
    return tantivy.Query.all_query() if query is None else index.parse_query(query, default_fields)


def aggregation_goldens(index, default_fields, cases):
    searcher = index.searcher()
    out = []
    for case in cases:
        query = parse(index, default_fields, case["query"])
        response = null_nan(searcher.aggregate(query, case["request"]))
        wide = null_nan(searcher.aggregate(query, widened(case["request"])))
        cutoff, arbitrary = tie_flags(case["request"], response, wide)
        out.append({"name": case["name"], "query": case["query"], "request": case["request"],
                    "response": response, "tie_at_cutoff": cutoff, "arbitrary_tie_members": arbitrary})
    return out


def facet_goldens(index, default_fields):
    searcher = index.searcher()
    out = []
    for field in FACET_FIELDS:
        for text in FACET_QUERIES:
            result = searcher.aggregate(parse(index, default_fields, text),
                                        {"facet": {"terms": {"field": field, "size": WIDE}}})["facet"]
            if result["sum_other_doc_count"] or len(result["buckets"]) >= WIDE:
                sys.exit("facet %s under %r is incomplete; raise WIDE" % (field, text))
            counts = sorted(([b["key"], b["doc_count"]] for b in result["buckets"]), key=lambda kc: (-kc[1], kc[0]))
            out.append({"field": field, "query": text, "counts": counts})
    return out


def write(name, value):
    path = os.path.join(HERE, name)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(value, indent=1, sort_keys=False, ensure_ascii=False) + "\n")
    print("wrote %d entries to %s" % (len(value), path), file=sys.stderr)


def main():
    with open(os.path.join(CORPUS, "schema.json"), encoding="utf-8") as f:
        loupe_schema = json.load(f)
    with open(os.path.join(HERE, "requests.json"), encoding="utf-8") as f:
        cases = json.load(f)
    names = [case["name"] for case in cases]
    if len(set(names)) != len(names):
        sys.exit("requests.json repeats a case name")
    with tempfile.TemporaryDirectory(prefix="loupe-agg-goldens-") as path:
        index = build_index(loupe_schema, path)
        default_fields = loupe_schema["default_fields"]
        goldens = aggregation_goldens(index, default_fields, cases)
        facets = facet_goldens(index, default_fields)
    for entry in goldens:
        for flag in ("tie_at_cutoff", "arbitrary_tie_members"):
            if entry[flag]:
                print("%s: %s" % (flag, entry["name"]), file=sys.stderr)
    write("movies.golden.json", goldens)
    write("facets.golden.json", facets)


if __name__ == "__main__":
    main()
