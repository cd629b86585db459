/// The parser's tree: `QueryAST` before default occurrences are chosen, with what tantivy's
/// `UserInputAst` also knows and `QueryAST` does not need (which quote a literal used).
indirect enum ParsedNode {
    /// A boolean group; a `nil` occurrence was written without `+`, `-`, `AND`, `OR` or `NOT`.
    case clauses([ParsedClause])
    /// A leaf, and the quote character of a quoted literal: tantivy tells `"a"`, `'a'` and `a` apart
    /// when it drops duplicate clauses.
    case leaf(LeafQuery, quote: UInt8?)
    case all
    case boost(ParsedNode, Double)

    /// Equality as tantivy's `UserInputAst` sees it: positions do not count.
    func isSame(as other: ParsedNode) -> Bool {
        switch (self, other) {
        case (.clauses(let left), .clauses(let right)):
            return left.count == right.count
                && zip(left, right).allSatisfy { $0.occur == $1.occur && $0.node.isSame(as: $1.node) }
        case (.leaf(let left, let leftQuote), .leaf(let right, let rightQuote)):
            return left.field == right.field && left.kind == right.kind && leftQuote == rightQuote
        case (.all, .all):
            return true
        case (.boost(let left, let leftBoost), .boost(let right, let rightBoost)):
            return leftBoost == rightBoost && left.isSame(as: right)
        default:
            return false
        }
    }

    /// Feeds what `isSame(as:)` compares to `hasher`.
    func hashStructure(into hasher: inout Hasher) {
        switch self {
        case .clauses(let clauses):
            hasher.combine(clauses.count)
            for clause in clauses {
                hasher.combine(clause.occur)
                clause.node.hashStructure(into: &hasher)
            }
        case .leaf(let leaf, let quote):
            hasher.combine(leaf.field)
            hasher.combine(leaf.kind)
            hasher.combine(quote)
        case .all:
            hasher.combine("*")
        case .boost(let node, let boost):
            hasher.combine(boost)
            node.hashStructure(into: &hasher)
        }
    }

    /// The public tree, with implicit occurrences replaced by `defaultOccur`.
    func resolved(defaultOccur: Occur) -> QueryAST {
        switch self {
        case .clauses(let clauses):
            return .boolean(
                clauses.map { Clause($0.occur ?? defaultOccur, $0.node.resolved(defaultOccur: defaultOccur)) }
            )
        case .leaf(let leaf, _):
            return .leaf(leaf)
        case .all:
            return .all
        case .boost(let node, let boost):
            return .boost(node.resolved(defaultOccur: defaultOccur), boost)
        }
    }
}

/// A member of a `ParsedNode.clauses` group.
struct ParsedClause {
    var occur: Occur?
    var node: ParsedNode
}

/// `AND` or `OR` written between two clauses.
enum BinaryOperator {
    case and, or
}

/// One clause of a run such as `a AND -b OR c`: the operator written before it, its `+`/`-` prefix
/// and the clause itself.
struct ParsedElement {
    var operatorBefore: BinaryOperator?
    var occur: Occur?
    var node: ParsedNode
}
