"""The comparison: per query class, one table per timed row (top-10 + exact count + id fetch, pruned top-10,
count), with each engine's p50/p90, Loupe's ratios and the agreement with tantivy; the indexing table; a PNG chart."""
import statistics

from .aggregations import agreement as aggregation_agreement
from .instant import instant_lines
from .measure import COUNT, FLOOR_KEYS, PRUNED, TOP10, median, p90

ENGINES = ("loupe", "tantivy", "lucene", "fts5")
OTHERS = ENGINES[1:]
COLORS = {"tantivy": "#1f77b4", "lucene": "#2ca02c", "fts5": "#ff7f0e"}
LABELS = {"loupe": "Loupe", "tantivy": "tantivy", "lucene": "Lucene", "fts5": "FTS5"}
# Each timed row's table: its title, and Loupe's ratios as (column title, other engine, minus its floor?).
ROWS = ((TOP10, "top-10 + exact count + id fetch",
         (("tan-fl", "tantivy", True), ("tantivy", "tantivy", False), ("Lucene", "lucene", False),
          ("FTS5", "fts5", False))),
        (PRUNED, "top-10 pruned, no exact count, no stored-field fetch",
         (("Lucene", "lucene", False), ("tantivy", "tantivy", False))),
        (COUNT, "count only", (("Lucene", "lucene", False), ("tantivy", "tantivy", False))))
AGREEING = ("loupe", "lucene")  # engines whose hit counts and top-10 are checked against tantivy's


def by_key(engine_result, queries):
    """Our query list → that engine's record (matched by text and occurrence), or None."""
    seen, index = {}, {}
    for q in (engine_result or {}).get("queries", []):
        k = (q["query"], seen.get(q["query"], 0))
        seen[q["query"]] = k[1] + 1
        index[k] = q
    seen, out = {}, []
    for _, text in queries:
        k = (text, seen.get(text, 0))
        seen[text] = k[1] + 1
        out.append(index.get(k))
    return out


def ok(record):
    """The engine answered this query and timed it."""
    return record is not None and record.get("status") == "ok" and record.get(TOP10) is not None


def ratio(a, b):
    """a / b, or None when either side is missing (or b is not positive)."""
    return a / b if a is not None and b is not None and b > 0 else None


def paired_ratio(mine, theirs, key, floor=0.0):
    """Median of Loupe's `key` over (median of the other's − floor), on the queries both timed in that row."""
    pairs = [(a[key], b[key]) for a, b in zip(mine, theirs)
             if ok(a) and ok(b) and a.get(key) is not None and b.get(key) is not None]
    if not pairs:
        return None
    return ratio(median([a for a, _ in pairs]), median([b for _, b in pairs]) - floor)


def overlap(a, b):
    """|A∩B| / max(|A|, |B|) of two top-10 id lists; two empty lists agree."""
    a, b = [str(x) for x in a or []], [str(x) for x in b or []]
    return 1.0 if not a and not b else len(set(a) & set(b)) / max(len(a), len(b))


def fmt(value, digits=0, suffix=""):
    """A table cell: thousands separators, "-" for missing."""
    return "-" if value is None else f"{value:,.{digits}f}{suffix}"


def fmt_us(value):
    """A latency cell in µs: one decimal under 100 (floors and pruned searches take a few µs), none above."""
    return fmt(value, 1 if value is not None and value < 100 else 0)


def floor_of(engine, key):
    """An engine record's binding floor (µs) for one timed row, or None."""
    return ((engine or {}).get("floor_us") or {}).get(FLOOR_KEYS[key])


def index_table(engines, names):
    """Indexing and opening, one row per engine, then Loupe's ratios to each other engine."""
    columns = (("docs/s", 10, 0, lambda e: e["index"]["docs_per_s"]),
               ("MB/s", 8, 1, lambda e: e["index"]["mb_per_s"]),
               ("size MB", 9, 1, lambda e: e["index"]["size_bytes"] / 1e6),
               ("segs", 6, 0, lambda e: e["index"].get("segments")),
               ("RSS MB", 8, 0, lambda e: e["index"].get("peak_rss_mb")),
               ("open p50 ms", 13, 2, lambda e: e["open"]["median_ms"]))
    head = f"{'indexing':<18}" + "".join(f"{title:>{width}}" for title, width, _, _ in columns)
    lines = [head, "-" * len(head)]
    for name in names:
        lines.append(f"{name:<18}" + "".join(f"{fmt(get(engines[name]), digits):>{width}}"
                                             for _, width, digits, get in columns))
    for other in OTHERS:
        if "loupe" in names and other in names:
            cells = [ratio(get(engines["loupe"]), get(engines[other])) if title != "segs" else None
                     for title, _, _, get in columns]
            lines.append(f"{'Loupe/' + other:<18}" + "".join(f"{fmt(r, 2, 'x'):>{c[1]}}"
                                                             for r, c in zip(cells, columns)))
    return lines


def agreement(picked, rows, name):
    """{n, count_agreement, top10_overlap} of engine `name` against tantivy over the queries `picked`."""
    both = [(rows[name][i], rows["tantivy"][i]) for i in picked if ok(rows[name][i]) and ok(rows["tantivy"][i])]
    return {"n": len(both),
            "count_agreement": statistics.fmean(a["count"] == b["count"] for a, b in both) if both else None,
            "top10_overlap": statistics.fmean(overlap(a["top10"], b["top10"]) for a, b in both) if both else None}


def row_table(queries, rows, engines, key, title, ratio_specs):
    """One timed row's table: per class, each engine's p50/p90 of its per-query medians of `key` (the top-10
    row also counts the answered queries), Loupe's ratios, and for the top-10 row the agreement with tantivy.

    Returns (lines, {class: {engine: agreement}}, {class: {ratio title: value}})."""
    names = [e for e in ENGINES if e in rows]
    top = key == TOP10
    specs = [spec for spec in ratio_specs if "loupe" in rows and spec[1] in rows]
    checked = [e for e in AGREEING if e in rows] if top and "tantivy" in rows else []
    group = (f"{'ok':>4}" if top else "") + f"{'p50':>8}{'p90':>8}"
    head1 = f"{'':<17} |" + "".join(f"{name:^{len(group)}} |" for name in names)
    head2 = f"{'class':<13}{'n':>4} |" + f"{group} |" * len(names)
    if specs:
        head1 += f"{'Loupe /':^{8 * len(specs)}}|"
        head2 += "".join(f"{label:>8}" for label, _, _ in specs) + "|"
    if checked:
        head1 += f"{'=count':^{7 * len(checked)}}|{'ovl10':^{7 * len(checked)}}"
        head2 += "".join(f"{LABELS[e]:>7}" for e in checked) + "|" + "".join(f"{LABELS[e]:>7}" for e in checked)
    lines = [f"{title} (µs)", head1, head2, "-" * len(head2)]
    agreements, ratios = {}, {}
    for cls in list(dict.fromkeys(cls for cls, _ in queries)) + ["all"]:
        picked = [i for i, (c, _) in enumerate(queries) if cls in ("all", c)]
        cells = f"{cls:<13}{len(picked):>4} |"
        for name in names:
            answered = [rows[name][i] for i in picked if ok(rows[name][i])]
            values = [q[key] for q in answered if q.get(key) is not None]
            cells += (f"{len(answered):>4}" if top else "") + f"{fmt_us(median(values)):>8}{fmt_us(p90(values)):>8} |"
        mine = [rows["loupe"][i] for i in picked] if "loupe" in rows else []
        for label, other, minus_floor in specs:
            floor = floor_of(engines.get(other), key) if minus_floor else 0.0
            value = None if floor is None else paired_ratio(mine, [rows[other][i] for i in picked], key, floor)
            ratios.setdefault(cls, {})[label] = value
            cells += f"{fmt(value, 2):>8}"
        cells += "|" if specs else ""
        found = {e: agreement(picked, rows, e) for e in checked}
        agreements[cls] = found
        cells += "".join(f"{fmt(found[e]['count_agreement'], 2):>7}" for e in checked)
        cells += ("|" if checked else "") + "".join(f"{fmt(found[e]['top10_overlap'], 2):>7}" for e in checked)
        if cls == "all":
            lines.append("-" * len(head2))
        lines.append(cells)
    return lines, agreements, ratios


def floor_line(engines, names, run):
    """Each engine's binding floor, the three rows' µs on the absent-term query."""
    parts = []
    for name in names:
        floors = engines[name].get("floor_us")
        cells = " / ".join(fmt_us(floor_of(engines[name], key)) for key, _, _ in ROWS) if floors else "-"
        parts.append(f"{name} {cells}")
    return (f"binding floor (µs, top-10 / pruned / count, on `{run.get('floor_query', 'an absent term')}`): "
            + "; ".join(parts))


def latency_tables(queries, rows, engines):
    """The three tables and their legend. Returns (lines, agreements from the top-10 table, chart ratios)."""
    lines, agreements, chart = [], {}, {}
    for key, title, specs in ROWS:
        table, found, ratios = row_table(queries, rows, engines, key, title, specs)
        lines += table + [""]
        if key == TOP10:
            agreements = found
        for cls, values in ratios.items():
            for label, value in values.items():
                chart.setdefault((key, label), {})[cls] = value
    lines += ["p50/p90: of the per-query median µs over the timed passes; ok: queries answered. Loupe / x: median "
              "Loupe µs over median x µs, on the queries both timed in that row; tan-fl: over tantivy's minus its "
              "binding floor.",
              "=count: share of queries whose hit count equals tantivy's; ovl10: mean |A∩B|/max(|A|,|B|) of the "
              "top-10 ids against tantivy's. \"-\": not timed (FTS5 has no fuzzy, regex, range or field_value "
              "query here). FTS5 cannot prune: its pruned row is ORDER BY rank LIMIT 10 without the id lookup."]
    return lines, agreements, chart


def ranking(flags):
    """(precision, reciprocal rank) of one top-10 list given as relevance flags; no hits scores 0 and 0."""
    first = next((rank for rank, relevant in enumerate(flags, 1) if relevant), None)
    return (sum(flags) / len(flags) if flags else 0.0), (1 / first if first else 0.0)


def fuzzy_ranking(fuzzy, queries, rows, relevant):
    """Per engine, over the fuzzy queries it answered: mean P@10 and MRR of the hits holding the intended word.

    `relevant` ({query: ids}) comes from the tantivy worker's term queries; without it nothing can be judged."""
    if not fuzzy or relevant is None:
        return None
    intended = {f["query"]: f["intended"] for f in fuzzy}
    judged = {query: set(map(str, ids)) for query, ids in relevant.items()}
    summary, per_query = {}, []
    for name in ("loupe", "tantivy", "lucene"):
        if name not in rows:
            continue
        scores = []
        for (cls, text), record in zip(queries, rows[name]):
            if cls != "fuzzy" or text not in judged or not ok(record):
                continue
            flags = [str(doc_id) in judged[text] for doc_id in record["top10"]]
            scores.append(ranking(flags))
            per_query.append({"engine": name, "query": text, "intended": intended.get(text),
                              "relevant_in_top10": [int(f) for f in flags], "relevant_docs": len(judged[text])})
        summary[name] = {"n": len(scores), "p_at_10": statistics.fmean(p for p, _ in scores) if scores else None,
                         "mrr": statistics.fmean(r for _, r in scores) if scores else None}
    return {"engines": summary, "queries": per_query}


def fuzzy_lines(figures, total):
    """The fuzzy ranking block under the query tables."""
    if figures is None:
        return ["fuzzy ranking: needs the tantivy engine, whose term queries judge which hits hold the intended word"]
    parts = []
    for name, f in figures["engines"].items():
        answered = "" if f["n"] == total else f" ({f['n']}/{total} answered)"
        parts.append(f"{LABELS[name]} P@10 {fmt(f['p_at_10'], 2)}, MRR {fmt(f['mrr'], 2)}{answered}")
    return ["fuzzy ranking: " + "; ".join(parts),
            "  P@10: share of the top-10 hits holding the intended word in a listed field (a query without hits "
            "scores 0); MRR: mean 1/rank of the first such hit."]


def differing_counts(queries, rows, name, title):
    """The queries engine `name` and tantivy both answered with different hit counts (the first 20)."""
    mine, tantivy = rows.get(name), rows.get("tantivy")
    if not mine or not tantivy:
        return []
    differ = [(cls, text, a["count"], b["count"]) for (cls, text), a, b in zip(queries, mine, tantivy)
              if ok(a) and ok(b) and a["count"] != b["count"]]
    if not differ:
        return []
    return ([f"\n{title}, {LABELS[name]} vs tantivy ({len(differ)} queries"
             + (", first 20):" if len(differ) > 20 else "):")]
            + [f"  {cls:<13} {text:<55} {name:<6} {a:>8,}  tantivy {b:>8,}" for cls, text, a, b in differ[:20]])


def unanswered(queries, rows, name):
    """What engine `name` did not answer: a count per status, then the first message per class and status."""
    missed = [((r or {}).get("status", "?") if r else "missing", cls, (r or {}).get("error"))
              for (cls, _), r in zip(queries, rows[name]) if not ok(r)]
    if not missed:
        return []
    statuses = [status for status, _, _ in missed]
    lines = [f"{name} did not answer {len(statuses)} queries: "
             + ", ".join(f"{statuses.count(s)} {s}" for s in sorted(set(statuses)))]
    first = {}  # one message per class and status, so a new failure mode is visible in the table
    for status, cls, error in missed:
        first.setdefault((cls, status), error)
    return lines + [f"  {cls} {status}: {str(error)[:110]}" for (cls, status), error in first.items() if error]


def per_engine(agreements):
    """{class: {engine: figures}} → {engine: {class: figures}}, as the results JSON keeps them."""
    out = {}
    for cls, found in agreements.items():
        for name, figures in found.items():
            out.setdefault(name, {})[cls] = figures
    return out


def update_lines(results, queries, names):
    """The update-heavy block: each engine's upsert phase, then the query tables again on the updated indexes.

    Stores the agreement after the updates in results["agreement_with_tantivy_after_updates"]."""
    engines, plan = results["engines"], results["run"]["updates"]
    updated = [name for name in names if "updates" in engines[name]]
    columns = (("upserts/s", 11, 0, lambda u: u["upserts_per_s"]),
               ("commits", 9, 0, lambda u: u["commits"]),
               ("segs", 6, 0, lambda u: u["segments"]),
               ("size MB", 9, 1, lambda u: u["size_bytes"] / 1e6),
               ("live docs", 11, 0, lambda u: u["docs"]),
               ("failed", 8, 0, lambda u: u["failed"]))
    head = f"{'updates':<18}" + "".join(f"{title:>{width}}" for title, width, _, _ in columns)
    lines = [f"update-heavy: {plan['upserts']:,} upserts ({plan['distinct_docs']:,} distinct docs, seed "
             f"{plan['seed']}) in batches of {plan['batch']}, a commit after each: delete by {plan['id_field']}, "
             f"re-add with {plan['field']} += \"{plan['word']}\"", head, "-" * len(head)]
    for name in updated:
        lines.append(f"{name:<18}" + "".join(f"{fmt(get(engines[name]['updates']), digits):>{width}}"
                                             for _, width, digits, get in columns))
    if "loupe" in updated and "tantivy" in updated:
        mine, theirs = engines["loupe"]["updates"], engines["tantivy"]["updates"]
        cells = [ratio(get(mine), get(theirs)) if title in ("upserts/s", "size MB") else None
                 for title, _, _, get in columns]
        lines.append(f"{'Loupe/tantivy':<18}" + "".join(f"{fmt(r, 2, 'x'):>{c[1]}}" for r, c in zip(cells, columns)))
    lines += ["upserts/s: wall time from writer creation to the last commit and its merges (> 1 in the ratio: Loupe "
              "faster); size: the index folder after the phase.", "", "queries after the updates:"]
    rows = {name: by_key(engines[name]["updates"], queries) for name in updated}
    tables, agreements, _ = latency_tables(queries, rows, engines)
    lines += tables
    if "loupe" in rows and "tantivy" in rows:
        lines.append("After the updates the engines' segments differ, so hits with equal scores (ranges, string "
                     "terms) come in another doc order: ovl10 drops there; =count is the check.")
    lines += differing_counts(queries, rows, "loupe", "Hit counts that differ after the updates")
    results["agreement_with_tantivy_after_updates"] = per_engine(agreements)
    return lines


def aggregation_lines(results):
    """The facet and aggregation table (Loupe beside tantivy, one line per row), its legend and a WARNING line
    per row whose answers differ; stores per row the figures and the agreement in results["aggregations"]."""
    engines = results["engines"]
    mine = {r["name"]: r for r in (engines.get("loupe") or {}).get("aggregations") or []}
    theirs = {r["name"]: r for r in (engines.get("tantivy") or {}).get("aggregations") or []}
    names = list(dict.fromkeys([*mine, *theirs]))
    if not names:
        return []
    plan = results["run"].get("aggregations") or {}
    rounds = results["run"].get("rounds", 1)
    head = (f"{'row':<44}{'hits':>8} |{'Loupe':>9}{'floor':>7} |{'tantivy':>9}{'floor':>7} |"
            f"{'L/tan':>7}{'tan-fl':>7} | agree")
    lines = [f"facets and aggregations (µs: median of {plan.get('repeat', '?')} passes"
             + (f", best of {rounds} rounds" if rounds > 1 else "") + f"; selective query "
             f"`{plan.get('selective_query', '?')}`)", head, "-" * len(head)]
    warnings, figures = [], {}
    for name in names:
        a, b = mine.get(name), theirs.get(name)
        ok_a = a is not None and a.get("status") == "ok" and a.get("latency_us_median") is not None
        ok_b = b is not None and b.get("status") == "ok" and b.get("latency_us_median") is not None
        hits = (a or b or {}).get("hits")
        plain = ratio(a["latency_us_median"], b["latency_us_median"]) if ok_a and ok_b else None
        minus = (ratio(a["latency_us_median"], b["latency_us_median"] - (b.get("floor_us") or 0.0))
                 if ok_a and ok_b else None)
        agree, note = (aggregation_agreement((a or b)["kind"], a.get("result"), b.get("result"))
                       if ok_a and ok_b else (None, "not answered by both"))
        if ok_a and ok_b and a.get("hits") != b.get("hits"):
            agree, note = False, f"hit counts differ: Loupe {a.get('hits')}, tantivy {b.get('hits')}; " + note
        label = "-" if agree is None else ("yes" if agree else "NO")
        if agree and note:
            label = "yes*"
        lines.append(f"{name:<44}{fmt(hits):>8} |{fmt_us(a.get('latency_us_median') if ok_a else None):>9}"
                     f"{fmt_us(a.get('floor_us') if ok_a else None):>7} |"
                     f"{fmt_us(b.get('latency_us_median') if ok_b else None):>9}"
                     f"{fmt_us(b.get('floor_us') if ok_b else None):>7} |{fmt(plain, 2):>7}{fmt(minus, 2):>7} | {label}")
        for engine, record in (("Loupe", a), ("tantivy", b)):
            if record is not None and record.get("status") != "ok":
                warnings.append(f"  {name}: {engine} did not answer: {record.get('error')}")
        if agree is False:
            warnings.append(f"WARNING: {name}: Loupe's answer differs from tantivy's: {note}")
        elif agree and note:
            warnings.append(f"  {name} (yes*): {note}")
        figures[name] = {"query": (a or b or {}).get("query"), "hits": hits,
                         "loupe_us": a.get("latency_us_median") if ok_a else None,
                         "loupe_floor_us": a.get("floor_us") if ok_a else None,
                         "tantivy_us": b.get("latency_us_median") if ok_b else None,
                         "tantivy_floor_us": b.get("floor_us") if ok_b else None,
                         "loupe_over_tantivy": plain, "loupe_over_tantivy_minus_floor": minus,
                         "agree": agree, "note": note}
    results["aggregations"] = figures
    return lines + ["L/tan: Loupe's median over tantivy's; tan-fl: over tantivy's minus its floor. floor: the same "
                    "call over the absent-term query (request decoding, per-segment set-up, empty response; for "
                    "tantivy-py the dict conversions). agree: same buckets, counts and values (floats to 1e-9); "
                    "yes*: equal but for values tied at the cut-off count."] + warnings


def report(results, queries, fuzzy=()):
    """The printed comparison; also stores the agreement (and fuzzy ranking) figures in `results`.

    Returns (text, chart data). The tantivy record's bulky "fuzzy_relevant" id lists are consumed here and
    replaced by per-query relevance flags under results["fuzzy_ranking"]."""
    engines = results["engines"]
    relevant = engines["tantivy"].pop("fuzzy_relevant", None) if "tantivy" in engines else None
    names = [e for e in ENGINES if e in engines]
    rows = {e: by_key(engines[e], queries) for e in names}
    corpus, run = results["corpus"], results["run"]
    lines = [f"corpus {run['corpus_name']}: {corpus['docs']:,} docs, {corpus['bytes'] / 1e6:,.1f} MB of JSONL; "
             f"{len(queries)} queries, {run['repeat']} timed passes"
             f"{', best of %d rounds' % run['rounds'] if run.get('rounds', 1) > 1 else ''}; "
             f"stored fields: {run.get('stored', '?')}; "
             f"{run['date']}, {run['machine']}",
             "Ratios are Loupe/other: for latency, size, open time and RSS, < 1 means Loupe is faster/smaller; "
             "for docs/s and MB/s, > 1 means Loupe is faster.", ""]
    lines += index_table(engines, names)
    indexed = {name: engines[name]["index"]["docs"] for name in names}
    if len(set(indexed.values())) > 1:
        lines.append("NOTE: the engines indexed different numbers of docs: "
                     + ", ".join(f"{name} {n:,}" for name, n in indexed.items()))
    lines.append("")
    tables, agreements, chart = latency_tables(queries, rows, engines)
    lines += tables + [floor_line(engines, names, run)]
    if fuzzy:
        figures = fuzzy_ranking(fuzzy, queries, rows, relevant)
        lines += [""] + fuzzy_lines(figures, len(fuzzy))
        if figures is not None:
            results["fuzzy_ranking"] = figures
    for name in AGREEING:
        lines += differing_counts(queries, rows, name, "Hit counts that differ")
    for name in names:
        lines += unanswered(queries, rows, name)
    results["agreement_with_tantivy"] = per_engine(agreements)
    aggregations = aggregation_lines(results)
    if aggregations:
        lines += [""] + aggregations
    instant = instant_lines(results)
    if instant:
        lines += [""] + instant
    if "updates" in run:
        lines += [""] + update_lines(results, queries, names)
    return "\n".join(lines), chart


def ratio_bars(ax, groups, series):
    """Grouped bars growing from 1.0 on a log axis, so a Loupe win points down and a loss points up."""
    values = [v for _, _, vs in series for v in vs if v]
    reach = max([2.0] + [max(v, 1 / v) * 1.4 for v in values])
    width = 0.8 / max(1, len(series))
    for k, (label, color, vs) in enumerate(series):
        xs = [i + (k - (len(series) - 1) / 2) * width for i in range(len(groups))]
        ax.bar([x for x, v in zip(xs, vs) if v], [v - 1 for v in vs if v], width, bottom=1, label=label, color=color)
        for x, v in zip(xs, vs):
            ax.text(x, v or 1.0, f"{v:.2f}" if v else "n/a", ha="center", va="bottom" if (v or 1) >= 1 else "top",
                    fontsize=7)
    ax.set_yscale("log")
    ax.set_ylim(1 / reach, reach)
    exponents = [e for e in range(-10, 11) if 1 / reach <= 2.0 ** e <= reach]
    exponents = [e for e in exponents if e % (1 + len(exponents) // 9) == 0]
    ax.set_yticks([2.0 ** e for e in exponents], [f"{2 ** e}×" if e >= 0 else f"1/{2 ** -e}×" for e in exponents])
    ax.minorticks_off()
    ax.axhline(1.0, color="black", linewidth=1)
    ax.set_xticks(range(len(groups)), groups, rotation=30, ha="right")
    ax.text(0.99, 0.02, "below 1: Loupe better", transform=ax.transAxes, ha="right", fontsize=8, color="dimgray")


# The chart's per-class series: (timed row, ratio column of its table, legend, colour); an empty one is left out.
CHART_SERIES = ((TOP10, "tan-fl", "Loupe / (tantivy − floor), top-10", COLORS["tantivy"]),
                (TOP10, "Lucene", "Loupe / Lucene, top-10", "#98df8a"),
                (PRUNED, "Lucene", "Loupe / Lucene, pruned top-10", COLORS["lucene"]),
                (TOP10, "FTS5", "Loupe / FTS5, top-10", COLORS["fts5"]))


def draw_chart(path, results, chart):
    """Per-class latency ratios (CHART_SERIES) and a small panel of index ratios, all Loupe/other on log axes."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    engines = results["engines"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.5), gridspec_kw={"width_ratios": [3.2, 1]})
    classes = list(dict.fromkeys(cls for values in chart.values() for cls in values))
    series = [(label, color, [chart.get((key, column), {}).get(cls) for cls in classes])
              for key, column, label, color in CHART_SERIES]
    ratio_bars(left, classes, [s for s in series if any(s[2])])
    left.set_ylabel("Loupe / other, median latency (log)")
    left.set_title("Query latency by class (queries both timed)")
    loupe = engines["loupe"]
    others = [o for o in OTHERS if o in engines]
    index_series = [(f"Loupe / {LABELS[o]}", COLORS[o],
                     [ratio(engines[o]["index"]["docs_per_s"], loupe["index"]["docs_per_s"]),
                      ratio(loupe["index"]["size_bytes"], engines[o]["index"]["size_bytes"]),
                      ratio(loupe["open"]["median_ms"], engines[o]["open"]["median_ms"])]) for o in others]
    ratio_bars(right, ["index time\n(1 / docs/s)", "index size", "open p50"], index_series)
    right.set_title("Index and open")
    run = results["run"]
    versions = " vs ".join(f"{LABELS[o]} {engines[o].get('version', '')}" for o in others)
    fig.suptitle(f"Loupe vs {versions} — {run['corpus_name']} ({results['corpus']['docs']:,} docs, stored: "
                 f"{run.get('stored', '?')}) — {run['date']} — {run['machine']}")
    handles, labels = left.get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=len(labels), bbox_to_anchor=(0.5, 0.95), frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    fig.savefig(path, dpi=110)
    plt.close(fig)
