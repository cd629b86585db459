import Foundation

extension BenchReport {
    /// Percentiles of a list of latencies in µs (nearest rank, as the per-class p90).
    struct Latencies {
        var p50 = 0.0
        var p90 = 0.0
        var p99 = 0.0
        var max = 0.0
        var mean = 0.0
        var samples = 0

        init(_ values: [Double]) {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return }
            func rank(_ p: Double) -> Double { sorted[Swift.max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1)] }
            (p50, p90, p99, max) = (rank(0.5), rank(0.9), rank(0.99), sorted[sorted.count - 1])
            mean = sorted.reduce(0, +) / Double(sorted.count)
            samples = sorted.count
        }

        var json: [String: Any] { ["p50": p50, "p90": p90, "p99": p99, "max": max, "mean": mean, "samples": samples] }
    }

    /// One timed call over every prefix: percentiles of the per-prefix minimum, and of every sample.
    struct PrefixLatencies {
        var perPrefixMinimum = Latencies([])
        var all = Latencies([])

        init() {}

        init(perPrefixMinimum: [Double], all: [[Double]]) {
            self.perPrefixMinimum = Latencies(perPrefixMinimum)
            self.all = Latencies(all.flatMap { $0 })
        }

        var json: [String: Any] { ["per_prefix_min": perPrefixMinimum.json, "all_samples": all.json] }
    }

    /// What the instant-search rows measured (BenchRun+Instant.swift says how).
    struct InstantResult {
        var facet: String?
        var queries: Int
        var prefixes: Int
        var repetitions: Int
        var error: String?
        var snippetField: String?
        var instantSearch = PrefixLatencies()
        var suggest = PrefixLatencies()
        /// Summed over the prefixes, in the warm-up pass: hits returned, documents matched, hits with a snippet,
        /// suggestions returned.
        var hits = 0
        var matches = 0
        var snippets = 0
        var suggestions = 0
        /// Per number of characters typed of the last word (0: after a space; 8: 8 or more), instantSearch's and
        /// suggest's per-prefix minimums.
        var byLastWordLength: [Int: (instantSearch: Latencies, suggest: Latencies)] = [:]
        /// The ten prefixes whose instantSearch took longest (per-prefix minimum, µs).
        var slowest: [(prefix: String, micros: Double)] = []

        var json: [String: Any] {
            var entry: [String: Any] = [
                "status": error == nil ? "ok" : "error", "facet": facet ?? NSNull(), "queries": queries,
                "prefixes": prefixes, "repeat": repetitions, "snippet_field": snippetField ?? NSNull(),
                "instant_search_us": instantSearch.json, "suggest_us": suggest.json, "hits": hits,
                "matches": matches, "snippets": snippets, "suggestions": suggestions,
                "by_last_word_length": Dictionary(
                    uniqueKeysWithValues: byLastWordLength.map {
                        (
                            "\($0.key)",
                            ["instant_search_us": $0.value.instantSearch.json, "suggest_us": $0.value.suggest.json]
                        )
                    }),
                "slowest_instant_search": slowest.map { ["prefix": $0.prefix, "us": $0.micros] },
                "timed": "instantSearch(limit: 10, facets, suggestions: 5) + snippet(maxChars: 150) per hit; "
                    + "suggest(limit: 5); one thread, one warm-up pass, then `repeat` passes; per_prefix_min: "
                    + "percentiles over the prefixes of each prefix's fastest pass",
            ]
            if let error { entry["error"] = error }
            return entry
        }

        func printSummary() {
            if let error {
                print("instant search: not run: \(error)")
                return
            }
            let a = instantSearch.perPrefixMinimum
            let b = suggest.perPrefixMinimum
            print(
                "instant search (\(prefixes) prefixes of \(queries) queries, facets: \(facet ?? "none"); µs, "
                    + "per-prefix min of \(repetitions)): instantSearch+snippets "
                    + String(format: "p50 %.1f p90 %.1f p99 %.1f max %.1f", a.p50, a.p90, a.p99, a.max)
                    + String(format: "; suggest p50 %.1f p90 %.1f p99 %.1f max %.1f", b.p50, b.p90, b.p99, b.max))
        }
    }
}

extension BenchReport {
    /// What the suggestion-quality cases found (BenchRun+SuggestQuality.swift says how they are built).
    struct SuggestQualityResult {
        struct Failure {
            var typed: String
            var intended: String
            var misspelling: String
            var field: String
            var prefixLength: Int
            /// The distance between the typed text and the intended word's first `prefixLength` characters.
            var typos: Int
            var got: [String]
        }

        var path: String
        /// Lines of the fuzzy file read.
        var lines = 0
        var cases = 0
        var passed = 0
        /// Per distance between the typed text and the intended prefix (0: the misspelling's edits fell after
        /// it), cases and passes.
        var byTypos: [Int: (cases: Int, passed: Int)] = [:]
        /// Intended words no listed text field holds: their lines have no cases.
        var notInIndex: [String] = []
        var failures: [Failure] = []

        var percent: Double { cases == 0 ? 0 : 100 * Double(passed) / Double(cases) }

        var json: [String: Any] {
            [
                "path": path, "lines": lines, "cases": cases, "passed": passed, "percent": percent,
                "by_typos": Dictionary(
                    uniqueKeysWithValues: byTypos.map {
                        ("\($0.key)", ["cases": $0.value.cases, "passed": $0.value.passed])
                    }
                ),
                "not_in_index": notInIndex.count, "not_in_index_words": notInIndex,
                "failures": failures.map { f -> [String: Any] in
                    [
                        "typed": f.typed, "intended": f.intended, "misspelling": f.misspelling, "field": f.field,
                        "prefix_length": f.prefixLength, "typos": f.typos, "got": f.got,
                    ]
                },
                "rule": "typed = the misspelling aligned (OSA) with intended[..<p], p in ceil(0.6 L)...floor(0.8 L); "
                    + "passes when intended is among suggest(typed, field, limit: 5)",
            ]
        }

        func printSummary() {
            print(
                "suggestion quality: \(passed)/\(cases) cases "
                    + String(format: "(%.1f%%)", percent)
                    + " from \(lines) lines (\(notInIndex.count) words not in the index); by typos in the typed text: "
                    + byTypos.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.passed)/\($0.value.cases)" }
                    .joined(separator: ", "))
            for f in failures.prefix(10) {
                print(
                    "  \(f.typed) (\(f.typos) typos) → wanted \(f.intended) (\(f.misspelling)), got "
                        + f.got.joined(separator: ", "))
            }
        }
    }
}
