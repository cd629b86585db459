#!/usr/bin/env python3
"""Runs one command and prints its wall time, peak RSS (wait4's ru_maxrss) and peak RssAnon (anonymous memory,
not mmap'd file pages; sampled from /proc every 50 ms), as Benchmarks/growth.py measures each step:

    python3 Benchmarks/peakrss.py COMMAND [ARG ...]

e.g. `python3 Benchmarks/peakrss.py .build/release/idx index /tmp/idx corpus.jsonl --schema S.json --memory-mb 50`.
The command's output goes to this script's; its exit status is this script's when it fails. Linux only (/proc).
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from growth import run_measured  # noqa: E402


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    try:
        seconds, peak_rss, peak_anon = run_measured(sys.argv[1:], stdout=sys.stdout)
    except subprocess.CalledProcessError as failure:
        sys.exit(failure.returncode)
    print(f"wall {seconds:.2f} s, peak RSS {peak_rss} MB, peak RssAnon {peak_anon} MB")


if __name__ == "__main__":
    main()
