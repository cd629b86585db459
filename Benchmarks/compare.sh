#!/bin/sh
# Loupe vs tantivy vs SQLite FTS5; compare.py makes its own venv on first use. Options: compare.sh --help
exec python3 "$(dirname "$0")/compare.py" "$@"
