#!/usr/bin/env python3
"""Fails when a public symbol declared in Sources/ has no /// comment.

Reads the symbol graphs `swift package dump-symbol-graph --minimum-access-level public` writes (the modules of the
Loupe product: Loupe and the LoupeAnalysis extension points it re-exports). Symbols without a source location are
the standard library's default implementations (Collection's `filter`, Hashable's `hashValue`) and are skipped.
"""
import glob
import json
import sys

graphs = [p for p in glob.glob(".build/*/symbolgraph/*.symbols.json")
          if p.rsplit("/", 1)[1].split(".")[0] in ("Loupe", "LoupeAnalysis")]
if not graphs:
    sys.exit("error: no symbol graph found; run `swift package dump-symbol-graph --minimum-access-level public`")
missing = []
for path in graphs:
    for symbol in json.load(open(path))["symbols"]:
        uri = symbol.get("location", {}).get("uri", "")
        if symbol.get("accessLevel") != "public" or "/Sources/" not in uri or "docComment" in symbol:
            continue
        line = symbol["location"]["position"]["line"] + 1
        missing.append(f"Sources/{uri.split('/Sources/', 1)[1]}:{line}: {'.'.join(symbol['pathComponents'])}")
for entry in sorted(set(missing)):
    print(f"error: public symbol without a /// comment: {entry}", file=sys.stderr)
sys.exit(1 if missing else 0)
