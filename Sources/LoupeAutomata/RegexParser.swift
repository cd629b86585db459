/// Recursive-descent parser for the regex syntax described in `LoupeAutomata.swift`, following the
/// structure (and, where they apply, the error messages) of Rust's `regex-syntax` crate.
///
/// Works on the pattern's scalars; errors report the UTF-8 byte offset of the offending scalar. Classes
/// are interned as they are parsed (`classes`), so a class repeated by `{1000}` is built and stored once.
struct RegexParser {
    /// The flags in force; `(?flags)` changes them until the end of the enclosing group.
    struct Flags {
        var caseInsensitive = false
        var dotMatchesNewline = false
        /// `(?R)`: `.` excludes `\r` as well as `\n`.
        var crlf = false
        /// `(?x)`: whitespace is ignored and `#` starts a comment, outside and inside classes.
        var verbose = false
    }

    let scalars: [Unicode.Scalar]
    /// `offsets[i]` is the byte offset of `scalars[i]`; one extra entry holds the pattern's length.
    private let offsets: [Int]
    var position = 0
    var flags = Flags()
    /// Open groups.
    private var nesting = 0
    /// Whether `^` may still appear: only flag groups and other `^` precede it.
    private var startAnchorAllowed = true
    private var groupNames: Set<String> = []
    /// Every class the pattern uses; `RegexNode.scalarClass` holds an index.
    private(set) var classes: [ScalarSet] = []
    private var classIndex: [ScalarSet: Int32] = [:]

    /// A parser positioned at the start of `pattern`.
    init(_ pattern: String) {
        var scalars: [Unicode.Scalar] = []
        var offsets: [Int] = []
        var offset = 0
        for scalar in pattern.unicodeScalars {
            scalars.append(scalar)
            offsets.append(offset)
            offset += UTF8.width(scalar)
        }
        offsets.append(offset)
        self.scalars = scalars
        self.offsets = offsets
    }

    /// The whole pattern as one node.
    mutating func parse() throws(RegexSyntaxError) -> RegexNode {
        let root = try parseAlternation().node
        if position < scalars.count {
            throw error("unopened group", at: position)
        }
        return root
    }

    // MARK: Cursor

    /// The scalar at the cursor, or `nil` at the end.
    var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    /// The scalar `distance` after the cursor, or `nil` past the end.
    func peek(_ distance: Int = 1) -> Unicode.Scalar? {
        position + distance < scalars.count ? scalars[position + distance] : nil
    }

    /// An error pointing at the scalar with index `index` (or the end of the pattern).
    func error(_ message: String, at index: Int) -> RegexSyntaxError {
        RegexSyntaxError(message: message, offset: offsets[min(index, scalars.count)])
    }

    /// In verbose mode, skips whitespace and `#` comments (which run to the end of the line).
    mutating func skipIgnored() {
        guard flags.verbose else { return }
        while let scalar = current {
            if scalar == "#" {
                while let skipped = current, skipped != "\n" { position += 1 }
            } else if scalar.properties.isWhitespace {
                position += 1
            } else {
                return
            }
        }
    }

    /// The index of `set` in `classes`, adding it if new.
    mutating func intern(_ set: ScalarSet) -> RegexNode {
        if let index = classIndex[set] { return .scalarClass(index) }
        let index = Int32(classes.count)
        classes.append(set)
        classIndex[set] = index
        return .scalarClass(index)
    }

    /// A literal scalar, case-folded under `(?i)`.
    mutating func literal(_ scalar: UInt32) -> RegexNode {
        intern(flags.caseInsensitive ? ScalarSet(scalar).caseFolded() : ScalarSet(scalar))
    }

    // MARK: Structure

    /// `concatenation ('|' concatenation)*`, with the depth of the deepest repetition or group inside.
    private mutating func parseAlternation() throws(RegexSyntaxError) -> (node: RegexNode, depth: Int) {
        var branches = [try parseConcatenation()]
        while current == "|" {
            position += 1
            startAnchorAllowed = false
            branches.append(try parseConcatenation())
        }
        if branches.count == 1 { return branches[0] }
        return (.alternation(branches.map(\.node)), branches.map(\.depth).max() ?? 0)
    }

    private mutating func parseConcatenation() throws(RegexSyntaxError) -> (node: RegexNode, depth: Int) {
        var items: [(node: RegexNode, depth: Int)] = []
        // Whether the last thing parsed may take a quantifier (not a flag group, not an anchor).
        var repeatable = false
        while true {
            skipIgnored()
            guard let scalar = current, scalar != "|", scalar != ")" else { break }
            let start = position
            switch scalar {
            case "*", "+", "?", "{":
                guard repeatable, let last = items.popLast() else {
                    throw error("repetition operator missing expression", at: start)
                }
                let (minimum, maximum) = try parseQuantifier()
                let depth = last.depth + 1
                guard depth <= Regex.maximumNesting else {
                    throw error("nesting too deep (max \(Regex.maximumNesting))", at: start)
                }
                let offset = offsets[start]
                items.append((.repeating(last.node, minimum: minimum, maximum: maximum, offset: offset), depth))
                continue
            case "(":
                guard let group = try parseGroup() else {
                    repeatable = false
                    continue
                }
                items.append(group)
            case "^":
                guard startAnchorAllowed else {
                    throw error("`^` is only allowed at the start of the pattern (terms match whole)", at: start)
                }
                position += 1
                repeatable = false
                continue
            case "$":
                position += 1
                skipIgnored()
                guard nesting == 0, current == nil else {
                    throw error("`$` is only allowed at the end of the pattern (terms match whole)", at: start)
                }
                repeatable = false
                continue
            case "[":
                items.append((intern(try parseClass()), 0))
            case ".":
                position += 1
                items.append((intern(dotClass()), 0))
            case "\\":
                switch try parseEscape() {
                case .scalar(let value): items.append((literal(value), 0))
                case .set(let set): items.append((intern(flags.caseInsensitive ? set.caseFolded() : set), 0))
                }
            default:
                position += 1
                items.append((literal(scalar.value), 0))
            }
            repeatable = true
            startAnchorAllowed = false
        }
        return (.concatenating(items.map(\.node)), items.map(\.depth).max() ?? 0)
    }

    /// What `.` matches under the current flags.
    private func dotClass() -> ScalarSet {
        if flags.dotMatchesNewline { return .all }
        let excluded = flags.crlf ? ScalarSet(ranges: [0x0A...0x0A, 0x0D...0x0D]) : ScalarSet(0x0A)
        return excluded.complement()
    }

    /// `*`, `+`, `?`, `{n}`, `{n,}` or `{n,m}`, each optionally followed by the lazy `?` (which does not
    /// change which strings match).
    private mutating func parseQuantifier() throws(RegexSyntaxError) -> (minimum: Int, maximum: Int?) {
        let start = position
        let scalar = scalars[position]
        position += 1
        let bounds: (minimum: Int, maximum: Int?)
        switch scalar {
        case "*": bounds = (0, nil)
        case "+": bounds = (1, nil)
        case "?": bounds = (0, 1)
        default: bounds = try parseCountedBounds(openedAt: start)
        }
        skipIgnored()
        if current == "?" { position += 1 }
        return bounds
    }

    /// The inside of `{…}`, the cursor just past `{`. Whitespace is allowed around the numbers, as in Rust.
    private mutating func parseCountedBounds(openedAt open: Int) throws(RegexSyntaxError) -> (Int, Int?) {
        let minimum = try parseDecimal(openedAt: open)
        var maximum: Int? = minimum
        if current == "," {
            position += 1
            skipWhitespace()
            maximum = current == "}" ? nil : try parseDecimal(openedAt: open)
        }
        guard current == "}" else {
            guard current != nil else { throw error("unclosed counted repetition", at: open) }
            throw error("invalid counted repetition: expected `}`", at: position)
        }
        position += 1
        if let maximum, maximum < minimum {
            throw error("invalid repetition range: the minimum is larger than the maximum", at: open)
        }
        return (minimum, maximum)
    }

    private mutating func parseDecimal(openedAt open: Int) throws(RegexSyntaxError) -> Int {
        skipWhitespace()
        guard current != nil else { throw error("unclosed counted repetition", at: open) }
        let start = position
        var value = 0
        while let scalar = current, ("0"..."9").contains(scalar) {
            value = min(value * 10 + Int(scalar.value - 0x30), Regex.maximumRepetition + 1)
            position += 1
        }
        guard position > start else { throw error("repetition quantifier expects a valid decimal", at: start) }
        guard value <= Regex.maximumRepetition else {
            throw error("repetition bound too large (max \(Regex.maximumRepetition))", at: start)
        }
        skipWhitespace()
        return value
    }

    private mutating func skipWhitespace() {
        while let scalar = current, scalar.properties.isWhitespace { position += 1 }
    }

    /// A group, the cursor at `(`; `nil` for a flag directive such as `(?i)`, which only changes flags.
    private mutating func parseGroup() throws(RegexSyntaxError) -> (node: RegexNode, depth: Int)? {
        let open = position
        position += 1
        let outerFlags = flags
        if current == "?" {
            position += 1
            switch current {
            case nil:
                throw error("unclosed group", at: open)
            case "=", "!":
                throw error("look-around, including look-ahead and look-behind, is not supported", at: open)
            case "<" where peek() == "=" || peek() == "!":
                throw error("look-around, including look-ahead and look-behind, is not supported", at: open)
            case "<":
                position += 1
                try parseGroupName()
            case "P" where peek() == "<":
                position += 2
                try parseGroupName()
            case ":":
                position += 1
            default:
                if try parseFlags(openedAt: open) { return nil }
            }
        }
        nesting += 1
        guard nesting <= Regex.maximumNesting else {
            throw error("nesting too deep (max \(Regex.maximumNesting))", at: open)
        }
        startAnchorAllowed = false
        let inner = try parseAlternation()
        guard current == ")" else { throw error("unclosed group", at: open) }
        position += 1
        nesting -= 1
        flags = outerFlags
        return (inner.node, inner.depth + 1)
    }

    /// The flags of `(?flags)` or `(?flags:`, the cursor just past `?`: applies them and returns whether
    /// this was a directive (`)`, the flags hold until the enclosing group ends) rather than a group.
    private mutating func parseFlags(openedAt open: Int) throws(RegexSyntaxError) -> Bool {
        var enable = true
        var negation: Int?
        var sawFlag = false
        var seen: Set<Unicode.Scalar> = []
        while let scalar = current, scalar != ")", scalar != ":" {
            if scalar == "-" {
                guard negation == nil else { throw error("flag negation operator repeated", at: position) }
                negation = position
                enable = false
                sawFlag = false
                position += 1
                continue
            }
            guard seen.insert(scalar).inserted else { throw error("duplicate flag", at: position) }
            switch scalar {
            case "i": flags.caseInsensitive = enable
            case "s": flags.dotMatchesNewline = enable
            case "R": flags.crlf = enable
            case "x": flags.verbose = enable
            case "m", "U": break // Line anchors and greed do not change which whole terms match.
            case "u" where enable: break // Always on.
            case "u": throw error("byte-oriented matching (`(?-u)`) is not supported", at: position)
            default: throw error("unrecognized flag", at: position)
            }
            sawFlag = true
            position += 1
        }
        guard let end = current else { throw error("unclosed group", at: open) }
        if let negation, !sawFlag { throw error("dangling flag negation operator", at: negation) }
        guard !seen.isEmpty else { throw error("expected flags, `:`, `<name>` or `P<name>` after `(?`", at: position) }
        position += 1
        return end == ")"
    }

    /// `name>` of `(?<name>` or `(?P<name>`; names are checked but play no part in matching.
    private mutating func parseGroupName() throws(RegexSyntaxError) {
        let start = position
        var name = ""
        while let scalar = current, scalar != ">" {
            let isLetter = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
            let isOther = ("0"..."9").contains(scalar) || scalar == "." || scalar == "[" || scalar == "]"
            guard isLetter || (isOther && !name.isEmpty) else {
                throw error("invalid capture group character", at: position)
            }
            name.unicodeScalars.append(scalar)
            position += 1
        }
        guard current == ">" else { throw error("unclosed capture group name", at: start) }
        guard !name.isEmpty else { throw error("empty capture group name", at: position) }
        guard groupNames.insert(name).inserted else { throw error("duplicate capture group name", at: start) }
        position += 1
    }
}
