#!/usr/bin/env python3
"""LZ4 interoperability fixtures for Tests/LoupeCodecTests/LZ4Tests.swift.

Each NAME.bin is an original; NAME.lz4 is its raw LZ4 block (no frame, no stored size) as the reference
implementation writes it in its default (fast) mode, and NAME.hc.lz4 in its high-compression mode (longer, more
overlapping matches); the Swift tests decode both and compare with NAME.bin. The reference is the `lz4`
package from PyPI (python-lz4, bundling liblz4):

    python3 -m venv /tmp/lz4-venv && /tmp/lz4-venv/bin/pip install lz4
    /tmp/lz4-venv/bin/python make_fixtures.py             # rewrite the originals and the .lz4 blocks
    /tmp/lz4-venv/bin/python make_fixtures.py --check DIR  # decode Loupe's blocks with the reference

The other direction is checked at development time, not by `swift test` (which has no Python): run the Swift
tests with LOUPE_LZ4_EXPORT=DIR, which makes them write NAME.bin and NAME.lz4 (Loupe's compressor) into DIR,
then `--check DIR` decodes every one with the reference and compares.
"""
import gzip
import os
import random
import sys

import lz4.block

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "../../../.."))


def originals():
    with gzip.open(os.path.join(ROOT, "Benchmarks/corpora/movies/movies.jsonl.gz"), "rb") as corpus:
        text = corpus.read(6000)
    rng = random.Random(20261201)
    runs = (b"a" * 1000 + b"ab" * 500 + b"abc" * 300 + b"abcdefg" * 200 + bytes(rng.randrange(256) for _ in range(100))
            + b"\0" * 3000 + b"0123456789abcdefXYZ" * 120)
    return {
        "empty": b"",
        "short": b"hello",
        "movies": text,
        "runs": runs,
        "random": bytes(rng.randrange(256) for _ in range(1500)),
    }


def write():
    for name, data in originals().items():
        with open(os.path.join(HERE, name + ".bin"), "wb") as f:
            f.write(data)
        with open(os.path.join(HERE, name + ".lz4"), "wb") as f:
            f.write(lz4.block.compress(data, store_size=False))
        with open(os.path.join(HERE, name + ".hc.lz4"), "wb") as f:
            f.write(lz4.block.compress(data, mode="high_compression", compression=12, store_size=False))


def check(directory):
    names = sorted(n[:-4] for n in os.listdir(directory) if n.endswith(".lz4"))
    failures = 0
    for name in names:
        with open(os.path.join(directory, name + ".bin"), "rb") as f:
            original = f.read()
        with open(os.path.join(directory, name + ".lz4"), "rb") as f:
            block = f.read()
        try:
            ok = lz4.block.decompress(block, uncompressed_size=len(original)) == original
        except lz4.block.LZ4BlockError:
            ok = False
        failures += not ok
        print(("ok  " if ok else "FAIL"), name, len(original), "->", len(block))
    print(len(names), "blocks,", failures, "failures")
    return failures == 0 and len(names) > 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(0 if check(sys.argv[2]) else 1)
    write()
