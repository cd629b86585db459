"""Record how tantivy 0.27 parses a list of queries, for LoupeQueryGrammar's differential test.

Run it from anywhere with a Python that has the PyPI bindings (`pip install tantivy==0.27.0`; on the
project machines, /work/venv/bin/python), then run the Swift tests:

    python3 Tests/LoupeQueryGrammarTests/Fixtures/make_goldens.py
    swift test --filter TantivyDifferentialTests

It reads the query lists beside it (one query per line, used verbatim):

    queries-grammar.txt          hand-written syntax cases, valid and invalid
    queries-movies.txt           copy of shared/corpora/movies/queries.txt
    queries-debian-packages.txt  copy of shared/corpora/debian-packages/queries.txt

plus the few queries in EXTRA_QUERIES below (control characters cannot sit in a line file), and writes
tantivy-goldens.tsv beside this script. The schema has text fields `title` and `body` (default tokenizer),
a u64 field `year`, a raw-tokenized text field `tags`; the default fields are title and body. Regexes are
allowed, so that `/re/` queries are compared too.

Each output line is `query<TAB>status<TAB>disjunction<TAB>conjunction`:

- query: escaped with `\\\\`, `\\t`, `\\n`, `\\r` (nothing else is escaped);
- status: `ok`, `syntax` (tantivy's grammar rejects the query) or `error` (the grammar accepts it but
  tantivy's QueryParser rejects it: unknown field, range without a field, only excluding clauses...);
- disjunction / conjunction: for `ok`, the query tantivy builds with the default `should` occurrence and
  with `conjunction_by_default=True`, written as a skeleton; for `error`, tantivy's message.

Skeleton: `B(+x ?y -z)` boolean query (must, should, must not), `T(field,"v")` term, `P(field,"a","b",slop)`
phrase, `PP(field,"a","b")` phrase prefix, `R(field,[lo,hi})` range (`*` open), `S(field,"a","b")` term set,
`E(field)` exists, `RE(field,"pattern")` regex, `ALL`, `EMPTY`, `x^2` boost. Strings escape `\\` and `"`.
"""

import os
import re
import tantivy

HERE = os.path.dirname(os.path.abspath(__file__))
LISTS = ["queries-grammar.txt", "queries-movies.txt", "queries-debian-packages.txt"]
EXTRA_QUERIES = [
    "a\nb", "a\r\nb", "x NOT\na", "title:\n*", "(\na\n)", "a AND\nb", "a\n AND b", "a\u00a0b", "\u00a0a",
    "a\u3000b", "a\\\u00a0b", "x\ny:z", "tags:a\\\nb", '"a\nb"', "title:[1\nTO 2]", "tags: IN [a\nb]",
    "'\n*'*", "foo\t\n-1.5tags:*", " TO +\nb\tyear:.~", "-\t=IN :\n>NOT ",
]
FIELDS = ["title", "body", "year", "tags"]


def build_index():
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("title", stored=True)
    builder.add_text_field("body", stored=True)
    builder.add_unsigned_field("year", indexed=True, fast=True)
    builder.add_text_field("tags", tokenizer_name="raw")
    return tantivy.Index(builder.build())


class DebugParser:
    """Parses the Rust `Debug` text of a tantivy query into nested tuples and lists."""

    TOKEN = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*")|([A-Za-z_][A-Za-z0-9_]*)|(-?[0-9][0-9.e+-]*|inf|NaN)|(.))', re.S)

    def __init__(self, text):
        # A regex query's Debug dumps its automaton over several lines; keep only the pattern.
        text = re.sub(r'(Regex\("(?:[^"\\]|\\.)*"\)).*?(, field: Field\()', r"\1\2", text, flags=re.S)
        self.tokens = [m.groups() for m in self.TOKEN.finditer(text) if any(m.groups())]
        self.index = 0

    def peek(self):
        return self.tokens[self.index] if self.index < len(self.tokens) else (None, None, None, None)

    def take(self, char=None):
        token = self.peek()
        if char is not None and token[3] != char:
            raise ValueError("expected %r, got %r" % (char, token))
        self.index += 1
        return token

    def value(self):
        string, name, number, char = self.take()
        if string is not None:
            return ("str", rust_string(string))
        if number is not None:
            return ("num", number)
        if name is None and char in "([{":
            closing = {"(": ")", "[": "]", "{": "}"}[char]
            items = self.items(closing)
            return ("tuple" if char == "(" else "list", items)
        if name is not None:
            after = self.peek()[3]
            if after == "(":
                self.take("(")
                return (name, self.items(")"))
            if after == "{":
                self.take("{")
                return (name, dict(self.fields()))
            return ("name", name)
        raise ValueError("unexpected %r" % char)

    def items(self, closing):
        items = []
        while self.peek()[3] != closing:
            if self.peek()[1] is not None and self.tokens[self.index + 1][3] == "=":
                key = self.take()[1]
                self.take("=")
                items.append((key, self.value()))
            elif self.peek()[3] != closing:
                item = self.value()
                if self.peek()[3] == ":":
                    self.take(":")
                    item = (item, self.value())
                items.append(item)
            if self.peek()[3] == ",":
                self.take(",")
        self.take(closing)
        return items

    def fields(self):
        fields = []
        while self.peek()[3] != "}":
            key = self.take()[1]
            self.take(":")
            fields.append((key, self.value()))
            if self.peek()[3] == ",":
                self.take(",")
        self.take("}")
        return fields


def rust_string(literal):
    body = literal[1:-1]
    out, index = [], 0
    while index < len(body):
        char = body[index]
        if char != "\\":
            out.append(char)
            index += 1
            continue
        code = body[index + 1]
        if code == "u":
            end = body.index("}", index)
            out.append(chr(int(body[index + 3:end], 16)))
            index = end + 1
            continue
        out.append({"n": "\n", "t": "\t", "r": "\r", "0": "\0"}.get(code, code))
        index += 2
    return "".join(out)


def quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def term(node):
    """(field, value) of a `Term(field=0, type=Str, "a")` node."""
    _, items = node
    field = FIELDS[int(dict(items[:1])["field"][1])]
    value = items[-1]
    return field, value[1]


def boost_text(number):
    value = float(number)
    return str(int(value)) if value.is_integer() else repr(value)


def skeleton(node):
    kind, payload = node
    if kind == "Query":
        return skeleton(payload[0])
    if kind == "BooleanQuery":
        symbols = {"Should": "?", "Must": "+", "MustNot": "-"}
        clauses = [symbols[occur[1]] + skeleton(sub) for _, (occur, sub) in payload["subqueries"][1]]
        return "B(" + " ".join(clauses) + ")"
    if kind == "TermQuery":
        field, value = term(payload[0])
        return "T(%s,%s)" % (field, quote(value))
    if kind == "PhraseQuery":
        terms = [term(t) for _, (_, t) in payload["phrase_terms"][1]]
        slop = payload["slop"][1]
        return "P(%s,%s,%s)" % (terms[0][0], ",".join(quote(v) for _, v in terms), slop)
    if kind == "PhrasePrefixQuery":
        terms = [term(t) for _, (_, t) in payload["phrase_terms"][1]]
        terms.append(term(payload["prefix"][1][1]))
        return "PP(%s,%s)" % (terms[0][0], ",".join(quote(v) for _, v in terms))
    if kind == "RangeQuery":
        bounds = payload["bounds"][1]
        field = None
        parts = []
        for name, opening, closing in (("lower_bound", "[", "{"), ("upper_bound", "]", "}")):
            bound = bounds[name]
            if bound[0] == "name":
                parts.append("*")
                continue
            field, value = term(bound[1][0])
            mark = opening if bound[0] == "Included" else closing
            parts.append(mark + quote(value) if name == "lower_bound" else quote(value) + mark)
        return "R(%s,%s,%s)" % (field, parts[0], parts[1])
    if kind == "TermSetQuery":
        values = []
        field = ""
        for _, terms in payload["terms_map"][1]:
            for t in terms[1]:
                field, value = term(t)
                values.append(quote(value))
        return "S(%s)" % ",".join([field] + values if values else [])
    if kind == "ExistsQuery":
        return "E(%s)" % payload["field_name"][1]
    if kind == "RegexQuery":
        field = FIELDS[int(payload["field"][1][0][1])]
        return "RE(%s,%s)" % (field, quote(payload["regex"][1][0][1]))
    if kind == "Boost":
        inner = dict(payload)
        return "%s^%s" % (skeleton(inner["query"]), boost_text(inner["boost"][1]))
    if kind == "name" and payload in ("AllQuery", "EmptyQuery"):
        return {"AllQuery": "ALL", "EmptyQuery": "EMPTY"}[payload]
    raise ValueError("unknown query node %r" % (node,))


def record(index, query):
    outputs = []
    for conjunction in (False, True):
        try:
            parsed = index.parse_query(query, ["title", "body"], conjunction_by_default=conjunction, allow_regexes=True)
        except ValueError as error:
            message = str(error)
            status = "syntax" if message.startswith("Syntax Error") else "error"
            return status, [message.splitlines()[0][:120]] * 2
        outputs.append(skeleton(DebugParser(repr(parsed)).value()))
    return "ok", outputs


def escape(text):
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def main():
    queries = []
    for name in LISTS:
        with open(os.path.join(HERE, name), encoding="utf-8") as handle:
            queries.extend(line.rstrip("\n") for line in handle if line.rstrip("\n"))
    queries.extend(EXTRA_QUERIES)
    index = build_index()
    lines = ["# Generated by make_goldens.py from %s; do not edit." % tantivy.__version__]
    for query in queries:
        status, (disjunction, conjunction) = record(index, query)
        lines.append("\t".join([escape(query), status, escape(disjunction), escape(conjunction)]))
    with open(os.path.join(HERE, "tantivy-goldens.tsv"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    print("wrote %d queries" % len(queries))


if __name__ == "__main__":
    main()
