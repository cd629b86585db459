"""Reading the benchmark's inputs: schema (both shapes) and the schema every engine runs, query lists, the
binding-floor query, and JSONL corpus lines."""
import gzip
import json

NUMERIC_TYPES = ("u64", "i64", "f64", "bool", "date")
STORED_CHOICES = ("id", "all")
# A word no corpus holds: a top-10 search for it costs only the engine's fixed per-query overhead (for the Python
# engines, mostly the binding's), the "binding floor".
FLOOR_TERM = "zqxjvkwpq"


def load_schema(path):
    """Both schema shapes → {"fields": [normalized field dicts], "default_fields", "id_field"}."""
    with open(path) as fh:
        raw = json.load(fh)
    if isinstance(raw["fields"], dict):
        # The shared corpora's object-keyed shape carries types only: fill in what Loupe's schema would say.
        fields = []
        for name, spec in raw["fields"].items():
            kind = spec["type"]
            fields.append({"name": name, "type": kind, "stored": True, "indexed": True,
                           "fast": kind in NUMERIC_TYPES, "tokenizer": "default" if kind == "text" else "raw",
                           "record": "position" if kind == "text" else "basic"})
        defaults = raw.get("default_search_fields") or raw.get("default_fields") or []
    else:
        fields = [dict({"stored": False, "indexed": True, "fast": False}, **f) for f in raw["fields"]]
        defaults = raw.get("default_fields") or raw.get("default_search_fields") or []
    if not defaults:
        defaults = [f["name"] for f in fields if f["type"] == "text"]
    return {"fields": fields, "default_fields": defaults, "id_field": raw.get("id_field")}


def run_schema(schema, stored):
    """The schema every engine gets, from load_schema's: with stored "id" only the id_field is stored, with "all"
    every field is (a run that fetches whole documents); the other options stay as declared.

    Raises ValueError for "id" without an id_field."""
    if stored not in STORED_CHOICES:
        raise ValueError(f"stored must be one of {', '.join(STORED_CHOICES)}, not {stored!r}")
    if stored == "id" and not schema["id_field"]:
        raise ValueError("storing only the id needs the schema's id_field (or store all fields)")
    fields = [dict(f, stored=stored == "all" or f["name"] == schema["id_field"]) for f in schema["fields"]]
    return dict(schema, fields=fields)


def write_schema(schema, path):
    """Writes a load_schema-style dict in Loupe's array shape; tokenizer and record only on text fields, as
    Loupe's own schema encoding writes them."""
    fields = []
    for f in schema["fields"]:
        entry = {k: f[k] for k in ("name", "type", "stored", "indexed", "fast")}
        if f["type"] == "text":
            entry.update(tokenizer=f.get("tokenizer") or "default", record=f.get("record") or "position")
        fields.append(entry)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"fields": fields, "default_fields": schema["default_fields"], "id_field": schema["id_field"]},
                  fh, indent=1)
        fh.write("\n")


def floor_query(schema):
    """The binding-floor query: FLOOR_TERM in the first default field."""
    return f"{schema['default_fields'][0]}:{FLOOR_TERM}"


def infer_class(query):
    """Same rules, in the same order, as loupe-bench's QueryFile.inferClass."""
    if '"' in query:
        return "phrase"
    if " TO " in query or ":>" in query or ":<" in query:
        return "range"
    words = [w for w in query.split(" ") if w]
    if len(words) > 1 and all(w.startswith("+") for w in words):
        return "and2"
    if ":" in query:
        return "field"
    return "or2" if len(words) > 1 else "term"


def load_queries(path, limit):
    """[(class, query)]: `class<TAB>query` or a bare query; empty and `#` lines skipped, as loupe-bench does."""
    out = []
    with open(path, encoding="utf-8") as fh:
        for line in fh.read().split("\n"):
            if not line or line.startswith("#"):
                continue
            label, tab, text = line.partition("\t")
            out.append((label, text) if tab else (infer_class(line), line))
            if limit and len(out) == limit:
                break
    return out


def load_fuzzy(path):
    """fuzzy.txt (`misspelling<TAB>intended<TAB>edits<TAB>field,field…`) → one "fuzzy" query per line.

    Each is a dict: "query" (Loupe syntax, `f1:word~e f2:word~e`: one fuzzy clause per field, OR-ed), plus
    "misspelling", "intended", "edits" and "fields", which the tantivy worker and the ranking figures use."""
    out = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh.read().split("\n"), 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 4 or not parts[2].isdigit() or not 0 <= int(parts[2]) <= 2:
                raise ValueError(f"{path}:{number}: want misspelling<TAB>intended<TAB>edits 0-2<TAB>fields: {line!r}")
            word, intended, edits, fields = parts[0].lower(), parts[1].lower(), int(parts[2]), parts[3].split(",")
            out.append({"query": " ".join(f"{f}:{word}~{edits}" for f in fields), "misspelling": word,
                        "intended": intended, "edits": edits, "fields": fields})
    return out


def corpus_lines(path, limit_docs):
    """Yields the corpus's non-empty JSONL lines (bytes, newline kept), the first `limit_docs` of them."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as fh:
        n = 0
        for line in fh:
            if not line.strip():
                continue
            if limit_docs and n == limit_docs:
                return
            n += 1
            yield line
