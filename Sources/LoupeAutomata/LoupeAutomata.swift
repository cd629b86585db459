// LoupeAutomata: finite automata for the term-dictionary queries (fuzzy, regex, wildcard) and for
// fuzzy-aware snippet highlighting. A leaf module: no Foundation, no Loupe.
//
// Purpose. A term dictionary holds UTF-8 terms sorted bytewise. To find every term an automaton accepts
// without testing each one, the engine keeps one DFA state per byte of the current term, reuses the
// states of the prefix it shares with the previous term, and when a state is `ByteDFA.dead` seeks past
// every term with that prefix; when `acceptsEverything` holds it takes the whole range under the prefix.
//
// Pipeline.
//   pattern ─ Regex.compile / Levenshtein.automaton / Wildcard.automaton ─▶ ScalarNFA ─ ByteDFA ─▶ steps
// `ScalarNFA` works on Unicode scalars: edges are labelled with scalar classes (sorted ranges, shared
// between edges), states may have epsilon moves, and accepting states carry a small tag (the edit count
// for Levenshtein automata, 0 otherwise). Levenshtein states are (scalars matched, edits) plus one
// "halfway through a transposition" state per pair; prefix mode makes the final states absorb any
// further scalar. Wildcards are a chain of states with `*` as a self-loop.
//
// The lazy DFA. `ByteDFA` determinizes on demand, over bytes. A state is either complete (an epsilon-
// closed set of NFA states, between scalars) or partial (inside a multi-byte scalar). A partial state is
// keyed not by the bytes read but by what they still allow: the NFA edges whose classes meet the scalars
// those bytes can complete to, as ranges relative to the first such scalar, plus the continuation bytes
// left. So all 3-byte scalars under `.*` share a few states, and a lead byte that no edge can use is
// dead at once. Ranges are clipped to valid UTF-8 (no overlong forms, surrogates or values past
// U+10FFFF), so invalid input dies as soon as it is detectable. NFA states that cannot reach an accepting
// state are dropped, which makes `dead` exact: it means no continuation is ever accepted. Each state has
// a row of 256 `Int32` transitions, -1 until computed; a cached step is a bounds check and a load. States
// are deduplicated by key; past `stateLimit` states, `step` returns `dead` and sets
// `exceededStateLimit`, so the caller can fall back or report the query as too complex.
//
// Regex syntax (a subset of Rust's `regex` crate, whose parser `RegexParser` follows). Patterns match
// whole terms: they are implicitly anchored at both ends, as in tantivy.
//   literals             any scalar other than \ . + * ? ( ) | [ ] { } ^ $
//   escapes              \\ \. \* \+ \? \( \) \[ \] \{ \} \| \^ \$ \/ \- and any other ASCII punctuation
//                        or space (`\%`, `\ `, `\#`); \a \f \t \n \r \v; \x7F \x{1F600} \u00E9 \u{E9}
//                        \U0001F600 \U{1F600}
//   perl classes         \d \D \w \W \s \S — ASCII: [0-9], [0-9A-Za-z_], [\t\n\v\f\r ]
//   .                    any scalar except \n ((?s): any scalar; (?R): also except \r)
//   classes              [abc] [a-z] [^a-z] [\d_-] []a] [^]a] [-a] [a-], nested [a[bc]], set operations
//                        [a-z&&[^aeiou]] [a-c--b] [a-c~~b-d] (looser than union, left to right), and
//                        [[:name:]] / [[:^name:]] for alnum alpha ascii blank cntrl digit graph lower print
//                        punct space upper word xdigit (ASCII); an unknown [:name:] is a nested class
//   groups               ( ) (?: ) (?<name> ) (?P<name> )
//   alternation          a|b (empty branches allowed)
//   quantifiers          * + ? {n} {n,} {n,m}, each optionally lazy (…?: same language); n, m ≤ 1000;
//                        whitespace allowed inside braces; stacking (a**, a{2}{3}) repeats the repetition
//   flags                (?flags) until the end of the enclosing group, (?flags: ) for the group, with
//                        i (case-insensitive), s, R, x (verbose: whitespace and # comments ignored, also
//                        in classes), m and U (accepted: no effect on whole-term matching), u; `-` negates
//   anchors              ^ at the very start (after flag groups only) and $ at the very end: accepted and
//                        ignored
// `(?i)` uses simple case folding derived from the standard library's single-scalar case mappings
// (`k` matches `K` and U+212A KELVIN SIGN, `ß` matches `ẞ` but not `SS`); classes fold before negating.
//
// Differences from Rust's `regex` (and tantivy's regex queries):
// - \d \w \s are ASCII-only (Unicode in Rust by default); \p{…} \P{…} are rejected.
// - Assertions (\b \B \A \z \< \> and ^ $ anywhere but the ends), look-around, backreferences and octal
//   escapes are rejected; tantivy rejects every empty-match operator, including ^ and $ at the ends.
// - (?-u) (byte-oriented matching) is rejected.
// - Limits: 100 levels of nested groups and repetitions (Rust: 250) and 100,000 NFA states (tantivy
//   compiles to a DFA capped at 1,000 states, so it rejects `a{1000}`, which compiles here).
// - Errors carry Rust's message where one exists and the byte offset where Rust's span starts (for a few
//   errors, a nearby position); hexadecimal escapes accept no whitespace in verbose mode.
