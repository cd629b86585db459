#!/usr/bin/env python3
"""Regenerate the tantivy BM25 goldens for the bundled movies corpus.

Run from the repository root:
    python3 -m venv /tmp/tv && /tmp/tv/bin/pip install tantivy==0.27.0 && /tmp/tv/bin/python Tests/LoupeTests/Fixtures/make_goldens.py

Inputs (paths relative to this file): Benchmarks/corpora/movies/{movies.jsonl.gz,
schema.json, queries.classes.tsv}. The tantivy schema mirrors Loupe's schema JSON field
by field, and the index is written by one writer thread so it has a single segment whose
doc ids follow file order; scores and tie-breaks (equal scores: lower doc id first) are
then directly comparable with Loupe.

Outputs, next to this file:
  movies.bm25.golden.tsv             class, query, count, top-10 "id:score" for parsed queries
  movies.bm25.structured.golden.tsv  kind, JSON query spec, count, top-10 for built queries

Scores are tantivy's f32 values written as the shortest decimal that reads back to the
same f32 (what Swift's Float.description prints). Query specs are compact JSON:
  {"term":[field,token]}
  {"phrase":[field,[token,...]]}
  {"bool":[[occur,spec],...]}  with occur one of must, should, must_not
"""
import datetime
import gzip
import json
import os
import re
import struct
import sys

import tantivy

TANTIVY_VERSION = "0.27.0"
HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "Benchmarks", "corpora", "movies"))
PARSED_CLASSES = ["term_common", "term_rare", "or2", "and2", "phrase", "field_text", "field_value", "mixed"]
TOP_K = 10
# One thread's heap must hold the whole corpus, or tantivy flushes a second segment.
WRITER_HEAP_BYTES = 1_000_000_000
COMMAND = "python3 -m venv /tmp/tv && /tmp/tv/bin/pip install tantivy==%s && " \
          "/tmp/tv/bin/python Tests/LoupeTests/Fixtures/make_goldens.py" % TANTIVY_VERSION

# Words of queries.classes.tsv whose title document frequency ranges from 1 to 5034.
TERM_SPECS = [{"term": ["title", word]} for word in [
    "the", "of", "man", "house", "gun", "battle", "knight", "madame", "count", "valance",
]]

BOOL_SPECS = [
    {"bool": [["must", {"term": ["title", "love"]}], ["must", {"term": ["title", "story"]}]]},
    {"bool": [["should", {"term": ["title", "knight"]}], ["should", {"term": ["title", "battle"]}]]},
    {"bool": [["must", {"term": ["title", "house"]}], ["should", {"term": ["title", "dark"]}]]},
    {"bool": [["must", {"term": ["title", "love"]}], ["must_not", {"term": ["people", "john"]}]]},
    {"bool": [["should", {"term": ["title", "gun"]}], ["should", {"term": ["title", "war"]}],
              ["must_not", {"term": ["title", "the"]}]]},
    {"bool": [["must", {"term": ["people", "jack"]}], ["must", {"term": ["people", "nicholson"]}]]},
    {"bool": [["must", {"term": ["title", "man"]}], ["should", {"term": ["people", "george"]}],
              ["should", {"term": ["people", "kevin"]}]]},
    {"bool": [["should", {"term": ["title", "christmas"]}], ["should", {"term": ["people", "murphy"]}],
              ["must_not", {"term": ["people", "eddie"]}]]},
    {"bool": [["must", {"term": ["people", "woody"]}],
              ["must", {"bool": [["should", {"term": ["title", "love"]}],
                                 ["should", {"term": ["title", "night"]}]]}]]},
    {"bool": [["must", {"term": ["title", "the"]}], ["must", {"term": ["title", "of"]}],
              ["must_not", {"term": ["people", "de"]}]]},
]

# Consecutive tokens of real titles, including common words that are rarely adjacent and
# a phrase that repeats a token.
PHRASE_SPECS = [{"phrase": ["title", words]} for words in [
    ["the", "dark", "knight"],
    ["house", "of"],
    ["madame", "bovary"],
    ["the", "count", "of"],
    ["new", "york"],
    ["new", "york", "new"],
    ["of", "the", "dead"],
    ["happily", "ever", "after"],
    ["star", "wars"],
    ["the", "man", "who"],
]]

# Phrase prefixes (tantivy scores them by the head phrase alone, or 1 when the head is one word), on prefixes with
# fewer than 50 expansions, where tantivy's choice of expansions (the first 50 in term order) and Loupe's (the 50
# most frequent) agree.
PHRASE_PREFIX_QUERIES = [
    'title:"star war"*', 'title:"the dark kni"*', 'title:"lord of the rin"*', 'title:"the man who kn"*',
    'title:"new york ci"*', 'title:"the godfather part"*', 'people:"tom hank"*', 'people:"steven spiel"*',
    'title:"of the dea"*', '"john carp"*',
]

OCCURS = {"must": tantivy.Occur.Must, "should": tantivy.Occur.Should, "must_not": tantivy.Occur.MustNot}


def load_schema():
    with open(os.path.join(CORPUS, "schema.json"), encoding="utf-8") as f:
        return json.load(f)


def build_tantivy_schema(loupe_schema):
    """Mirrors every Loupe field with the same type, tokenizer, record option and flags."""
    builder = tantivy.SchemaBuilder()
    numeric_adders = {
        "u64": builder.add_unsigned_field,
        "i64": builder.add_integer_field,
        "f64": builder.add_float_field,
        "bool": builder.add_boolean_field,
        "date": builder.add_date_field,
    }
    for field in loupe_schema["fields"]:
        name, kind = field["name"], field["type"]
        stored, indexed, fast = field.get("stored", False), field.get("indexed", True), field.get("fast", False)
        if kind in ("text", "string"):
            if not indexed:
                sys.exit("field %s: unindexed %s fields have no tantivy-py equivalent" % (name, kind))
            tokenizer, record = (field["tokenizer"], field["record"]) if kind == "text" else ("raw", "basic")
            builder.add_text_field(name, stored=stored, fast=fast, tokenizer_name=tokenizer, index_option=record)
        elif kind in numeric_adders:
            numeric_adders[kind](name, stored=stored, indexed=indexed, fast=fast)
        else:
            sys.exit("field %s: unknown type %s" % (name, kind))
    return builder.build()


def make_document(record, field_types):
    doc = tantivy.Document()
    for name, value in record.items():
        kind = field_types.get(name)
        if kind is None:
            continue
        for item in value if isinstance(value, list) else [value]:
            if kind in ("text", "string"):
                doc.add_text(name, item)
            elif kind == "u64":
                doc.add_unsigned(name, item)
            elif kind == "i64":
                doc.add_integer(name, item)
            elif kind == "f64":
                doc.add_float(name, float(item))
            elif kind == "bool":
                doc.add_boolean(name, item)
            elif kind == "date":
                doc.add_date(name, datetime.datetime.fromisoformat(item.replace("Z", "+00:00")))
    return doc


def build_index(loupe_schema):
    index = tantivy.Index(build_tantivy_schema(loupe_schema))
    field_types = {f["name"]: f["type"] for f in loupe_schema["fields"]}
    writer = index.writer(heap_size=WRITER_HEAP_BYTES, num_threads=1)
    docs = 0
    with gzip.open(os.path.join(CORPUS, "movies.jsonl.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            writer.add_document(make_document(json.loads(line), field_types))
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


def f32_text(score):
    """Shortest decimal that parses back to the same f32."""
    bits = struct.pack("<f", score)
    for digits in range(1, 10):
        text = "%.*g" % (digits, score)
        if struct.pack("<f", float(text)) == bits:
            return text
    raise AssertionError("no 9-digit form for %r" % score)


def run(index, query, id_field):
    searcher = index.searcher()
    result = searcher.search(query, limit=TOP_K, count=True)
    hits = []
    for score, address in result.hits:
        if address.segment_ord != 0:
            raise AssertionError("hit outside the single segment")
        hits.append("%s:%s" % (searcher.doc(address).get_first(id_field), f32_text(score)))
    return result.count, ",".join(hits)


def build_query(schema, spec):
    (kind, args), = spec.items()
    if kind == "term":
        return tantivy.Query.term_query(schema, args[0], args[1])
    if kind == "phrase":
        return tantivy.Query.phrase_query(schema, args[0], args[1])
    if kind == "bool":
        return tantivy.Query.boolean_query([(OCCURS[occur], build_query(schema, sub)) for occur, sub in args])
    raise ValueError("unknown query kind %s" % kind)


def header():
    return "# tantivy==%s (python bindings), top-%d by BM25; regenerate: %s\n" % (TANTIVY_VERSION, TOP_K, COMMAND)


def parsed_goldens(index, loupe_schema):
    lines, refused = [], []
    with open(os.path.join(CORPUS, "queries.classes.tsv"), encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t", 1) for line in f if line.strip()]
    for cls, text in rows:
        if cls not in PARSED_CLASSES:
            continue
        try:
            query = index.parse_query(text, loupe_schema["default_fields"])
        except ValueError as error:
            refused.append((cls, text, str(error)))
            continue
        count, hits = run(index, query, loupe_schema["id_field"])
        lines.append("%s\t%s\t%d\t%s\n" % (cls, text, count, hits))
    for text in PHRASE_PREFIX_QUERIES:
        count, hits = run(index, index.parse_query(text, loupe_schema["default_fields"]), loupe_schema["id_field"])
        if count == 0:
            sys.exit("%s matches nothing; pick a phrase prefix that exercises scoring" % text)
        lines.append("phrase_prefix\t%s\t%d\t%s\n" % (text, count, hits))
    return lines, refused


def structured_goldens(index, loupe_schema):
    with open(os.path.join(CORPUS, "queries.classes.tsv"), encoding="utf-8") as f:
        query_words = set(re.findall(r"[^\W_]+", f.read().lower()))
    for spec in TERM_SPECS:
        if spec["term"][1] not in query_words:
            sys.exit("term %s is not a word of queries.classes.tsv" % spec["term"][1])
    schema = index.schema
    lines = []
    for kind, specs in (("term", TERM_SPECS), ("bool", BOOL_SPECS), ("phrase", PHRASE_SPECS)):
        for spec in specs:
            count, hits = run(index, build_query(schema, spec), loupe_schema["id_field"])
            if count == 0:
                sys.exit("%s matches nothing; pick a query that exercises scoring" % json.dumps(spec))
            spec_text = json.dumps(spec, separators=(",", ":"), ensure_ascii=False)
            lines.append("%s\t%s\t%d\t%s\n" % (kind, spec_text, count, hits))
    return lines


def write(name, lines):
    path = os.path.join(HERE, name)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(header())
        f.writelines(lines)
    print("wrote %d queries to %s" % (len(lines), path), file=sys.stderr)


def main():
    loupe_schema = load_schema()
    index = build_index(loupe_schema)
    parsed, refused = parsed_goldens(index, loupe_schema)
    for cls, text, error in refused:
        print("tantivy refused %s query %r: %s" % (cls, text, error), file=sys.stderr)
    write("movies.bm25.golden.tsv", parsed)
    write("movies.bm25.structured.golden.tsv", structured_goldens(index, loupe_schema))


if __name__ == "__main__":
    main()
