#!/usr/bin/env python3
"""Compare two builds of a corpus (.jsonl or .jsonl.gz), e.g. a fresh build and a fixture.

    python3 compare_jsonl.py NEW.jsonl.gz REFERENCE.jsonl.gz [--show N]

Prints the document counts, the ids found on one side only, and for ids on both sides
how many documents differ in each field, with N examples. Exit status 0 when the two
hold the same documents (line order aside), 1 otherwise.
"""
import argparse
import gzip
import hashlib
import json
import sys


def lines(path):
    """The file's lines as bytes, decompressing .gz."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        yield from f


def digests(path):
    """id -> sha1 of the document's canonical JSON (keys sorted)."""
    out = {}
    for line in lines(path):
        doc = json.loads(line)
        out[doc["id"]] = hashlib.sha1(json.dumps(doc, sort_keys=True).encode()).digest()
    return out


def load(path, ids):
    """The documents of `path` whose id is in `ids`."""
    docs = {}
    for line in lines(path):
        doc = json.loads(line)
        if doc["id"] in ids:
            docs[doc["id"]] = doc
    return docs


def short(value, limit=100):
    """A value as JSON, cut to `limit` characters for one-line reports."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("new")
    parser.add_argument("reference")
    parser.add_argument("--show", type=int, default=3, help="examples per difference")
    args = parser.parse_args()

    new, ref = digests(args.new), digests(args.reference)
    print("docs: new %d, reference %d" % (len(new), len(ref)))
    only_new = sorted(set(new) - set(ref))
    only_ref = sorted(set(ref) - set(new))
    for label, ids in (("only in new", only_new), ("only in reference", only_ref)):
        print("%s: %d%s" % (label, len(ids), "  e.g. " + ", ".join(ids[:args.show]) if ids else ""))
    changed = {i for i in set(new) & set(ref) if new[i] != ref[i]}
    print("same id, different content: %d" % len(changed))
    if changed:
        a, b = load(args.new, changed), load(args.reference, changed)
        by_field = {}
        for i in sorted(changed):
            for field in sorted(set(a[i]) | set(b[i])):
                if a[i].get(field) != b[i].get(field):
                    by_field.setdefault(field, []).append(i)
        for field, ids in sorted(by_field.items(), key=lambda kv: -len(kv[1])):
            print("  field %-18s differs in %d docs" % (field, len(ids)))
            for i in ids[:args.show]:
                print("    %s: new %s / reference %s" % (i, short(a[i].get(field)), short(b[i].get(field))))
    same = not (only_new or only_ref or changed)
    print("same documents" if same else "documents differ")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
