// The query language of tantivy 0.27's `QueryParser` (its strict `parse_query`), parsed into a
// `QueryAST` that knows nothing about indexes: the engine resolves field names, analyzes literals and
// builds executable queries. Each rule below was checked against tantivy 0.27.0 (the PyPI `tantivy`
// bindings), query by query and by differential fuzzing; `Tests/LoupeQueryGrammarTests/Fixtures/
// make_goldens.py` records the evidence that the tests replay.
//
// Grammar (EBNF-ish). `ws` is space, tab, CR or LF; `end` is the end of the query.
//
//   query     = ws* [ run ] ws* end                  (nothing but whitespace: an empty group)
//   run       = element { ws* element }              (ws+ is required after the first element only:
//                                                     `x "a"b` is three clauses, `"a"b` an error)
//   element   = [ ("AND " | "OR ") ws* ] [ "+" | "-" ] leaf [ "^" digits [ "." digits ] ]
//                                                    (no operator before a run's first element; exactly
//                                                     one space after AND/OR; after +/-, whitespace may
//                                                     come only before a comparison range, IN or *)
//   leaf      = "(" ws* run ws* ")"
//             | "*"                                  (then ws, end, or a char ending words but "\":
//                                                     all documents; `*a` is a word)
//             | "NOT" ws+ leaf                       (if that fails, a literal: `NOT :a` is field `NOT`)
//             | field ws* ":" ws* ( "(" ws* run ws* ")" | value )
//             | value
//   value     = range | set | "*" | regex | simple [ "*" | "~" digits ]
//                                                    (`field:*` is exists, with the lookahead of "*")
//   range     = ("[" | "{") ws* bound ws+ "TO" ws+ bound ws* ("]" | "}")
//             | (">=" | "<=" | ">" | "<") ws* bound  (with no bound, `>` starts a word instead)
//   bound     = "-" digits [ "." digits ] | rangeword  ("*" is an open end)
//   rangeword = chars up to whitespace or one of { } " [ ] ( ), not starting with "`"
//   set       = "IN" ws+ "[" ws* [ simple { ws+ simple } ] "]"   (no whitespace right before "]")
//   regex     = "/" { "\/" | char except "/" }+ "/"  (followed by ws, ")", "^" or end, else a word)
//   simple    = "-" digits [ "." digits ] | '"' { "\" char | char except '"' } '"'
//             | "'" { "\" char | char except "'" } "'" | word
//   word      = wordchar { wordchar | "-" }, but not exactly AND, OR, NOT or IN
//   wordchar  = "\" char | char except whitespace and - ^ ` : { } " ' [ ] ( ) \
//   field     = fieldchar { fieldchar | "-" | "\" }  (a lone "\" is kept)
//   fieldchar = "\" special | char except "-" and special = + ^ ` : { } " ' [ ] ( ) ! \ * space
//
// Meaning:
// - A word keeps its characters but drops the backslash of `\` before whitespace or one of
//   - ^ ` : { } " ' [ ] ( ) \ (`c\:d` is `c:d`, `c\*` stays `c\*`). In quotes, `\x` is always `x`.
// - Words swallow `*`, `~`, `+` and `-` (`c++`, `foo-bar`, `3.14`, `a*` are single words, analyzed
//   later), so slop and phrase prefix apply to quoted phrases (and negative numbers) only. A word cannot
//   start with `-`: at the start of a clause `-` means must-not, after `field:` only `-12.5` is allowed.
// - `AND` binds tighter than `OR` and than whitespace (`a AND b OR c` is `(?(+a +b) ?c)`); see
//   `ClauseAggregation` for how `+`, `-`, `AND` and `OR` mix. `NOT x` is a group holding `-x`. Clauses
//   with no written occurrence get the default one: should, or must with `defaultConjunction` (tantivy's
//   `set_conjunction_by_default`).
// - `field:(...)` gives `field` to the leaves inside that have none; a `*` inside becomes `field:*`.
// - After parsing, every group not under a boost loses clauses equal to an earlier one (`a a` is `(a)`),
//   and a lone negation with no written occurrence is pulled up (`a (-b)` is `a -b`), as tantivy does.
// - A boost of exactly 1 is dropped; a boost too large for a Double is infinite.
//
// Differences from tantivy:
// - Parentheses and `NOT` nest at most 100 levels deep (`QueryParser.maximumNesting`), so hostile input
//   cannot exhaust the stack.
// - `>=*` and `<*` give an open bound directly, where tantivy's grammar keeps a `"*"` bound that its
//   query parser then treats as open: the resulting queries are the same.
// - Errors carry a byte offset and a message; tantivy's strict parser reports only "syntax error".
// Everything else follows tantivy, quirks included (`a AND\tb`, `IN [a ]` and `don't` are errors; a tab
// or newline belongs to a field name, so `a\tb:c` searches field "a\tb"), so that a query means the
// same here as there.

/// Parses `text` in tantivy 0.27's query syntax.
///
/// - Parameters:
///   - text: The query as typed by a user.
///   - defaultConjunction: The occurrence of clauses written without `+`, `-`, `AND`, `OR` or `NOT`:
///     `must` when true (tantivy's `set_conjunction_by_default`), `should` when false.
/// - Returns: The query tree; `.boolean([])` for an empty or whitespace-only query. A tree of only
///   `mustNot` clauses (`-a`) is returned as is: rejecting it is the engine's job.
/// - Throws: `QuerySyntaxError` with the byte offset of the first problem, for every query that
///   tantivy's strict parser rejects as a syntax error.
/// - Complexity: O(n) in the length of `text`.
package func parseQuery(_ text: String, defaultConjunction: Bool = false) throws(QuerySyntaxError) -> QueryAST {
    var parser = QueryParser(text)
    let node = ClauseAggregation.normalized(try parser.parseQuery())
    return node.resolved(defaultOccur: defaultConjunction ? .must : .should)
}
