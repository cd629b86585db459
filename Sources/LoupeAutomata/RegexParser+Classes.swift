extension RegexParser {
    /// A bracketed class, the cursor at `[`: its set, case-folded under `(?i)` *before* negation (so
    /// `(?i)[^a]` excludes both `a` and `A`, as in Rust).
    ///
    /// Rust's rules: after `[` and an optional `^`, leading `-` and then a leading `]` are literals; `-`
    /// before `]` or `-` is literal; `[:name:]` inside brackets is an ASCII class (an unknown name makes
    /// it a nested class instead); nested classes are unions; `&&`, `--` and `~~` (intersection,
    /// difference, symmetric difference) bind looser than union and associate to the left.
    mutating func parseClass() throws(RegexSyntaxError) -> ScalarSet {
        let open = position
        let (set, negated) = try parseBracketed(openedAt: open)
        let folded = flags.caseInsensitive ? set.caseFolded() : set
        return negated ? folded.complement() : folded
    }

    private enum SetOperation {
        case intersection, difference, symmetricDifference
    }

    /// The body of `[…]` (nested ones included) and whether it was negated, the cursor at `[`; consumes
    /// the closing `]`.
    private mutating func parseBracketed(openedAt open: Int) throws(RegexSyntaxError) -> (ScalarSet, Bool) {
        position += 1
        skipIgnored()
        let negated = current == "^"
        if negated {
            position += 1
            skipIgnored()
        }
        var union: [ClosedRange<UInt32>] = []
        while current == "-" {
            union.append(0x2D...0x2D)
            position += 1
            skipIgnored()
        }
        if union.isEmpty, current == "]" {
            union.append(0x5D...0x5D)
            position += 1
        }
        var pending: (left: ScalarSet, operation: SetOperation)?
        while true {
            skipIgnored()
            guard let scalar = current else { throw error("unclosed character class", at: open) }
            let operation: SetOperation?
            switch (scalar, peek()) {
            case ("&", "&"): operation = .intersection
            case ("-", "-"): operation = .difference
            case ("~", "~"): operation = .symmetricDifference
            default: operation = nil
            }
            if let operation {
                position += 2
                pending = (Self.apply(pending, to: ScalarSet(ranges: union)), operation)
                union = []
                continue
            }
            switch scalar {
            case "]":
                position += 1
                return (Self.apply(pending, to: ScalarSet(ranges: union)), negated)
            case "[":
                if let ascii = parseASCIIClass() {
                    union += ascii.ranges
                } else {
                    let (inner, innerNegated) = try parseBracketed(openedAt: position)
                    union += (innerNegated ? inner.complement() : inner).ranges
                }
            default:
                union += try parseClassRange(openedAt: open).ranges
            }
        }
    }

    private static func apply(_ pending: (left: ScalarSet, operation: SetOperation)?, to right: ScalarSet) -> ScalarSet
    {
        guard let pending else { return right }
        switch pending.operation {
        case .intersection: return pending.left.intersection(right)
        case .difference: return pending.left.subtracting(right)
        case .symmetricDifference: return pending.left.symmetricDifference(right)
        }
    }

    /// `[:name:]` or `[:^name:]` with a known name, the cursor at `[`; `nil` (cursor unmoved) otherwise.
    private mutating func parseASCIIClass() -> ScalarSet? {
        guard peek() == ":" else { return nil }
        var index = position + 2
        let negated = index < scalars.count && scalars[index] == "^"
        if negated { index += 1 }
        var name = ""
        while index < scalars.count, scalars[index] != ":" {
            name.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard index + 1 < scalars.count, scalars[index + 1] == "]", let set = Self.posixClass(name) else {
            return nil
        }
        position = index + 2
        return negated ? set.complement() : set
    }

    /// A literal, an escape or a range `a-z` inside a class.
    private mutating func parseClassRange(openedAt open: Int) throws(RegexSyntaxError) -> ScalarSet {
        let start = position
        let first = try parseClassItem()
        skipIgnored()
        guard current != nil else { throw error("unclosed character class", at: open) }
        guard current == "-", peek() != "]", peek() != "-" else {
            switch first {
            case .scalar(let value): return ScalarSet(value)
            case .set(let set): return set
            }
        }
        position += 1
        skipIgnored()
        guard current != nil else { throw error("unclosed character class", at: open) }
        let second = try parseClassItem()
        guard case .scalar(let low) = first, case .scalar(let high) = second else {
            throw error("invalid range boundary, must be a literal", at: start)
        }
        guard low <= high else {
            throw error("invalid character class range, the start must be <= the end", at: start)
        }
        return ScalarSet(ranges: [low...high])
    }

    /// A literal or an escape, the cursor on it (not at the end).
    private mutating func parseClassItem() throws(RegexSyntaxError) -> Escape {
        let scalar = scalars[position]
        if scalar == "\\" { return try parseEscape() }
        position += 1
        return .scalar(scalar.value)
    }
}
