#!/usr/bin/env python3
"""Writes a synthetic JSON Lines corpus of N documents for the growth curves (issue #13), seeded.

    python3 Benchmarks/corpora/synthetic/generate.py --docs 1000000 [--seed 13] [-o PATH[.gz]]

Words come from Debian's `wamerican` list (/usr/share/dict/american-english; `apt-get install wamerican`): its
lowercase ASCII entries (63,875 in 2020.12.07-2), shuffled by the seed and drawn with Zipfian weights 1/rank.
One token in twenty is instead one of 5,000 two-word collocations (also Zipfian), so that phrase queries have
real matches at every frequency. Title and body lengths are lognormal. Each document:

    id        "s" + nine-digit number, in order
    title     lognormal words, median 5 (sigma 0.5, 1 to 40)
    body      lognormal words, median 60 (sigma 0.8, 1 to 2,000), in sentences of 4 to 20 words
    category  one of 24 (Zipfian)
    tags      0 to 4 distinct tags of 500 (Zipfian), an array
    year      1970 to 2026, skewed to recent years (u64)
    rating    1.0 to 5.0, two decimals (f64)
    views     lognormal, median 400 (u64)

Every draw comes from one random.Random(seed), document after document, so the first M documents of a run with
--docs N > M are the documents of a run with --docs M: one large file serves every smaller point as a prefix.
Nothing depends on set or dict order or on the hash seed; keys are written in a fixed order, compact, UTF-8, one
document a line, so the same seed, word list and Python gives the same bytes (gzip with mtime 0 when the path
ends in .gz). `--stats` prints, instead, the 20 words and collocations in most of the first --docs documents.
"""
import argparse
import gzip
import itertools
import json
import math
import os
import random
import re
import sys

WORD_LIST = "/usr/share/dict/american-english"
VOCABULARY_PATTERN = re.compile(r"[a-z]+")
COLLOCATIONS = 5_000
COLLOCATION_SHARE = 0.05  # of the tokens: a two-word collocation instead of one word
CATEGORIES = 24
TAGS = 500
FIRST_YEAR, LAST_YEAR = 1970, 2026


def load_words(path):
    """The word list's lowercase ASCII entries, deduplicated, in code-point order (before the seed shuffles them).
    Exits with the package to install when the list is missing."""
    if not os.path.exists(path):
        sys.exit(f"generate.py: {path} is missing; it comes from Debian's `wamerican` package: "
                 f"apt-get install wamerican (or pass --words PATH to another one-word-a-line list)")
    with open(path, encoding="utf-8") as fh:
        words = sorted({line.strip() for line in fh if VOCABULARY_PATTERN.fullmatch(line.strip())})
    if len(words) < 1_000:
        sys.exit(f"generate.py: {path} has only {len(words)} lowercase ASCII words; need at least 1,000")
    return words


def zipf_cumulative(count, exponent=1.0):
    """Cumulative weights 1/rank^exponent for ranks 1…count (what random.choices takes as cum_weights)."""
    return list(itertools.accumulate(1.0 / (rank ** exponent) for rank in range(1, count + 1)))


class Generator:
    """The corpus model: vocabulary, collocations, keyword values and the one random stream documents come from."""

    def __init__(self, words, seed):
        self.rng = random.Random(seed)
        rng = self.rng
        vocabulary = list(words)
        rng.shuffle(vocabulary)  # rank 1 is a random word, not "a"
        word_weights = zipf_cumulative(len(vocabulary))
        # Collocations: pairs of distinct words, each word drawn by the same Zipfian weights.
        pairs = []
        seen = set()
        while len(pairs) < COLLOCATIONS:
            first, second = rng.choices(vocabulary, cum_weights=word_weights, k=2)
            if first != second and (first, second) not in seen:
                seen.add((first, second))
                pairs.append(f"{first} {second}")
        self.collocations = pairs
        # One list of units (words, then collocations) with one cumulative weight list: one choices() per field.
        word_total = word_weights[-1]
        pair_weights = zipf_cumulative(COLLOCATIONS)
        scale_words = (1 - COLLOCATION_SHARE) / word_total
        scale_pairs = COLLOCATION_SHARE / pair_weights[-1]
        self.units = vocabulary + pairs
        self.unit_weights = [w * scale_words for w in word_weights]
        self.unit_weights += [self.unit_weights[-1] + w * scale_pairs for w in pair_weights]
        self.categories = [f"{a}-{b}" for a, b in zip(vocabulary[1000:1000 + CATEGORIES],
                                                      vocabulary[2000:2000 + CATEGORIES])]
        self.category_weights = zipf_cumulative(CATEGORIES, 0.8)
        self.tags = vocabulary[3000:3000 + TAGS]
        self.tag_weights = zipf_cumulative(TAGS)

    def _length(self, median, sigma, low, high):
        return min(high, max(low, round(self.rng.lognormvariate(math.log(median), sigma))))

    def _tokens(self, count):
        return self.rng.choices(self.units, cum_weights=self.unit_weights, k=count)

    def _body(self):
        tokens = self._tokens(self._length(60, 0.8, 1, 2_000))
        sentences = []
        start = 0
        while start < len(tokens):
            end = start + self.rng.randint(4, 20)
            sentence = " ".join(tokens[start:end])
            sentences.append(sentence[0].upper() + sentence[1:] + ".")
            start = end
        return " ".join(sentences)

    def document(self, number):
        """Document `number`; call in order 0, 1, 2… (each draws from the shared stream)."""
        rng = self.rng
        title = " ".join(self._tokens(self._length(5, 0.5, 1, 40)))
        body = self._body()
        category = rng.choices(self.categories, cum_weights=self.category_weights)[0]
        tags = []
        for tag in rng.choices(self.tags, cum_weights=self.tag_weights, k=rng.randint(0, 4)):
            if tag not in tags:
                tags.append(tag)
        year = LAST_YEAR - min(LAST_YEAR - FIRST_YEAR, int(rng.expovariate(1 / 8)))
        rating = round(min(5.0, max(1.0, rng.gauss(3.6, 0.8))), 2)
        views = int(rng.lognormvariate(math.log(400), 1.5))
        return {"id": f"s{number:09d}", "title": title[0].upper() + title[1:], "body": body, "category": category,
                "tags": tags, "year": year, "rating": rating, "views": views}


def open_output(path):
    """stdout (binary), a plain file, or gzip (mtime 0, no name) when the path ends in .gz."""
    if path in (None, "-"):
        return sys.stdout.buffer, None
    raw = open(path + ".tmp", "wb")
    if path.endswith(".gz"):
        return gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=6), raw
    return raw, None


def write_corpus(generator, docs, path):
    """Writes `docs` documents; the file appears atomically (written as PATH.tmp, then renamed). Returns bytes."""
    out, raw = open_output(path)
    written = 0
    for number in range(docs):
        line = (json.dumps(generator.document(number), ensure_ascii=False, separators=(",", ":")) + "\n")
        data = line.encode("utf-8")
        out.write(data)
        written += len(data)
    out.flush()
    if path not in (None, "-"):
        out.close()
        if raw is not None:
            raw.close()
        os.replace(path + ".tmp", path)
    return written


TOKEN = re.compile(r"[a-z0-9]+")


def document_frequencies(docs, collocations):
    """({word: docs holding it in title or body}, {collocation: docs holding its two words adjacent}) over the
    document dicts `docs`, tokens cut as the default tokenizers cut them (runs of lowercase letters and digits)."""
    words = {}
    pairs = {}
    wanted = set(collocations)
    for doc in docs:
        seen_words = set()
        seen_pairs = set()
        for text in (doc["title"], doc["body"]):
            tokens = TOKEN.findall(text.lower())
            seen_words.update(tokens)
            seen_pairs.update(p for p in map(" ".join, zip(tokens, tokens[1:])) if p in wanted)
        for w in seen_words:
            words[w] = words.get(w, 0) + 1
        for p in seen_pairs:
            pairs[p] = pairs.get(p, 0) + 1
    return words, pairs


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, required=True, help="documents to write")
    ap.add_argument("--seed", type=int, default=13, help="random seed (default 13, the issue's number)")
    ap.add_argument("--words", default=WORD_LIST, help=f"word list, one a line (default {WORD_LIST})")
    ap.add_argument("-o", "--output", help="output path (.gz: gzip); default stdout")
    ap.add_argument("--stats", action="store_true",
                    help="instead of writing, print the 20 most frequent words and collocations of the first "
                         "--docs documents with their document frequencies, as JSON")
    args = ap.parse_args(argv)
    if args.docs < 1:
        ap.error("--docs needs a positive number")
    generator = Generator(load_words(args.words), args.seed)
    if args.stats:
        docs = (generator.document(number) for number in range(args.docs))
        words, pairs = document_frequencies(docs, generator.collocations)
        for name, counts in (("words", words), ("collocations", pairs)):
            top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:20]
            print(json.dumps({"docs": args.docs, name: top}, ensure_ascii=False))
        return 0
    written = write_corpus(generator, args.docs, args.output)
    if args.output not in (None, "-"):
        print(f"generate.py: wrote {args.docs:,} documents ({written:,} bytes of JSON Lines) to {args.output}",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
