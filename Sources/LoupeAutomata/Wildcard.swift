/// Wildcard patterns (`*` and `?`), as in tantivy's and Lucene's wildcard queries.
package enum Wildcard {
    /// Whole terms matching `pattern`: `*` matches any run of scalars (including none), `?` exactly one
    /// scalar, `\x` is a literal `x` (a trailing lone `\` is a literal backslash); everything else is
    /// literal. Every pattern is valid.
    ///
    /// The automaton is a chain with one state per literal or `?`; a `*` is a self-loop on the state it
    /// follows, so `a*b` has three states and `**` costs no more than `*`.
    ///
    /// - Complexity: O(*n*) states for a pattern of *n* scalars.
    package static func automaton(_ pattern: String) -> ScalarNFA {
        var builder = NFABuilder()
        let any = builder.label(for: .all)
        let start = builder.addState()
        var current = start
        var currentLoops = false
        var iterator = pattern.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            let label: Int32
            switch scalar {
            case "*":
                if !currentLoops { builder.addEdge(from: current, label: any, to: current) }
                currentLoops = true
                continue
            case "?":
                label = any
            case "\\":
                label = builder.label(for: ScalarSet(iterator.next()?.value ?? scalar.value))
            default:
                label = builder.label(for: ScalarSet(scalar.value))
            }
            let next = builder.addState()
            builder.addEdge(from: current, label: label, to: next)
            current = next
            currentLoops = false
        }
        builder.accept(current, tag: 0)
        return builder.build(start: start)
    }
}
