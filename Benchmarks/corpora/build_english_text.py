#!/usr/bin/env python3
"""Build english-text/english-text.jsonl.gz from six Debian bookworm packages (stdlib only).

The text comes from these packages (their files are read, nothing is executed):

  source      package          files                                        one document per
  gcide       dict-gcide       usr/share/dictd/gcide.{index,dict.dz}         dictd entry
  foldoc      dict-foldoc      usr/share/dictd/foldoc.*  (+ last-edit date)  dictd entry
  jargon      dict-jargon      usr/share/dictd/jargon.*                      dictd entry
  devil       dict-devil       usr/share/dictd/devil.*                       dictd entry
  linux-doc   linux-doc-6.1    usr/share/doc/linux-doc-6.1/html/_sources/    reST section
  python-doc  python3.11-doc   usr/share/doc/python3.11/html/_sources/       reST section

Where the files come from (--from):
  download   (default when the packages are not installed) `apt-get download` the .debs
             into a temporary directory and unpack them with `dpkg-deb -x`; nothing is
             installed. Package lists go to a private directory (--apt-lists, filled by
             `apt-get update -o Dir::State::Lists=DIR ...` when empty; root is not needed).
  installed  read /usr/share of this machine, after
               apt-get install -y --no-install-recommends dict-gcide dict-foldoc \\
                   dict-jargon dict-devil linux-doc-6.1 python3.11-doc
  --root DIR reads an already unpacked tree instead (DIR/usr/share/...).

Downloads ask for the package versions of the developer-set fixture (FIXTURE_VERSIONS);
the kernel and Python docs get stable updates, so when the archive no longer has one
the newest version is taken and the output differs a little from the fixture.

Document fields: id, source, title, headwords (array), body, body_chars, then date
(foldoc, when the entry ends with one) or path (the two doc sets). Same inputs give a
byte-identical file.
"""
import argparse
import gzip
import os
import re
import shutil
import sys
import tempfile
import time

from corpus_support import add_source_arguments, package_root, write_jsonl_gz

HERE = os.path.dirname(os.path.abspath(__file__))

FIXTURE_VERSIONS = {
    "dict-gcide": "0.48.5+nmu2",
    "dict-foldoc": "20230119-1",
    "dict-jargon": "4.4.7-3.1",
    "dict-devil": "1.0-13.1",
    "linux-doc-6.1": "6.1.192-3",
    "python3.11-doc": "3.11.2-6+deb12u9",
}

DICTD_SOURCES = ["gcide", "foldoc", "jargon", "devil"]
RST_SOURCES = [
    ("linux-doc", "usr/share/doc/linux-doc-6.1/html/_sources"),
    ("python-doc", "usr/share/doc/python3.11/html/_sources"),
]

# dictd's own bookkeeping entries ("00-database-info", "00databaseurl", …) are not text.
DICTD_METADATA = re.compile(r"00-?(database|gcide|web1913)")
FOLDOC_DATE = re.compile(r"\((\d{4}-\d{2}-\d{2})\)\s*$")
# A reST section adornment: one punctuation character repeated at least three times.
ADORNMENT = re.compile(r"""^([=\-~^*#"+`:.'_])\1{2,}\s*$""")
# Sections shorter than this are headings with a link list, not text worth indexing.
MIN_SECTION_CHARS = 80
BASE64_DIGITS = {c: i for i, c in enumerate(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}


# --- dictd dictionaries -------------------------------------------------------------

def dictd_number(text):
    """dictd index offsets and lengths are big-endian base-64 numerals."""
    value = 0
    for ch in text:
        value = value * 64 + BASE64_DIGITS[ch]
    return value


def dictd_entries(index_path):
    """Map each (offset, length) block to its index words, in index order, no repeats."""
    entries = {}
    with open(index_path, encoding="utf-8") as f:
        for line in f:
            word, offset, length = line.rstrip("\n").split("\t")
            if DICTD_METADATA.match(word):
                continue
            words = entries.setdefault((dictd_number(offset), dictd_number(length)), [])
            if word not in words:
                words.append(word)
    return entries


def dictd_title(source, first_line):
    """The headword as printed on an entry's first line, without pronunciation or gloss."""
    if source == "gcide":
        return first_line.split(" \\", 1)[0].strip()  # "Word \Word\, n. ..."
    if source == "devil":
        return first_line.split(",", 1)[0].strip()  # "WORD, n. ..."
    return first_line


def dictd_docs(source, root):
    """One document per dictionary entry, in file order."""
    base = os.path.join(root, "usr/share/dictd", source)
    with gzip.open(base + ".dict.dz") as f:  # dictzip is a gzip file with extra headers
        data = f.read()
    entries = dictd_entries(base + ".index")
    for offset, length in sorted(entries):
        text = data[offset:offset + length].decode("utf-8", errors="replace")
        text = "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")
        text = text.replace("{", "").replace("}", "")  # cross-reference markup
        first_line = text.lstrip().split("\n", 1)[0].strip()
        doc = {
            "id": "%s:%d" % (source, offset),
            "source": source,
            "title": dictd_title(source, first_line),
            "headwords": entries[(offset, length)],
            "body": text,
            "body_chars": len(text),
        }
        if source == "foldoc":
            date = FOLDOC_DATE.search(text)
            if date and "-00" not in date.group(1):  # "(1995-00-00)" is not a date
                doc["date"] = date.group(1) + "T00:00:00Z"
        yield doc


# --- reStructuredText sources of the HTML docs --------------------------------------

def is_heading(lines, i):
    """Line i is a section title: flush left, underlined by an adornment at least as long."""
    line = lines[i]
    if i + 1 >= len(lines) or not line.strip() or line.startswith(" ") or ADORNMENT.match(line):
        return False
    under = lines[i + 1]
    return bool(ADORNMENT.match(under)) and len(under.rstrip()) >= len(line.rstrip())


def rst_sections(text):
    """Split a page into (title, body) pairs; the first pair is the text before any
    heading and has title None. Over- and underlines are dropped from the bodies."""
    lines = text.split("\n")
    sections = []
    title, body = None, []
    i = 0
    while i < len(lines):
        if is_heading(lines, i):
            if body and ADORNMENT.match(body[-1]):
                body.pop()  # the heading's overline
            sections.append((title, body))
            title, body = lines[i].strip(), []
            i += 2
        else:
            body.append(lines[i])
            i += 1
    sections.append((title, body))
    return [(t, "\n".join(line.rstrip() for line in b).strip("\n")) for t, b in sections]


def rst_pages(folder):
    """Paths of the page sources under `folder`, relative and sorted."""
    pages = []
    for dirpath, _, filenames in os.walk(folder):
        for name in filenames:
            if name.endswith(".txt"):
                pages.append(os.path.relpath(os.path.join(dirpath, name), folder))
    return sorted(pages)


def rst_docs(source, root, folder):
    """One document per section with enough text; ids number sections within a page."""
    folder = os.path.join(root, folder)
    for page in rst_pages(folder):
        with open(os.path.join(folder, page), encoding="utf-8", errors="replace") as f:
            text = f.read()
        page_id = page[:-len(".rst.txt")] if page.endswith(".rst.txt") else page
        page_title = None
        for number, (title, body) in enumerate(rst_sections(text)):
            page_title = page_title or title
            if len(body.strip()) < MIN_SECTION_CHARS:
                continue
            yield {
                "id": "%s:%s#%d" % (source, page_id, number),
                "source": source,
                "title": title or page_title or page,
                "headwords": [title] if title else [],
                "body": body,
                "body_chars": len(body),
                "path": page,
            }


def all_docs(root, counts):
    """Every document of the corpus, source by source; tallies them into `counts`."""
    sources = [dictd_docs(s, root) for s in DICTD_SOURCES]
    sources += [rst_docs(s, root, folder) for s, folder in RST_SOURCES]
    for docs in sources:
        for doc in docs:
            counts[doc["source"]] = counts.get(doc["source"], 0) + 1
            yield doc


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_source_arguments(parser, "DIR/usr/share/...")
    parser.add_argument("-o", "--out", default=os.path.join(HERE, "english-text", "english-text.jsonl.gz"))
    args = parser.parse_args()

    started = time.monotonic()
    work_dir = tempfile.mkdtemp(prefix="loupe-english-text-")
    try:
        root = package_root(args, work_dir, FIXTURE_VERSIONS)
        counts = {}
        n, raw_bytes = write_jsonl_gz(args.out, all_docs(root, counts))
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)
    print("per source: %s" % ", ".join("%s %d" % kv for kv in counts.items()), file=sys.stderr)
    print("wrote %d docs (%d bytes of JSON Lines) to %s in %.1f s"
          % (n, raw_bytes, args.out, time.monotonic() - started), file=sys.stderr)


if __name__ == "__main__":
    main()
