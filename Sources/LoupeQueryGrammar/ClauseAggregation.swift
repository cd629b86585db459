/// Turns a run of clauses with `AND`, `OR`, `+` and `-` into a boolean tree, the way tantivy 0.27 does.
///
/// `AND` binds tighter than `OR` and than the implicit whitespace between clauses, so the run splits
/// into groups at every clause not preceded by `AND`:
///
/// - a group of two or more clauses (`a AND b`) becomes a nested group whose members are `must` unless
///   written `-x`, itself a `should` clause of the run (`a AND b OR c` is `(?(+a +b) ?c)`);
/// - a lone clause next to an `OR` is `should` (in `a OR b c`, `a` and `b` are `should` and `c` takes the
///   default occurrence); if it is `-x` it becomes `should` of a group holding `-x`, so that `a OR -b`
///   means "a, or anything but b";
/// - any other lone clause keeps its written occurrence, or none.
///
/// A run of one group is that group itself; a run of one clause is the clause, except that `-x` stays a
/// group of one `mustNot` clause.
///
/// Once the whole query is parsed, `normalized` drops duplicate clauses and pulls up lone negations.
enum ClauseAggregation {
    static func aggregate(_ elements: [ParsedElement]) -> ParsedNode {
        var groups: [[ParsedElement]] = []
        for element in elements {
            if element.operatorBefore == .and, !groups.isEmpty {
                groups[groups.count - 1].append(element)
            } else {
                groups.append([element])
            }
        }
        if groups.count == 1 {
            return single(groups[0])
        }
        var clauses: [ParsedClause] = []
        clauses.reserveCapacity(groups.count)
        for (index, group) in groups.enumerated() {
            guard group.count == 1 else {
                clauses.append(ParsedClause(occur: .should, node: conjunction(group)))
                continue
            }
            let element = group[0]
            let nextIsOr = index + 1 < groups.count && groups[index + 1][0].operatorBefore == .or
            let joinedByOr = element.operatorBefore == .or || nextIsOr
            switch element.occur {
            case .mustNot? where joinedByOr:
                let negated = ParsedNode.clauses([ParsedClause(occur: .mustNot, node: element.node)])
                clauses.append(ParsedClause(occur: .should, node: negated))
            case nil where joinedByOr:
                clauses.append(ParsedClause(occur: .should, node: element.node))
            case let occur:
                clauses.append(ParsedClause(occur: occur, node: element.node))
            }
        }
        return .clauses(clauses)
    }

    /// A run that is a single `AND` group, or a single clause.
    private static func single(_ group: [ParsedElement]) -> ParsedNode {
        guard group.count == 1 else {
            return conjunction(group)
        }
        let element = group[0]
        if element.occur == .mustNot {
            return .clauses([ParsedClause(occur: .mustNot, node: element.node)])
        }
        return element.node
    }

    /// `a AND b AND -c`: every member must match unless written `-x`.
    private static func conjunction(_ group: [ParsedElement]) -> ParsedNode {
        .clauses(group.map { ParsedClause(occur: $0.occur ?? .must, node: $0.node) })
    }

    /// tantivy's last pass over the parsed tree, through groups but not into boosted queries: in each
    /// group, a clause equal to an earlier one (same occurrence, same query) is dropped, then a lone
    /// `NOT x` or `(-x)` without a written occurrence is pulled up as `-x` (`rewrite_ast`, so `a (-b)`
    /// is `a -b`). `a a` is `(a)`, but `(a a)^2` keeps both.
    static func normalized(_ node: ParsedNode) -> ParsedNode {
        guard case .clauses(let clauses) = node else { return node }
        var kept: [ParsedClause] = []
        var keptByHash: [Int: [Int]] = [:]
        for clause in clauses {
            let child = ParsedClause(occur: clause.occur, node: normalized(clause.node))
            var hasher = Hasher()
            hasher.combine(child.occur)
            child.node.hashStructure(into: &hasher)
            let hash = hasher.finalize()
            let candidates = keptByHash[hash, default: []]
            if candidates.contains(where: { kept[$0].occur == child.occur && kept[$0].node.isSame(as: child.node) }) {
                continue
            }
            keptByHash[hash] = candidates + [kept.count]
            kept.append(child)
        }
        return .clauses(
            kept.map { clause in
                if clause.occur == nil, case .clauses(let inner) = clause.node, inner.count == 1 {
                    return inner[0]
                }
                return clause
            }
        )
    }
}
