#!/usr/bin/env python3
"""Build words/words.jsonl.gz from Debian's SCOWL word lists (stdlib only).

The words come from three packages of Debian bookworm (their files are read, nothing
is executed):

  package          file                                   SCOWL size
  wamerican        usr/share/dict/american-english        50
  wamerican-large  usr/share/dict/american-english-large  70
  wamerican-huge   usr/share/dict/american-english-huge   80

One document per distinct word of the three lists (348,454 for 2020.12.07-2), sorted
by code point, with the smallest list holding it. Fields: id (`w` + six-digit rank),
word (as listed, a string field), text (the same, tokenized), length (characters),
scowl_size, possessive (ends in 's), capitalized (first character upper case), ascii,
lower_base (lowercased, a trailing 's removed, NFC). A few hundred thousand very short
documents: term dictionaries, ranges and per-query overheads dominate, not postings.

Where the lists come from (--from):
  download   (default when the packages are not installed) `apt-get download` the .debs
             into a temporary directory and unpack them with `dpkg-deb -x`; nothing is
             installed. Package lists go to a private directory (--apt-lists, filled by
             `apt-get update -o Dir::State::Lists=DIR ...` when empty; root is not needed).
  installed  read /usr/share/dict of this machine, after
               apt-get install -y --no-install-recommends wamerican wamerican-large wamerican-huge
  --root DIR reads an already unpacked tree instead (DIR/usr/share/dict/...).

Downloads ask for the package versions of the developer-set fixture (FIXTURE_VERSIONS),
from which this script rebuilds the fixture byte for byte (FIXTURE_SHA256, checked and
reported). Same inputs give a byte-identical file.
"""
import argparse
import hashlib
import os
import shutil
import sys
import tempfile
import time
import unicodedata

from corpus_support import add_source_arguments, package_root, write_jsonl_gz

HERE = os.path.dirname(os.path.abspath(__file__))

FIXTURE_VERSIONS = {
    "wamerican": "2020.12.07-2",
    "wamerican-large": "2020.12.07-2",
    "wamerican-huge": "2020.12.07-2",
}
FIXTURE_SHA256 = "390581fff2053a5a4c44c400278bfa7de1da18fe2e5e74de25adad221c4d99b4"
# (SCOWL size, list file under usr/share/dict), smallest first: a word's size is the first list holding it.
LISTS = [(50, "american-english"), (70, "american-english-large"), (80, "american-english-huge")]


def smallest_list(root):
    """{word: SCOWL size of the smallest list holding it}; lines are stripped, empty ones skipped."""
    size_of = {}
    for size, name in LISTS:
        path = os.path.join(root, "usr/share/dict", name)
        with open(path, encoding="utf-8") as f:
            for line in f.read().split("\n"):
                word = line.strip()
                if word:
                    size_of.setdefault(word, size)
    return size_of


def word_docs(size_of):
    """One document per word, in code-point order of the words."""
    for rank, word in enumerate(sorted(size_of)):
        possessive = word.endswith("'s")
        base = word[:-2] if possessive else word
        yield {
            "id": "w%06d" % rank,
            "word": word,
            "text": word,
            "length": len(word),
            "scowl_size": size_of[word],
            "possessive": possessive,
            "capitalized": word[:1].isupper(),
            "ascii": word.isascii(),
            "lower_base": unicodedata.normalize("NFC", base.lower()),
        }


def sha256(path):
    """Hex sha256 of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_source_arguments(parser, "DIR/usr/share/dict/...")
    parser.add_argument("-o", "--out", default=os.path.join(HERE, "words", "words.jsonl.gz"))
    args = parser.parse_args()

    started = time.monotonic()
    work_dir = tempfile.mkdtemp(prefix="loupe-words-")
    try:
        root = package_root(args, work_dir, FIXTURE_VERSIONS)
        n, raw_bytes = write_jsonl_gz(args.out, word_docs(smallest_list(root)))
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)
    digest = sha256(args.out)
    same = "the fixture's" if digest == FIXTURE_SHA256 else "NOT the fixture's %s" % FIXTURE_SHA256
    print("wrote %d docs (%d bytes of JSON Lines) to %s in %.1f s; sha256 %s (%s)"
          % (n, raw_bytes, args.out, time.monotonic() - started, digest, same), file=sys.stderr)


if __name__ == "__main__":
    main()
