/// A regular expression the compiler rejects, with the byte offset of the problem.
package struct RegexSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. "unclosed group" or "repetition bound too large (max 1000)".
    package var message: String
    /// Byte offset in the pattern's UTF-8 where the problem is (the pattern's length when it ended early).
    package var offset: Int

    /// Creates an error.
    package init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// "regex syntax error at byte N: message".
    package var description: String { "regex syntax error at byte \(offset): \(message)" }
}

/// Regular expressions for regex term queries (a subset of Rust's `regex` crate syntax; see
/// `LoupeAutomata.swift` for the exact language and the differences).
package enum Regex {
    /// The largest bound of a counted repetition (`a{1000}`).
    package static let maximumRepetition = 1000
    /// The largest NFA a pattern may compile to, so a small pattern (`(a{1000}){1000}`) cannot take
    /// unbounded memory.
    package static let maximumStates = 100_000
    /// The deepest nesting of groups and repetitions, so the recursive parser and compiler stay far from
    /// the end of the stack.
    package static let maximumNesting = 100

    /// Compiles `pattern` to an NFA matching *whole* terms: the pattern is implicitly anchored at both
    /// ends, like tantivy's term regexes.
    ///
    /// - Throws: `RegexSyntaxError` with the byte offset of the first problem: bad syntax, unsupported
    ///   features (look-around, backreferences, `\p{…}`, assertions), bounds above `maximumRepetition`,
    ///   nesting deeper than `maximumNesting`, or more than `maximumStates` NFA states.
    /// - Complexity: O(*n*) in the size of the resulting NFA, which is at most `maximumStates`.
    package static func compile(_ pattern: String) throws(RegexSyntaxError) -> ScalarNFA {
        var parser = RegexParser(pattern)
        let root = try parser.parse()
        var compiler = RegexCompiler(classes: parser.classes)
        return try compiler.compile(root)
    }
}
