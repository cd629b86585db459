/// How a clause takes part in the boolean group that holds it (tantivy's `Occur`).
package enum Occur: Sendable, Equatable, Hashable {
    /// The clause may match; it adds to the score. A group of only `should` clauses needs one to match.
    case should
    /// The clause must match (`+term`, `a AND b`).
    case must
    /// The clause must not match (`-term`, `NOT term`).
    case mustNot
}

/// One member of a boolean group: a sub-query and how it occurs.
package struct Clause: Sendable, Equatable {
    /// How the sub-query occurs. Clauses written without `+`, `-`, `AND`, `OR` or `NOT` get the
    /// default occurrence chosen by `parseQuery(_:defaultConjunction:)`.
    package var occur: Occur
    /// The sub-query.
    package var query: QueryAST

    /// Creates a clause.
    package init(_ occur: Occur, _ query: QueryAST) {
        self.occur = occur
        self.query = query
    }
}

/// A parsed query, before any field is resolved or any literal analyzed (tantivy's `UserInputAst`).
///
/// The tree has the exact shape tantivy's grammar gives, so an engine that lowers it the way tantivy's
/// `QueryParser` does gets tantivy's queries. Every construct of the syntax is represented, including
/// those an engine may not support yet, so that the engine can reject them with a precise message.
package indirect enum QueryAST: Sendable, Equatable {
    /// A boolean group. It is empty only for a query of nothing but whitespace (tantivy: match nothing).
    case boolean([Clause])
    /// A term, phrase, range, set, exists or regex query.
    case leaf(LeafQuery)
    /// `query^boost`. Never 1: the grammar drops a boost of 1, as tantivy does.
    case boost(QueryAST, Double)
    /// `*`: every document.
    case all
}

/// The end of a range: inclusive (`[`, `]`, `>=`, `<=`), exclusive (`{`, `}`, `>`, `<`) or open (`*`).
package enum Bound: Sendable, Equatable, Hashable {
    /// The bound value belongs to the range.
    case included(String)
    /// The bound value is outside the range.
    case excluded(String)
    /// No bound on this side.
    case unbounded
}

/// A leaf of the query tree: what to look for, in which field, and where it was written.
package struct LeafQuery: Sendable, Equatable {
    /// The field name as written, escapes resolved; `nil` means the default fields.
    ///
    /// `field:(a b)` gives its field to every leaf inside that names none, so only leaves outside such
    /// a group can have `nil` here.
    package var field: String?
    /// What the leaf matches.
    package var kind: Kind
    /// Byte offsets of the leaf in the query text, from its field name (if written on the leaf) to its
    /// last character; occurrence prefixes and boosts are not included.
    package var span: Range<Int>

    /// Creates a leaf.
    package init(field: String?, kind: Kind, span: Range<Int>) {
        self.field = field
        self.kind = kind
        self.span = span
    }

    /// What a leaf matches. Literal text is raw: escapes are resolved but nothing is tokenized or
    /// lowercased, because only the engine knows each field's analyzer.
    package enum Kind: Sendable, Hashable {
        /// An unquoted word such as `rust`, `c++`, `foo-bar` or `3.14`. The analyzer may split it into
        /// several tokens, in which case tantivy searches them as a phrase.
        case term(String)
        /// A quoted phrase (`"a b"` or `'a b'`), with its slop (`~2`) and whether its last word is a
        /// prefix (`*`). A negative number followed by `~n` or `*` (`year:-1~2`) is also a phrase.
        case phrase(String, slop: UInt32, prefix: Bool)
        /// `[a TO b]`, `{a TO b}`, mixed brackets, or `>a`, `>=a`, `<a`, `<=a`. A `*` bound is open.
        case range(lower: Bound, upper: Bound)
        /// `field: IN [a b c]`: any of the values, each taken as one term.
        case set([String])
        /// `field:*`: documents that have a value in the field.
        case exists
        /// `field:/pattern/`: terms matching a regular expression (`\/` in the pattern is a `/`).
        case regex(String)
    }
}
