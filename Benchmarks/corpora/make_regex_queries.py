#!/usr/bin/env python3
"""Writes <corpus>/regex.tsv: ~20 whole-term regex queries drawn from the corpus's own default text fields.

    python3 Benchmarks/corpora/make_regex_queries.py                  # movies, english-text, debian-packages, words
    python3 Benchmarks/corpora/make_regex_queries.py english-text --count 20 --seed 1

Lines are `regex<TAB>field:/pattern/`, the query syntax Loupe parses and Benchmarks/compare.py turns into a
tantivy RegexQuery (--extra-queries). Terms are counted the way tantivy's default analyzer makes them (runs of
alphanumerics, lowercased, under 40 UTF-8 bytes), by document frequency, per default text field; patterns are
built only from ASCII a-z terms, so every pattern matches at least the term it came from. The mix, per corpus:
literal prefixes (`stra.*`), a frequent word with one letter as `.` (`wat.r`), a two-letter class before a
prefix (`[bc]ra.*`), common suffixes (`.*ing`: a scan of the whole dictionary), and groups, alternation,
`?` and `+` (`(night|light)s?`, `col+ect.*`). Only literals, `.`, `*`, `+`, `?`, `[…]`, `(…|…)` are used: the
subset both Rust's regex crate and a small automaton engine accept. The same corpus file and seed always give
the same lines (random.Random seeded with "<seed>:<corpus name>", pools sorted by frequency then term).
"""
import argparse
import collections
import gzip
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPORA = ("movies", "english-text", "debian-packages", "words")
TOKEN = re.compile(r"[^\W_]+")  # tantivy's SimpleTokenizer: maximal runs of alphanumeric characters
WORD = re.compile(r"[a-z]+")
MAX_TOKEN_BYTES = 40  # tantivy's RemoveLongFilter drops tokens of 40 bytes or more
POOL = 3000  # candidate words: the most frequent terms of a field


def default_text_fields(schema_path):
    """The schema's default search fields that are text (tokenized) fields, in schema order of the defaults."""
    with open(schema_path) as fh:
        schema = json.load(fh)
    fields = schema["fields"]
    types = {name: spec["type"] for name, spec in fields.items()} if isinstance(fields, dict) else \
        {f["name"]: f["type"] for f in fields}
    defaults = schema.get("default_fields") or schema.get("default_search_fields") or \
        [name for name, kind in types.items() if kind == "text"]
    return [name for name in defaults if types.get(name) == "text"]


def document_frequencies(corpus_path, fields):
    """{field: Counter(term → docs holding it)} over the whole corpus."""
    counts = {field: collections.Counter() for field in fields}
    with gzip.open(corpus_path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            doc = json.loads(line)
            for field in fields:
                value = doc.get(field)
                if value is None:
                    continue
                text = " ".join(map(str, value)) if isinstance(value, list) else str(value)
                terms = {t for t in TOKEN.findall(text.lower()) if len(t.encode()) < MAX_TOKEN_BYTES}
                counts[field].update(terms)
    return counts


def word_pool(counter, min_length):
    """The field's most frequent plain a-z terms of at least `min_length` letters, most frequent first."""
    ranked = sorted(counter.items(), key=lambda item: (-item[1], item[0]))
    return [term for term, _ in ranked if WORD.fullmatch(term) and len(term) >= min_length][:POOL]


def prefix(rng, words):
    """`stra.*`: the first 3 to 5 letters of a frequent word."""
    word = rng.choice(words[:1000])
    return word[:rng.randint(3, min(5, len(word) - 1))] + ".*"


def one_dot(rng, words):
    """`wat.r`: a frequent word with one letter (never the first) as `.`."""
    word = rng.choice(words[:500])
    at = rng.randrange(1, len(word))
    return word[:at] + "." + word[at + 1:]


def letter_class(rng, words):
    """`[bc]ra.*`: a frequent word's first letter and another in a class, then its next two letters."""
    word = rng.choice(words[:1000])
    other = rng.choice([c for c in "abcdefghilmnoprstuw" if c != word[0]])
    return "[" + "".join(sorted(word[0] + other)) + "]" + word[1:3] + ".*"


def suffix(rng, words):
    """`.*ing`: one of the commonest 3- and 4-letter endings of the frequent words."""
    endings = collections.Counter(w[-n:] for w in words for n in (3, 4) if len(w) >= n + 3)
    common = [end for end, _ in sorted(endings.items(), key=lambda item: (-item[1], item[0]))[:12]]
    return ".*" + rng.choice(common)


def structure(rng, words):
    """Alternation plus `?`, an optional letter, or a doubled letter as `x+`: one of the three at random."""
    kind = rng.randrange(3)
    doubled = [w for w in words[:1500] if re.search(r"([a-z])\1", w)]
    if kind == 2 and doubled:
        word = rng.choice(doubled)
        at = re.search(r"([a-z])\1", word).start()
        return word[:at + 1] + "+" + word[at + 2:] + (".*" if len(word) > 6 else "")
    if kind == 1:
        word = rng.choice(words[:1000])
        at = rng.randrange(1, len(word))
        return word[:at + 1] + "?" + word[at + 1:]
    first, second = rng.sample(words[:300], 2)
    return f"({first}|{second})s?"


# (builder, how many of `count` queries), in output order; the shares sum to 1.
MIX = ((prefix, 0.25), (one_dot, 0.25), (letter_class, 0.2), (suffix, 0.15), (structure, 0.15))


def make_queries(name, counts, fields, count, seed):
    """[(field, pattern)]: `count` distinct patterns, fields taken in turn."""
    rng = random.Random(f"{seed}:{name}")
    pools = {field: word_pool(counts[field], 4) for field in fields}
    fields = [f for f in fields if len(pools[f]) >= 300]
    if not fields:
        raise ValueError(f"{name}: no default text field has 300 distinct a-z terms of 4+ letters")
    quotas = [max(1, round(count * share)) for _, share in MIX]
    quotas[0] += count - sum(quotas)
    out, seen = [], set()
    for (build, _), quota in zip(MIX, quotas):
        made = 0
        while made < quota:
            field = fields[len(out) % len(fields)]
            pattern = build(rng, pools[field])
            if (field, pattern) not in seen:
                seen.add((field, pattern))
                out.append((field, pattern))
                made += 1
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpora", nargs="*", default=CORPORA, help="corpus folder names under Benchmarks/corpora")
    ap.add_argument("--count", type=int, default=20, help="queries per corpus")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    for name in args.corpora:
        folder = os.path.join(HERE, name)
        corpus = os.path.join(folder, f"{name}.jsonl.gz")
        if not os.path.exists(corpus):
            print(f"{name}: {corpus} is missing (make -C Benchmarks/corpora {name})", file=sys.stderr)
            return 1
        fields = default_text_fields(os.path.join(folder, "schema.json"))
        counts = document_frequencies(corpus, fields)
        queries = make_queries(name, counts, fields, args.count, args.seed)
        with open(os.path.join(folder, "regex.tsv"), "w", encoding="utf-8") as fh:
            fh.write(f"# {len(queries)} whole-term regex queries over {name}.jsonl.gz, written by "
                     f"make_regex_queries.py --seed {args.seed} --count {args.count}\n")
            fh.writelines(f"regex\t{field}:/{pattern}/\n" for field, pattern in queries)
        for field, pattern in queries:
            matched = [t for t in counts[field] if re.fullmatch(pattern, t)]
            print(f"{name:<16} {field}:/{pattern}/  {len(matched):,} terms, "
                  f"{sum(counts[field][t] for t in matched):,} term-doc pairs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
