#!/usr/bin/env python3
"""Build debian-packages/debian-packages.jsonl.gz from Debian bookworm's package index (stdlib only).

One document per binary package of bookworm main amd64 (`Packages`), with its long
description from `Translation-en`. The index comes from (first that applies):
  --packages FILE --translation FILE   explicit index files (.xz, .gz, .lz4 or plain)
  --lists DIR                          an APT lists directory; when it has no bookworm
                                       index yet it is filled with (no root needed):
      mkdir -p DIR/partial && apt-get update -o Dir::State::Lists=DIR \\
          -o Acquire::Languages=en -o Acquire::GzipIndexes=false
  (neither)                            the same, into a temporary directory

The archive moves (point releases every few months), so a fresh build differs a little
from the developer-set fixture, which froze the index of Debian 12.15 (InRelease of
2026-07-11). Documents are sorted by id; same inputs give a byte-identical file.
"""
import argparse
import os
import re
import shutil
import sys
import tempfile
import time

from corpus_support import (BOOKWORM_PACKAGES, BOOKWORM_TRANSLATION, ensure_lists,
                            find_list, read_index_text, write_jsonl_gz)

HERE = os.path.dirname(os.path.abspath(__file__))

# Relation fields list alternatives ("a | b") and constraints ("(>= 1)", "[amd64]",
# "<!nocheck>", ":any"); the corpus keeps only the package names.
RELATION_QUALIFIERS = re.compile(r"\([^)]*\)|\[[^\]]*\]|<[^>]*>")
RELATION_SEPARATORS = re.compile(r"\s*[,|]\s*")
# Optional values that are left out of a document rather than written empty.
OMIT_WHEN_EMPTY = ("homepage", "installed_size", "compression_ratio", "description")


def deb822_records(text):
    """Yield each stanza as a dict; continuation lines are kept, joined by newlines."""
    for stanza in text.split("\n\n"):
        record, key = {}, None
        for line in stanza.split("\n"):
            if not line:
                continue
            if line[0] in " \t":
                record[key] += "\n" + line
            else:
                key, _, value = line.partition(":")
                record[key] = value.strip()
        if record:
            yield record


def long_description(field):
    """A Description-en value as plain text: synopsis dropped, one leading space
    removed from each line, " ." lines turned into the blank lines they stand for."""
    lines = []
    for line in field.split("\n")[1:]:
        if line.startswith(" "):
            line = line[1:]
        lines.append("" if line.strip() == "." else line.rstrip())
    return "\n".join(lines).strip()


def relation_names(field):
    """'libc6 (>= 2.34), a | b:any [amd64]' -> ['libc6', 'a', 'b'] (first occurrence order)."""
    names = []
    for part in RELATION_SEPARATORS.split(RELATION_QUALIFIERS.sub(" ", field.replace("\n", " "))):
        name = part.strip().split(":")[0].strip()
        if name and name not in names:
            names.append(name)
    return names


def package_doc(record, descriptions):
    """The corpus document for one Packages stanza."""
    package, version = record["Package"], record["Version"]
    full = descriptions.get((package, record.get("Description-md5", "")))
    installed_kib = int(record["Installed-Size"]) if "Installed-Size" in record else None
    size = int(record["Size"])
    pre_depends = record.get("Pre-Depends", "")
    doc = {
        "id": "%s_%s" % (package, version),
        "package": package,
        "title": record.get("Description", "").split("\n")[0].strip(),
        "description": long_description(full) if full else "",
        "version": version,
        "source": record.get("Source", package).split(" ")[0],  # "src (version)"
        "section": record.get("Section", ""),
        "priority": record.get("Priority", ""),
        "architecture": record.get("Architecture", ""),
        "maintainer": record.get("Maintainer", ""),
        "homepage": record.get("Homepage", ""),
        "multi_arch": record.get("Multi-Arch", "no"),
        "essential": record.get("Essential", "no") == "yes",
        "installed_size": installed_kib,
        "size": size,
        "compression_ratio": round(size / (installed_kib * 1024.0), 6) if installed_kib else None,
        "depends": relation_names(pre_depends + ("," if pre_depends else "") + record.get("Depends", "")),
        "recommends": relation_names(record.get("Recommends", "")),
        "suggests": relation_names(record.get("Suggests", "")),
        "provides": relation_names(record.get("Provides", "")),
        "tags": [t.strip() for t in record.get("Tag", "").replace("\n", " ").split(",") if t.strip()],
    }
    for key in OMIT_WHEN_EMPTY:
        if doc[key] is None or doc[key] == "":
            del doc[key]
    return doc


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--packages", help="a bookworm main binary-amd64 Packages file")
    parser.add_argument("--translation", help="the matching main i18n Translation-en file")
    parser.add_argument("--lists", help="APT lists directory (filled by apt-get update when empty)")
    parser.add_argument("-o", "--out", default=os.path.join(HERE, "debian-packages", "debian-packages.jsonl.gz"))
    args = parser.parse_args()
    if bool(args.packages) != bool(args.translation):
        parser.error("--packages and --translation go together")

    started = time.monotonic()
    work_dir = tempfile.mkdtemp(prefix="loupe-debian-packages-")
    try:
        if args.packages:
            packages_path, translation_path = args.packages, args.translation
        else:
            lists_dir = args.lists or os.path.join(work_dir, "lists")
            ensure_lists(lists_dir)
            packages_path = find_list(lists_dir, BOOKWORM_PACKAGES)
            translation_path = find_list(lists_dir, BOOKWORM_TRANSLATION)
        print("reading %s\n    and %s" % (packages_path, translation_path), file=sys.stderr)
        descriptions = {(r["Package"], r["Description-md5"]): r["Description-en"]
                        for r in deb822_records(read_index_text(translation_path))}
        docs = sorted((package_doc(r, descriptions) for r in deb822_records(read_index_text(packages_path))),
                      key=lambda d: d["id"])
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)
    n, raw_bytes = write_jsonl_gz(args.out, docs)
    print("wrote %d docs (%d bytes of JSON Lines) to %s in %.1f s"
          % (n, raw_bytes, args.out, time.monotonic() - started), file=sys.stderr)


if __name__ == "__main__":
    main()
