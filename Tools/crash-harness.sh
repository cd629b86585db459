#!/bin/sh
# Crash-safety harnesses of issue #14, long version. Run from the repository root:
#
#   Tools/crash-harness.sh [TRIALS]          # default 1000 trials per harness
#   LOUPE_CRASH_CONFIG=release Tools/crash-harness.sh 200
#
# - kill -9 (Tests/IdxTests/CrashHarnessTests.swift): runs the built `idx` as child processes (index with
#   --commit-every 40, delete, index again, optimize, gc over movies from Benchmarks/corpora/movies), SIGKILLs one
#   of them after a random delay, then checks `idx check`, that exactly a completed commit's documents are there
#   with every stored field byte-identical to its input line, and that a new `idx index` continues the index.
# - power loss (Tests/LoupeTests/Index/PowerLossTests.swift): a workload of adds, flushes, deletes, commits, a
#   merge and a GC on PowerLossDirectory (Tests/TestSupport), an in-memory file system that drops what was not
#   fsync'd, cut at every one of its file system operations, then at random ones with the survivor scrambled.
#
# Both read LOUPE_CRASH_TRIALS; the default `swift test` runs a few trials of each. Each prints one summary line,
# `CrashHarnessTests: …` and `PowerLossTests: …` (trials, failures), repeated at the end of this script's output.
set -eu
trials="${1:-1000}"
config="${LOUPE_CRASH_CONFIG:-debug}"
log="${TMPDIR:-/tmp}/loupe-crash-harness.$$.log"
swift build -c "$config" --build-tests
status=0
LOUPE_CRASH_TRIALS="$trials" swift test -c "$config" --skip-build --filter 'CrashHarnessTests|PowerLossTests' \
    >"$log" 2>&1 || status=$?
grep -E 'recorded an issue|^↳ (trial|cut at)' "$log" || true
grep -E '^(CrashHarnessTests|PowerLossTests): ' "$log"
echo "full log: $log"
exit "$status"
