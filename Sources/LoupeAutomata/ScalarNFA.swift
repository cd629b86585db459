/// A nondeterministic automaton over Unicode scalars, with epsilon moves and a small integer tag on each
/// accepting state (the edit distance for Levenshtein automata, 0 otherwise).
///
/// Built by `Regex.compile`, `Levenshtein.automaton` or `Wildcard.automaton`, and run by `ByteDFA`. The
/// storage is compressed-sparse-row: the edges of state `s` are `edgeStart[s]..<edgeStart[s + 1]`, each
/// labelled with a shared scalar class (so a class repeated by `{1000}` is stored once).
package struct ScalarNFA: Sendable {
    /// The state the automaton starts in (before its epsilon closure).
    let start: Int32
    /// Per state: the accept tag, or `notAccepting`.
    let acceptTags: [UInt8]
    /// Per state plus one: where its edges begin in `edgeClasses`/`edgeTargets`.
    let edgeStart: [Int32]
    /// Per edge: the index of its label in `classStart`.
    let edgeClasses: [Int32]
    /// Per edge: the state reached.
    let edgeTargets: [Int32]
    /// Per state plus one: where its epsilon moves begin in `epsilonTargets`.
    let epsilonStart: [Int32]
    /// Per epsilon move: the state reached.
    let epsilonTargets: [Int32]
    /// Per class plus one: where its ranges begin in `classLows`/`classHighs`.
    let classStart: [Int32]
    /// Range bounds of all classes; each class's ranges are sorted and disjoint.
    let classLows: [UInt32]
    let classHighs: [UInt32]

    /// The tag value that marks a state as not accepting.
    static let notAccepting: UInt8 = 0xFF

    /// The number of states.
    package var stateCount: Int { acceptTags.count }

    /// The number of labelled (scalar-consuming) edges, for size diagnostics.
    package var edgeCount: Int { edgeTargets.count }

    /// Bytes the automaton's arrays hold, for caches that bound their memory.
    package var memoryFootprint: Int {
        acceptTags.count + 4 * (edgeStart.count + edgeClasses.count + edgeTargets.count + epsilonStart.count)
            + 4 * (epsilonTargets.count + classStart.count + classLows.count + classHighs.count)
    }

    /// The edges leaving `state`.
    func edges(of state: Int32) -> Range<Int> {
        Int(edgeStart[Int(state)])..<Int(edgeStart[Int(state) + 1])
    }

    /// The epsilon moves leaving `state`.
    func epsilons(of state: Int32) -> Range<Int> {
        Int(epsilonStart[Int(state)])..<Int(epsilonStart[Int(state) + 1])
    }

    /// The ranges of class `label`, as indices into `classLows`/`classHighs`.
    func ranges(ofClass label: Int32) -> Range<Int> {
        Int(classStart[Int(label)])..<Int(classStart[Int(label) + 1])
    }

    /// Index of the first range of class `label` whose upper bound is at least `scalar`.
    func firstRange(ofClass label: Int32, endingAtOrAfter scalar: UInt32) -> Int {
        let bounds = ranges(ofClass: label)
        var low = bounds.lowerBound
        var high = bounds.upperBound
        while low < high {
            let middle = (low + high) / 2
            if classHighs[middle] < scalar { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether class `label` contains `scalar`.
    func classContains(_ label: Int32, _ scalar: UInt32) -> Bool {
        let index = firstRange(ofClass: label, endingAtOrAfter: scalar)
        return index < ranges(ofClass: label).upperBound && classLows[index] <= scalar
    }
}

/// Collects states, edges and classes in any order and packs them into a `ScalarNFA`.
struct NFABuilder {
    private var acceptTags: [UInt8] = []
    private var edges: [(source: Int32, label: Int32, target: Int32)] = []
    private var epsilons: [(source: Int32, target: Int32)] = []
    private var classes: [ScalarSet] = []
    private var classIndex: [ScalarSet: Int32] = [:]

    /// The number of states added so far.
    var stateCount: Int { acceptTags.count }

    /// Adds a state, accepting with `acceptTag` when given.
    mutating func addState(acceptTag: UInt8? = nil) -> Int32 {
        acceptTags.append(acceptTag ?? ScalarNFA.notAccepting)
        return Int32(acceptTags.count - 1)
    }

    /// Makes `state` accepting with `tag` (keeping the smaller tag if it already accepts).
    mutating func accept(_ state: Int32, tag: UInt8) {
        acceptTags[Int(state)] = min(acceptTags[Int(state)], tag)
    }

    /// The label of `set`, shared by every edge with the same set.
    mutating func label(for set: ScalarSet) -> Int32 {
        if let existing = classIndex[set] { return existing }
        let label = Int32(classes.count)
        classes.append(set)
        classIndex[set] = label
        return label
    }

    /// An edge reading one scalar of class `label`.
    mutating func addEdge(from source: Int32, label: Int32, to target: Int32) {
        edges.append((source, label, target))
    }

    /// An edge reading one scalar of `set` (nothing is added for the empty set).
    mutating func addEdge(from source: Int32, _ set: ScalarSet, to target: Int32) {
        guard !set.isEmpty else { return }
        addEdge(from: source, label: label(for: set), to: target)
    }

    /// A move that reads nothing.
    mutating func addEpsilon(from source: Int32, to target: Int32) {
        guard source != target else { return }
        epsilons.append((source, target))
    }

    /// The packed automaton.
    func build(start: Int32) -> ScalarNFA {
        let count = acceptTags.count
        let (edgeStart, edgeOrder) = Self.groupBySource(edges.map(\.source), stateCount: count)
        let (epsilonStart, epsilonOrder) = Self.groupBySource(epsilons.map(\.source), stateCount: count)
        var classStart: [Int32] = [0]
        var lows: [UInt32] = []
        var highs: [UInt32] = []
        for set in classes {
            for range in set.ranges {
                lows.append(range.lowerBound)
                highs.append(range.upperBound)
            }
            classStart.append(Int32(lows.count))
        }
        return ScalarNFA(
            start: start,
            acceptTags: acceptTags,
            edgeStart: edgeStart,
            edgeClasses: edgeOrder.map { edges[$0].label },
            edgeTargets: edgeOrder.map { edges[$0].target },
            epsilonStart: epsilonStart,
            epsilonTargets: epsilonOrder.map { epsilons[$0].target },
            classStart: classStart,
            classLows: lows,
            classHighs: highs
        )
    }

    /// A counting sort of items by source state: the row starts and the item order.
    private static func groupBySource(_ sources: [Int32], stateCount: Int) -> (start: [Int32], order: [Int]) {
        var start = [Int32](repeating: 0, count: stateCount + 1)
        for source in sources { start[Int(source) + 1] += 1 }
        for state in 0..<stateCount { start[state + 1] += start[state] }
        var next = start
        var order = [Int](repeating: 0, count: sources.count)
        for (item, source) in sources.enumerated() {
            order[Int(next[Int(source)])] = item
            next[Int(source)] += 1
        }
        return (start, order)
    }
}
