/// A parsed regular expression: what `RegexParser` produces and `RegexCompiler` turns into an NFA.
///
/// Anchors, flags and capture groups are gone by this point: they do not change which whole terms match.
indirect enum RegexNode {
    /// Matches the empty string only.
    case empty
    /// One scalar of the class with this index in `RegexParser.classes`.
    case scalarClass(Int32)
    case concatenation([RegexNode])
    case alternation([RegexNode])
    /// `body` repeated `minimum` to `maximum` times (`nil`: unbounded); `offset` locates the quantifier
    /// for the size error.
    case repetition(RegexNode, minimum: Int, maximum: Int?, offset: Int)

    /// `body` repeated, simplified so that every node but `.empty` adds at least one NFA state each time
    /// it is emitted: then the state limit also bounds the compiler's running time, even for
    /// `((a{0}){1000}){1000}`.
    static func repeating(_ body: RegexNode, minimum: Int, maximum: Int?, offset: Int) -> RegexNode {
        if case .empty = body { return .empty }
        if maximum == 0 { return .empty }
        if minimum == 1, maximum == 1 { return body }
        return .repetition(body, minimum: minimum, maximum: maximum, offset: offset)
    }

    /// The concatenation of `items`, without the empty ones.
    static func concatenating(_ items: [RegexNode]) -> RegexNode {
        let kept = items.filter {
            if case .empty = $0 { return false }
            return true
        }
        switch kept.count {
        case 0: return .empty
        case 1: return kept[0]
        default: return .concatenation(kept)
        }
    }
}

/// Thompson's construction: each node becomes a fragment entered at a given state and left at the state
/// it returns.
///
/// Invariant: emitting a node only adds moves *out of* its entry state and moves between states it
/// creates, never moves into existing states. So a later fragment may start at the end state of an
/// earlier one (no glue epsilons on the common path) without letting paths re-enter earlier fragments.
struct RegexCompiler {
    private var builder = NFABuilder()
    private var labels: [Int32] = []
    /// Offset of the outermost repetition being expanded, where a size error points (the pattern's start
    /// outside repetitions).
    private var offset: Int?

    /// A compiler for nodes whose classes are `classes`.
    init(classes: [ScalarSet]) {
        labels = classes.map { builder.label(for: $0) }
    }

    /// The NFA of `root`, with one accepting state (tag 0).
    mutating func compile(_ root: RegexNode) throws(RegexSyntaxError) -> ScalarNFA {
        let start = try newState()
        let end = try emit(root, from: start)
        builder.accept(end, tag: 0)
        return builder.build(start: start)
    }

    private mutating func newState() throws(RegexSyntaxError) -> Int32 {
        guard builder.stateCount < Regex.maximumStates else {
            throw RegexSyntaxError(
                message: "pattern too large (max \(Regex.maximumStates) NFA states)",
                offset: offset ?? 0
            )
        }
        return builder.addState()
    }

    private mutating func emit(_ node: RegexNode, from start: Int32) throws(RegexSyntaxError) -> Int32 {
        switch node {
        case .empty:
            return start
        case .scalarClass(let index):
            let end = try newState()
            builder.addEdge(from: start, label: labels[Int(index)], to: end)
            return end
        case .concatenation(let items):
            var current = start
            for item in items { current = try emit(item, from: current) }
            return current
        case .alternation(let branches):
            let end = try newState()
            for branch in branches { builder.addEpsilon(from: try emit(branch, from: start), to: end) }
            return end
        case .repetition(let body, let minimum, let maximum, let offset):
            let outer = self.offset
            self.offset = outer ?? offset
            defer { self.offset = outer }
            return try emitRepetition(body, minimum: minimum, maximum: maximum, from: start)
        }
    }

    private mutating func emitRepetition(
        _ body: RegexNode,
        minimum: Int,
        maximum: Int?,
        from start: Int32
    ) throws(RegexSyntaxError) -> Int32 {
        if case .scalarClass(let index) = body, maximum == nil, minimum <= 1 {
            // A self-loop rather than Thompson's loop: fewer states, and `(?s).*` becomes one state that
            // ByteDFA recognizes as accepting everything.
            let loop = try newState()
            if minimum == 0 {
                builder.addEpsilon(from: start, to: loop)
            } else {
                builder.addEdge(from: start, label: labels[Int(index)], to: loop)
            }
            builder.addEdge(from: loop, label: labels[Int(index)], to: loop)
            return loop
        }
        var current = start
        for _ in 0..<minimum { current = try emit(body, from: current) }
        guard let maximum else {
            let loop = try newState()
            builder.addEpsilon(from: current, to: loop)
            builder.addEpsilon(from: try emit(body, from: loop), to: loop)
            return loop
        }
        guard maximum > minimum else { return current }
        let end = try newState()
        builder.addEpsilon(from: current, to: end)
        for _ in minimum..<maximum {
            current = try emit(body, from: current)
            builder.addEpsilon(from: current, to: end)
        }
        return end
    }
}
