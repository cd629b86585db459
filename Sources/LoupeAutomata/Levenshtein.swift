/// Levenshtein automata: every string within a few edits of a term, for fuzzy queries and fuzzy-aware
/// highlighting.
package enum Levenshtein {
    /// The largest supported distance; larger requests are clamped (the DFA grows quickly with it;
    /// Lucene stops at 2).
    package static let maximumDistance = 4

    /// Strings within `distance` edits of `term` (insert, delete, substitute one scalar; with
    /// `transpositions`, swapping two adjacent scalars also costs 1: restricted Damerau, "optimal string
    /// alignment"). With `prefix`, strings that *start* with something within `distance` edits of `term`
    /// (tantivy's and Lucene's prefix mode).
    ///
    /// The accept tag is the smallest number of edits; in prefix mode, the smallest over all prefixes
    /// of the input. `distance` is clamped to `0...maximumDistance`. The first `exactPrefix` scalars of `term`
    /// (all of them, when it is shorter) must be typed as they are (no edit touches them), as Lucene's spell checker and Elasticsearch's
    /// `prefix_length` have it: an automaton walk then reads only the terms that start that way.
    ///
    /// States are (i, e): *i* scalars of `term` matched with *e* edits, plus, with `transpositions`,
    /// one state per (i, e) halfway through swapping `term[i]` and `term[i + 1]`.
    ///
    /// - Complexity: O(*n* · `distance`) states for a term of *n* scalars.
    package static func automaton(
        _ term: String, distance: Int, transpositions: Bool, prefix: Bool, exactPrefix: Int = 0
    ) -> ScalarNFA {
        let scalars = term.unicodeScalars.map(\.value)
        let maxEdits = min(max(distance, 0), maximumDistance)
        let length = scalars.count
        var builder = NFABuilder()
        let any = builder.label(for: .all)
        // state(i, e) = i * (maxEdits + 1) + e, created in that order.
        for i in 0...length {
            for edits in 0...maxEdits {
                _ = builder.addState(acceptTag: i == length ? UInt8(edits) : nil)
            }
        }
        func state(_ i: Int, _ edits: Int) -> Int32 { Int32(i * (maxEdits + 1) + edits) }

        for i in 0...length {
            for edits in 0...maxEdits {
                let here = state(i, edits)
                if i < length {
                    builder.addEdge(
                        from: here,
                        label: builder.label(for: ScalarSet(scalars[i])),
                        to: state(i + 1, edits)
                    )
                }
                if i == length && prefix {
                    builder.addEdge(from: here, label: any, to: here)
                }
                guard edits < maxEdits, i >= min(exactPrefix, length) else { continue }
                builder.addEdge(from: here, label: any, to: state(i, edits + 1))
                guard i < length else { continue }
                builder.addEdge(from: here, label: any, to: state(i + 1, edits + 1))
                builder.addEpsilon(from: here, to: state(i + 1, edits + 1))
                if transpositions, i + 1 < length, scalars[i] != scalars[i + 1] {
                    let halfway = builder.addState()
                    builder.addEdge(from: here, label: builder.label(for: ScalarSet(scalars[i + 1])), to: halfway)
                    builder.addEdge(
                        from: halfway,
                        label: builder.label(for: ScalarSet(scalars[i])),
                        to: state(i + 2, edits + 1)
                    )
                }
            }
        }
        return builder.build(start: state(0, 0))
    }
}
