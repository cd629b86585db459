@_exported import LoupeAnalysis

/// The analyzer a text field's values and query words go through, by name: how text becomes terms.
///
/// The built-ins are tantivy's (and the Tantivy-for-Swift bindings' `Analyzer` cases); a custom analyzer is a
/// ``TextAnalyzer`` pipeline registered under a name with `Index.registerAnalyzer(_:_:)`, then named here:
///
/// ```swift
/// let schema = SchemaBuilder()
///     .addTextField("title", stored: true, tokenizer: .english)
///     .addTextField("code", tokenizer: "folded")          // any registered name
///     .build()
/// ```
///
/// The schema records the name, so the index can be reopened (register custom analyzers again after opening).
public struct Analyzer: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name the schema records (`default`, `en_stem`, `raw`, `lowercase`, `whitespace`, or a registered one).
    public let name: String

    /// The analyzer registered under `name`.
    public init(_ name: String) { self.name = name }

    /// A string literal names the analyzer.
    public init(stringLiteral name: String) { self.name = name }

    /// Words (Unicode letter and digit runs), lowercased, tokens of 40 bytes or more dropped; unstemmed.
    public static let `default` = Analyzer("default")
    /// `.default` followed by the Snowball English stemmer (tantivy's `en_stem`).
    public static let english = Analyzer("en_stem")
    /// The whole value as one case-sensitive token (exact match).
    public static let raw = Analyzer("raw")
    /// The whole value as one lowercased token (case-insensitive exact match: tags, authors, ids).
    public static let lowercase = Analyzer("lowercase")
    /// Runs between ASCII whitespace, unchanged.
    public static let whitespace = Analyzer("whitespace")

    /// The analyzer registered under `name` (spelled out where a literal does not read well).
    public static func custom(_ name: String) -> Analyzer { Analyzer(name) }

    /// The name.
    public var description: String { name }
}
