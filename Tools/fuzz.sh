#!/usr/bin/env bash
# Fuzzes the engine's input formats with libFuzzer (issue #14): query strings, JSON and JSONL documents, schema JSON,
# aggregation JSON and every segment file, through the bodies of Tests/Fuzz/LoupeFuzzing (`FuzzTarget`).
#
# Usage, from anywhere in the repository:
#   Tools/fuzz.sh [--runs N] [--time SECONDS] [--no-build] [TARGET...]   fuzz each TARGET (default: all), in turn
#   Tools/fuzz.sh --merge TARGET                                         minimize TARGET's corpus
#   Tools/fuzz.sh --list                                                 print the targets
#
# TARGET is a `FuzzTarget` raw value: query, json-document, schema, aggregation, segment-terms, segment-postings,
# segment-positions, segment-norms, segment-store, segment-fast, segment-del. Each runs for N inputs (-runs,
# default 100000) or SECONDS (-max_total_time, default 600), whichever ends first; an input that takes over 10 s is a
# hang. It all happens in .build-fuzz/ (a release build of everything with -sanitize=fuzzer,address):
#   corpus/TARGET/   the inputs libFuzzer found that reach new code (grows from run to run)
#   seeds/TARGET/    the target's built-in seeds (valid inputs: a query, a document, the valid segment file…)
#   crashes/TARGET/  crash-…, timeout-… and oom-… inputs, each a finding to replay and fix
#   merged/TARGET/   after --merge: the corpus minimized to the inputs that keep its coverage
# The inputs committed in Tests/LoupeTests/Fixtures/fuzz/TARGET/ seed the run too; FuzzRegressionTests replays them.
# Reproduce a finding with `LOUPE_FUZZ_TARGET=TARGET .build-fuzz/loupe-fuzz CRASH_FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

targets=(query json-document schema aggregation segment-terms segment-postings segment-positions segment-norms
    segment-store segment-fast segment-del)
scratch=.build-fuzz
binary=$scratch/loupe-fuzz
runs=100000
time=600
build=1
merge=""
chosen=()
while (($#)); do
    case "$1" in
    --runs) runs=$2; shift 2 ;;
    --time) time=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --merge) merge=$2; shift 2 ;;
    --list) printf '%s\n' "${targets[@]}"; exit 0 ;;
    -*) echo "usage: Tools/fuzz.sh [--runs N] [--time SECONDS] [--no-build] [--merge TARGET] [TARGET...]" >&2; exit 64 ;;
    *) chosen+=("$1"); shift ;;
    esac
done
((${#chosen[@]})) || chosen=("${targets[@]}")

if ((build)); then
    # SwiftPM builds the modules, instrumented; swiftc links them with the entry point, because SwiftPM would link
    # an executable against its own `main` (`--defsym main=<module>_main` on Linux) where libFuzzer brings one.
    swift build -c release --scratch-path "$scratch" --target LoupeFuzzing -Xswiftc -sanitize=fuzzer,address
    products=$(swift build -c release --scratch-path "$scratch" --show-bin-path)
    objects=()
    for module in LoupeCodec LoupeAnalysis LoupeQueryGrammar LoupeAutomata Loupe LoupeFuzzing; do
        objects+=("$products/$module.build"/*.o)
    done
    swiftc -O -parse-as-library -sanitize=fuzzer,address -strict-memory-safety -warnings-as-errors \
        -I "$products/Modules" -Xcc -fmodule-map-file=Sources/CZlib/module.modulemap \
        Tests/Fuzz/libFuzzer/*.swift "${objects[@]}" -lz -o "$binary.new"
    # A rename, so that a run still going on keeps its binary.
    mv "$binary.new" "$binary"
fi

# Swift's backtracer would hold each crash for seconds; libFuzzer and ASan print the stack themselves. Leak
# detection is off: the runtime's metadata caches and the engine's shared caches outlive every input.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=detect_leaks=0:handle_abort=1

if [[ -n $merge ]]; then
    rm -rf "$scratch/merged/$merge"
    mkdir -p "$scratch/merged/$merge"
    LOUPE_FUZZ_TARGET=$merge "$binary" -merge=1 "$scratch/merged/$merge" "$scratch/corpus/$merge" \
        "$scratch/seeds/$merge"
    exit 0
fi

# A target that finds something stops (libFuzzer ends at the first crash); the others still run, and the script
# then exits 1.
found=()
for target in "${chosen[@]}"; do
    mkdir -p "$scratch/corpus/$target" "$scratch/seeds/$target" "$scratch/crashes/$target"
    corpora=("$scratch/corpus/$target" "$scratch/seeds/$target")
    fixtures=Tests/LoupeTests/Fixtures/fuzz/$target
    [[ -d $fixtures ]] && corpora+=("$fixtures")
    # Short inputs for the text formats (a longer one rarely reaches new code, and costs more); the segment files
    # take libFuzzer's default, the size of the largest seed.
    case $target in
    query) length=(-max_len=256) ;;
    aggregation) length=(-max_len=512) ;;
    json-document) length=(-max_len=1024) ;;
    schema) length=(-max_len=2048) ;;
    *) length=() ;;
    esac
    echo "== $target: up to $runs inputs or $time s"
    LOUPE_FUZZ_TARGET=$target LOUPE_FUZZ_SEEDS=$scratch/seeds/$target "$binary" -runs="$runs" \
        -max_total_time="$time" "${length[@]}" -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 -print_final_stats=1 \
        -artifact_prefix="$scratch/crashes/$target/" "${corpora[@]}" || found+=("$target")
done
if ((${#found[@]})); then
    echo "findings in ${found[*]}: see $scratch/crashes/" >&2
    exit 1
fi
