"""The update-heavy phase's input, shared by every engine: which documents get upserted, in what order, and how.

compare.py writes the upserts once, as `id<TAB>json` lines, and every engine replays that file, so the engines
see the same sequence without each reimplementing the random picks or the JSON edit."""
import json
import random

from .inputs import corpus_lines

# Appended to each upserted document's first default text field: a made-up word, so that the queries match what
# they matched before the updates and only the term statistics (and the segments) change.
UPSERT_WORD = "upserted"
ID_TYPES = ("string", "u64", "i64")


def upsert_target(schema):
    """(id field, its type, the text field that gets modified), or a ValueError saying why there is no update phase."""
    types = {f["name"]: f["type"] for f in schema["fields"]}
    id_field = schema["id_field"]
    if not id_field or types.get(id_field) not in ID_TYPES:
        raise ValueError(f"upserts delete by the schema's id_field, which must be one of {', '.join(ID_TYPES)} "
                         f"(got {id_field!r}: {types.get(id_field)})")
    text = [f for f in schema["default_fields"] if types.get(f) == "text"]
    if not text:
        raise ValueError("upserts modify the first default text field, and the schema has none")
    return id_field, types[id_field], text[0]


def document_id(line, id_field, id_type):
    """The id of one corpus line, as the text written to the upserts file; None when it has no single valid id."""
    try:
        doc = json.loads(line)
    except ValueError:
        return None
    value = doc.get(id_field) if isinstance(doc, dict) else None
    if id_type == "string":
        ok = isinstance(value, str) and "\t" not in value and "\n" not in value
    else:
        ok = isinstance(value, int) and not isinstance(value, bool) and (id_type == "i64" or value >= 0)
    return str(value) if ok else None


def modified(line, field):
    """The corpus line with UPSERT_WORD appended to `field` (a new value for a list, the value for a missing one)."""
    doc = json.loads(line)
    value = doc.get(field)
    if value is None:
        doc[field] = UPSERT_WORD
    elif isinstance(value, list):
        doc[field] = value + [UPSERT_WORD]
    else:
        doc[field] = f"{value} {UPSERT_WORD}"
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def write_upserts(corpus, limit_docs, schema, count, seed, path):
    """Picks `count` documents (with replacement: a document may be upserted twice) among the corpus lines that
    have an id, with random.Random(seed), and writes each modified, in pick order, to `path`.

    Returns the run's description for the results: count, seed, field, word and how many distinct documents."""
    id_field, id_type, field = upsert_target(schema)
    ids = [document_id(line, id_field, id_type) for line in corpus_lines(corpus, limit_docs)]
    eligible = [n for n, ident in enumerate(ids) if ident is not None]
    if not eligible:
        raise ValueError(f"no corpus line has a usable {id_field!r}: nothing to upsert")
    rng = random.Random(seed)
    picks = [rng.choice(eligible) for _ in range(count)]
    wanted = set(picks)
    replacements = {n: modified(line, field) for n, line in enumerate(corpus_lines(corpus, limit_docs))
                    if n in wanted}
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(f"{ids[n]}\t{replacements[n]}\n" for n in picks)
    return {"upserts": count, "seed": seed, "id_field": id_field, "field": field, "word": UPSERT_WORD,
            "distinct_docs": len(wanted)}


def load_upserts(path, id_type):
    """[(id, json text)] from an upserts file; the id is converted to `id_type`'s Python value."""
    out = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            ident, _, doc = line.rstrip("\n").partition("\t")
            out.append((ident if id_type == "string" else int(ident), doc))
    return out
