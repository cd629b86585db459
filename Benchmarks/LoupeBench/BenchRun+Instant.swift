import Foundation
import Loupe

/// The instant-search rows (issue #12): what a search bar costs per keystroke.
///
/// Input: the first `--instant-queries` plain-word queries of the query file (words of letters and digits only:
/// no field, quote, operator, range, regex or `~`), and of each every prefix a user types on the way, spaces
/// included ("t", "th", "the", "the ", "the q", …).
///
/// What is timed, per prefix, on one thread, on a searcher opened before the clock starts: (a) `instantSearch(prefix,
/// limit: 10, facets: [FACET] or [], suggestions: 5)` plus `hit.snippet(first default field, maxChars: 150)` for
/// every hit (what a search bar shows); (b) `suggest(prefix, limit: 5)` alone. One warm-up pass over every prefix,
/// then `--repeat` passes; each pass types every prefix in order with (a), then again with (b). Reported: p50, p90,
/// p99 and max over the prefixes of each prefix's minimum over the passes (and the same over every sample).
extension BenchRun {
    func instant(
        _ facet: BenchOptions.InstantFacet, queries: [BenchQuery], directory: String
    ) -> BenchReport.InstantResult {
        let texts = queries.map(\.text).filter(Self.isPlainWords).prefix(options.instantQueries)
        let prefixes = texts.flatMap { text in (1...text.count).map { String(text.prefix($0)) } }
        var result = BenchReport.InstantResult(
            facet: facet.name, queries: texts.count, prefixes: prefixes.count, repetitions: options.repetitions)
        do {
            let searcher = try Index(path: directory).searcher()
            guard let field = searcher.schema.defaultFields.first,
                searcher.schema.field(named: field)?.stored == true
            else {
                throw BenchRun.InstantError(
                    message: "snippets read the first default field's stored text: store it (compare.py --stored all)")
            }
            result.snippetField = field
            let facets = facet.name.map { [$0] } ?? []
            let clock = ContinuousClock()
            var instantTimes = [[Double]](repeating: [], count: prefixes.count)
            var suggestTimes = [[Double]](repeating: [], count: prefixes.count)
            // The two calls type the prefixes in separate sequences: each keystroke finds what the keystroke before
            // it left in the searcher's caches (`KeystrokeCache`), as in a search bar, and `suggest` never finds
            // what `instantSearch` just expanded for the same prefix.
            for pass in 0...options.repetitions {
                for (i, prefix) in prefixes.enumerated() {
                    let start = clock.now
                    let found = try searcher.instantSearch(prefix, limit: 10, facets: facets, suggestions: 5)
                    var snippets = 0
                    for hit in found where hit.snippet(field, maxChars: 150) != nil { snippets += 1 }
                    let searched = clock.now
                    if pass == 0 {
                        result.hits += found.count
                        result.matches += found.totalCount
                        result.snippets += snippets
                    } else {
                        instantTimes[i].append((searched - start).micros)
                    }
                }
                for (i, prefix) in prefixes.enumerated() {
                    let start = clock.now
                    let suggestions = try searcher.suggest(prefix, limit: 5)
                    let suggested = clock.now
                    if pass == 0 {
                        result.suggestions += suggestions.count
                    } else {
                        suggestTimes[i].append((suggested - start).micros)
                    }
                }
            }
            result.instantSearch = .init(perPrefixMinimum: instantTimes.map { $0.min() ?? 0 }, all: instantTimes)
            result.suggest = .init(perPrefixMinimum: suggestTimes.map { $0.min() ?? 0 }, all: suggestTimes)
            result.byLastWordLength = Dictionary(grouping: prefixes.indices) { Self.lastWordLength(prefixes[$0]) }
                .mapValues { group in
                    (
                        BenchReport.Latencies(group.map { instantTimes[$0].min() ?? 0 }),
                        BenchReport.Latencies(group.map { suggestTimes[$0].min() ?? 0 })
                    )
                }
            result.slowest = zip(prefixes, instantTimes).map { ($0, $1.min() ?? 0) }.sorted { $0.1 > $1.1 }
                .prefix(10).map { $0 }
        } catch let error as IndexError {
            result.error = error.message
        } catch {
            result.error = "\(error)"
        }
        return result
    }

    /// Why the instant rows could not run (the rest of the run's results still get written).
    struct InstantError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// How many characters of its last word `prefix` has typed (0 after a space), 8 standing for 8 or more: typo
    /// budgets and prefix expansions depend on it.
    static func lastWordLength(_ prefix: String) -> Int {
        min(8, prefix.reversed().prefix { $0 != " " }.count)
    }

    /// Whether `text` is words of letters and digits only, as typed into a search bar: no field, quote, boolean
    /// operator (`+`, `-`, AND, OR, NOT), range, regex, wildcard or fuzzy `~`.
    static func isPlainWords(_ text: String) -> Bool {
        let words = text.split(separator: " ")
        return !words.isEmpty
            && words.allSatisfy { word in
                !["AND", "OR", "NOT"].contains(word) && word.allSatisfy { $0.isLetter || $0.isNumber }
            }
    }
}
