"""The instant-search block of the report (issue #12), Loupe only: tantivy, Lucene and FTS5 have no
search-as-you-type or suggestion API to set beside it.

loupe-bench times, per keystroke prefix of the first --instant-queries plain-word queries ("t", "th", "the", "the ",
…), `instantSearch` (top 10, facet counts, 5 suggestions, a 150-character snippet per hit) and `suggest` (5), one
warm-up pass, then --repeat passes; the figures are percentiles over the prefixes of each prefix's fastest pass
(BenchRun+Instant.swift). The quality figure is the share of fuzzy.txt's half-typed misspellings that `suggest`
completes to the word meant (BenchRun+SuggestQuality.swift).
"""

# The figures the block shows: (label, record key, percentiles).
ROWS = (("instantSearch + snippets", "instant_search_us", ("p50", "p90", "p99", "max")),
        ("suggest", "suggest_us", ("p50", "p90", "p99", "max")))


def us(value):
    """A latency cell in µs: one decimal under 100, none above (the slowest prefixes take tens of ms)."""
    return f"{value:,.{1 if value < 100 else 0}f}"


def instant_lines(results):
    """The "Instant search" block, or nothing when Loupe ran without --instant; stores its figures in
    results["instant"]."""
    loupe = results["engines"].get("loupe") or {}
    instant, quality = loupe.get("instant"), loupe.get("suggest_quality")
    if instant is None and quality is None:
        return []
    lines = ["Instant search (Loupe only: tantivy, Lucene and FTS5 have no search-as-you-type or suggestion API)"]
    figures = {}
    if instant is not None and instant.get("status") != "ok":
        lines.append(f"  not run: {instant.get('error')}")
    elif instant is not None:
        lines.append(f"  {instant['prefixes']} keystroke prefixes of {instant['queries']} plain-word queries; facets: "
                     f"{instant.get('facet') or 'none'}; µs, each prefix's fastest of {instant['repeat']} passes")
        head = f"  {'call':<26}" + "".join(f"{p:>10}" for p in ("p50", "p90", "p99", "max"))
        lines += [head, "  " + "-" * (len(head) - 2)]
        for label, key, percentiles in ROWS:
            timing = instant[key]["per_prefix_min"]
            lines.append(f"  {label:<26}" + "".join(f"{us(timing[p]):>10}" for p in percentiles))
            figures[key] = {p: timing[p] for p in percentiles}
        figures["prefixes"] = instant["prefixes"]
        by_length = sorted(instant["by_last_word_length"].items(), key=lambda item: int(item[0]))
        lines.append("  instantSearch p50 / p99 by characters typed of the last word (0: after a space; 8: 8+): "
                     + ", ".join(f"{n}: {us(t['instant_search_us']['p50'])} / {us(t['instant_search_us']['p99'])}"
                                 for n, t in by_length))
        slowest = ", ".join(f"{s['prefix']!r} {us(s['us'])}" for s in instant["slowest_instant_search"][:5])
        lines.append(f"  slowest instantSearch prefixes (µs): {slowest}")
    if quality is not None:
        by_typos = ", ".join(f"{typos}: {c['passed']}/{c['cases']}"
                             for typos, c in sorted(quality["by_typos"].items(), key=lambda item: int(item[0])))
        lines.append(f"  suggestion quality: {quality['passed']}/{quality['cases']} = {quality['percent']:.1f}% of "
                     f"half-typed misspellings completed to the word meant (top 5; {quality['lines']} fuzzy lines, "
                     f"{quality['not_in_index']} words not in the index; passed by typos in the typed text: "
                     f"{by_typos})")
        figures["suggest_quality_percent"] = quality["percent"]
    results["instant"] = figures
    return lines
