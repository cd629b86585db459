"""The comparison: one text table (per engine and query class, with Loupe ratios and agreement) and a PNG chart."""
import statistics

from .measure import median, p90

ENGINES = ("loupe", "tantivy", "fts5")
COLORS = {"tantivy": "#1f77b4", "fts5": "#ff7f0e"}
LABELS = {"tantivy": "tantivy", "fts5": "FTS5"}


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
    return record is not None and record.get("status") == "ok" and record.get("latency_us_median") is not None


def ratio(a, b):
    """a / b, or None when either side is missing."""
    return a / b if a is not None and b else None


def paired_ratio(mine, theirs, key):
    """Median of Loupe's latencies over median of the other's, on the queries both answered."""
    pairs = [(a[key], b[key]) for a, b in zip(mine, theirs) if ok(a) and ok(b) and a[key] is not None]
    return ratio(median([a for a, _ in pairs]), median([b for _, b in pairs])) if pairs else None


def overlap(a, b):
    """|A∩B| / max(|A|, |B|) of two top-10 id lists; two empty lists agree."""
    a, b = [str(x) for x in a or []], [str(x) for x in b or []]
    return 1.0 if not a and not b else len(set(a) & set(b)) / max(len(a), len(b))


def fmt(value, digits=0, suffix=""):
    """A table cell: thousands separators, "-" for missing."""
    return "-" if value is None else f"{value:,.{digits}f}{suffix}"


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
    for other in ("tantivy", "fts5"):
        if "loupe" in names and other in names:
            cells = [ratio(get(engines["loupe"]), get(engines[other])) if title != "segs" else None
                     for title, _, _, get in columns]
            lines.append(f"{'Loupe/' + other:<18}" + "".join(f"{fmt(r, 2, 'x'):>{c[1]}}"
                                                             for r, c in zip(cells, columns)))
    return lines


def query_table(queries, rows, names=ENGINES):
    """Per class: each engine's answered count, p50/p90 top-10 and p50 count µs; Loupe ratios; agreement.

    `names` are the engines given columns (all of ENGINES by default, whose chart data draw_chart expects)."""
    missing = [None] * len(queries)
    loupe, tantivy = (rows.get(e, missing) for e in ("loupe", "tantivy"))
    others = [e for e in names if e != "loupe"]
    group = f"{'ok':>4}{'p50':>8}{'p90':>8}{'cnt':>7}"
    head1 = f"{'':<17} |" + "".join(f"{name:^{len(group)}} |" for name in names) + \
        "".join(f"{'Loupe/' + LABELS[o]:^14}|" for o in others) + f"{'vs tantivy':^14}"
    head2 = f"{'class':<13}{'n':>4} |" + f"{group} |" * len(names) + "   top    cnt |" * len(others) + " =count  ovl10"
    lines = [head1, head2, "-" * len(head2)]
    chart, agreement = {}, {}
    classes = list(dict.fromkeys(cls for cls, _ in queries))
    for cls in classes + ["all"]:
        picked = [i for i, (c, _) in enumerate(queries) if cls in ("all", c)]
        cells = f"{cls:<13}{len(picked):>4} |"
        for name in names:
            answered = [rows[name][i] for i in picked if ok(rows[name][i])] if name in rows else []
            top = [q["latency_us_median"] for q in answered]
            cnt = [q["count_latency_us_median"] for q in answered if q.get("count_latency_us_median") is not None]
            cells += (f"{len(answered) if name in rows else '-':>4}{fmt(median(top)):>8}{fmt(p90(top)):>8}"
                      f"{fmt(median(cnt)):>7} |")
        mine = [loupe[i] for i in picked]
        for other in others:
            theirs = [rows.get(other, missing)[i] for i in picked]
            top = paired_ratio(mine, theirs, "latency_us_median")
            chart.setdefault(cls, []).append(top)
            cells += f"{fmt(top, 2):>6}{fmt(paired_ratio(mine, theirs, 'count_latency_us_median'), 2):>7} |"
        both = [(loupe[i], tantivy[i]) for i in picked if ok(loupe[i]) and ok(tantivy[i])]
        same = statistics.fmean(a["count"] == b["count"] for a, b in both) if both else None
        ovl = statistics.fmean(overlap(a["top10"], b["top10"]) for a, b in both) if both else None
        agreement[cls] = {"n": len(both), "count_agreement": same, "top10_overlap": ovl}
        if cls == "all":
            lines.append("-" * len(head2))
        lines.append(cells + f"{fmt(same, 2):>7}{fmt(ovl, 2):>7}")
    return lines, chart, agreement


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
    for name in ("loupe", "tantivy"):
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
    """The fuzzy ranking block under the query table."""
    if figures is None:
        return ["fuzzy ranking: needs the tantivy engine, whose term queries judge which hits hold the intended word"]
    parts = []
    for name, label in (("loupe", "Loupe"), ("tantivy", "tantivy")):
        if name in figures["engines"]:
            f = figures["engines"][name]
            answered = "" if f["n"] == total else f" ({f['n']}/{total} answered)"
            parts.append(f"{label} P@10 {fmt(f['p_at_10'], 2)}, MRR {fmt(f['mrr'], 2)}{answered}")
    return ["fuzzy ranking: " + "; ".join(parts),
            "  P@10: share of the top-10 hits holding the intended word in a listed field (a query without hits "
            "scores 0); MRR: mean 1/rank of the first such hit."]


def differing_counts(queries, rows, title):
    """The queries Loupe and tantivy both answered with different hit counts (the first 20), under `title`."""
    loupe, tantivy = rows.get("loupe"), rows.get("tantivy")
    if not loupe or not tantivy:
        return []
    differ = [(cls, text, a["count"], b["count"]) for (cls, text), a, b in zip(queries, loupe, tantivy)
              if ok(a) and ok(b) and a["count"] != b["count"]]
    if not differ:
        return []
    return ([f"\n{title}, Loupe vs tantivy ({len(differ)} queries" + (", first 20):" if len(differ) > 20 else "):")]
            + [f"  {cls:<13} {text:<55} loupe {a:>8,}  tantivy {b:>8,}" for cls, text, a, b in differ[:20]])


def update_lines(results, queries, names):
    """The update-heavy block: each engine's upsert phase, then the query table again on the updated indexes.

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
    table, _, agreement = query_table(queries, rows, updated)
    lines += table
    if "loupe" in rows and "tantivy" in rows:
        lines.append("After the updates the engines' segments differ, so hits with equal scores (ranges, string "
                     "terms) come in another doc order: ovl10 drops there; =count is the check.")
    lines += differing_counts(queries, rows, "Hit counts that differ after the updates")
    results["agreement_with_tantivy_after_updates"] = agreement
    return lines


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
             f"{len(queries)} queries, {run['repeat']} timed passes; {run['date']}, {run['machine']}",
             "Ratios are Loupe/other: for latency, size, open time and RSS, < 1 means Loupe is faster/smaller; "
             "for docs/s and MB/s, > 1 means Loupe is faster.", ""]
    lines += index_table(engines, names)
    indexed = {name: engines[name]["index"]["docs"] for name in names}
    if len(set(indexed.values())) > 1:
        lines.append("NOTE: the engines indexed different numbers of docs: "
                     + ", ".join(f"{name} {n:,}" for name, n in indexed.items()))
    lines.append("")
    table, chart, agreement = query_table(queries, rows)
    lines += table
    lines += ["ok: queries answered; p50/p90: of the per-query median µs (top-10 search + id fetch), cnt: p50 µs "
              "of count-only.",
              "Loupe/x: median Loupe µs / median x µs over the queries both answered. =count: share of queries "
              "with equal hit counts; ovl10: mean |A∩B|/max(|A|,|B|) of top-10 ids."]
    if fuzzy:
        figures = fuzzy_ranking(fuzzy, queries, rows, relevant)
        lines += [""] + fuzzy_lines(figures, len(fuzzy))
        if figures is not None:
            results["fuzzy_ranking"] = figures
    lines += differing_counts(queries, rows, "Hit counts that differ")
    for name in names:
        missed = [((r or {}).get("status", "?") if r else "missing", cls, (r or {}).get("error"))
                  for (cls, _), r in zip(queries, rows[name]) if not ok(r)]
        if missed:
            statuses = [status for status, _, _ in missed]
            lines.append(f"{name} did not answer {len(statuses)} queries: "
                         + ", ".join(f"{statuses.count(s)} {s}" for s in sorted(set(statuses))))
            first = {}  # one message per class and status, so a new failure mode is visible in the table
            for status, cls, error in missed:
                first.setdefault((cls, status), error)
            lines += [f"  {cls} {status}: {str(error)[:110]}" for (cls, status), error in first.items() if error]
    results["agreement_with_tantivy"] = agreement
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


def draw_chart(path, results, chart):
    """Per-class top-10 latency ratios and a small panel of index ratios, all Loupe/other on log axes."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    engines = results["engines"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.5), gridspec_kw={"width_ratios": [3.2, 1]})
    classes = list(chart)
    others = [o for o in ("tantivy", "fts5") if o in engines]
    ratio_bars(left, classes, [(f"Loupe / {o}", COLORS[o], [chart[c][k] for c in classes])
                               for k, o in enumerate(("tantivy", "fts5")) if o in others])
    left.set_ylabel("Loupe / other, median top-10 latency (log)")
    left.set_title("Top-10 query latency by class (queries both answered)")
    loupe = engines["loupe"]
    index_series = [(f"Loupe / {o}", COLORS[o],
                     [ratio(engines[o]["index"]["docs_per_s"], loupe["index"]["docs_per_s"]),
                      ratio(loupe["index"]["size_bytes"], engines[o]["index"]["size_bytes"]),
                      ratio(loupe["open"]["median_ms"], engines[o]["open"]["median_ms"])]) for o in others]
    ratio_bars(right, ["index time\n(1 / docs/s)", "index size", "open p50"], index_series)
    right.set_title("Index and open")
    run = results["run"]
    fig.suptitle(f"Loupe vs tantivy {engines.get('tantivy', {}).get('version', '')} vs SQLite FTS5 — "
                 f"{run['corpus_name']} ({results['corpus']['docs']:,} docs) — {run['date']} — {run['machine']}")
    handles, labels = left.get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=len(labels), bbox_to_anchor=(0.5, 0.95), frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    fig.savefig(path, dpi=110)
    plt.close(fig)
