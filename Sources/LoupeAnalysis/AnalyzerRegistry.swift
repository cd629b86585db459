/// Analyzers by name, as a schema refers to them (tantivy's `TokenizerManager`).
///
/// A value type: copy ``builtIn``, register your own analyzers, and hand the result to the index.
public struct AnalyzerRegistry: Sendable {
    /// The analyzers by name.
    private var analyzers: [String: TextAnalyzer]

    /// Creates an empty registry.
    public init() {
        analyzers = [:]
    }

    /// tantivy 0.27's built-in analyzers, plus `lowercase`:
    /// - `default`: words (Unicode alphanumeric runs), tokens of 40 bytes or more dropped, lowercased.
    /// - `en_stem`: `default`, then the Snowball English stemmer.
    /// - `raw`: the whole value as one term.
    /// - `lowercase`: the whole value as one lowercased term.
    /// - `whitespace`: runs between ASCII whitespace, unchanged.
    public static let builtIn: AnalyzerRegistry = {
        var registry = AnalyzerRegistry()
        registry.register("default", .standard)
        registry.register("en_stem", .englishStem)
        registry.register("raw", .raw)
        registry.register("lowercase", .lowercase)
        registry.register("whitespace", .whitespace)
        return registry
    }()

    /// The analyzer registered under `name`, if any.
    public func analyzer(named name: String) -> TextAnalyzer? {
        analyzers[name]
    }

    /// Registers `analyzer` under `name`, replacing any analyzer already there.
    public mutating func register(_ name: String, _ analyzer: TextAnalyzer) {
        analyzers[name] = analyzer
    }

    /// The registered names, sorted.
    public var names: [String] {
        analyzers.keys.sorted()
    }
}
