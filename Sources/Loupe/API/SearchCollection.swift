#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A schema and an index behind a typed API: models go in, models come out, as the Tantivy-for-Swift bindings'
/// `SearchCollection` does.
///
/// ```swift
/// struct Book: Codable { let title: String; let year: UInt64 }
/// let books = try SearchCollection<Book>(path: url) { s in
///     s.addTextField("title", stored: true)
///     s.addU64Field("year", stored: true, fast: true)
/// }
/// try books.add(Book(title: "Dune", year: 1965))
/// let results = try books.search("dune")       // [Book]
/// ```
///
/// The schema's field names are the model's coding keys: a property the schema lacks is refused when added
/// (naming it), and only stored fields come back, so every non-optional scalar property needs a stored field.
/// Each update (`add`, `upsert`, `removeAll`) commits and reloads, on the writer the index has open if there is one
/// (see `Index.add(_:)`); use `index` for anything the collection does not cover.
public struct SearchCollection<Model: Codable> {
    /// The index the collection reads and writes.
    public let index: Index

    /// A collection over `index`, whose schema fits `Model`.
    public init(index: Index) {
        self.index = index
    }

    /// Opens the collection at `path`, creating it (and the folder) when there is none.
    /// - Throws: `IndexError` `.schemaMismatch` when an index exists there with another schema, `.invalidArgument`
    ///   for a bad schema, `.corruption`, `.io`.
    public init(path: String, schema: Schema) throws(IndexError) {
        index = try Index(path: path, schema: schema)
    }

    /// Opens the collection at the file URL `path`, creating it when there is none (see `init(path:schema:)`).
    /// - Throws: `IndexError` `.invalidArgument` for a URL that is not a file URL, and what `init(path:schema:)`
    ///   throws.
    public init(path: URL, schema: Schema) throws(IndexError) {
        index = try Index(path: path, schema: schema)
    }

    /// Opens the collection at `path` with the schema `build` describes, creating it when there is none.
    /// - Throws: `IndexError` `.invalidArgument` for a bad schema (a field declared twice), `.schemaMismatch`
    ///   when an index exists there with another schema.
    public init(path: String, schema build: (SchemaBuilder) -> Void) throws(IndexError) {
        try self.init(path: path, schema: Self.schema(build))
    }

    /// Opens the collection at the file URL `path` with the schema `build` describes (see `init(path:schema:)`).
    public init(path: URL, schema build: (SchemaBuilder) -> Void) throws(IndexError) {
        try self.init(path: path, schema: Self.schema(build))
    }

    /// A new collection that lives in memory only.
    /// - Throws: `IndexError` `.invalidArgument` for a schema `SchemaBuilder.build()` found invalid.
    public static func inMemory(schema: Schema) throws(IndexError) -> SearchCollection {
        try SearchCollection(index: .inMemory(schema: schema))
    }

    /// A new in-memory collection with the schema `build` describes.
    /// - Throws: `IndexError` `.invalidArgument` for a bad schema.
    public static func inMemory(_ build: (SchemaBuilder) -> Void) throws(IndexError) -> SearchCollection {
        try inMemory(schema: schema(build))
    }

    /// The schema `build` describes; an invalid one is refused by the index made from it.
    private static func schema(_ build: (SchemaBuilder) -> Void) -> Schema {
        let builder = SchemaBuilder()
        build(builder)
        return builder.build()
    }

    /// Searchable documents (those committed as of the last reload).
    public var count: Int { index.documentCount }

    /// Adds `model`, commits and reloads.
    /// - Throws: `IndexError` `.invalidDocument` naming the property the schema lacks or whose value does not fit.
    public func add(_ model: Model) throws(IndexError) {
        try index.add(model)
    }

    /// Adds every model in one commit, then reloads: all of them or, if one is refused, none.
    /// - Throws: `IndexError` `.invalidDocument` naming the field.
    public func add(contentsOf models: some Sequence<Model>) throws(IndexError) {
        try index.add(contentsOf: models)
    }

    /// Replaces the models whose `idField` holds `id` by `model`, in one commit.
    /// - Throws: `IndexError` `.invalidDocument`; `.invalidQuery` when `idField` is not an indexed field of `id`'s
    ///   type.
    public func upsert(_ model: Model, idField: String, id: some FieldValueConvertible) throws(IndexError) {
        try index.upsert(model, idField: idField, id: id)
    }

    /// Removes every model, commits and reloads.
    public func removeAll() throws(IndexError) {
        try index.delete(matching: .matchAll)
    }

    /// The first model whose `idField` holds `id`, read without scoring; nil when there is none.
    /// - Throws: `IndexError` `.invalidQuery` for an unknown or unindexed field, `.invalidDocument` when the stored
    ///   document does not decode into `Model`.
    public func get(idField: String, id: some FieldValueConvertible) throws(IndexError) -> Model? {
        try index.get(idField, equals: id)?.decode(Model.self)
    }

    /// The best `limit` models for a query string (the index's query syntax), whose words without a field search
    /// the schema's default fields or, when it names none, every indexed text field.
    /// - Throws: `IndexError` `.invalidQuery` for a query that does not parse, `.invalidDocument` when a hit does
    ///   not decode into `Model`.
    public func search(_ text: String, limit: Int = 10) throws(IndexError) -> [Model] {
        try index.search(text, as: Model.self, limit: limit)
    }

    /// The best `limit` models for `query`.
    /// - Throws: `IndexError` `.invalidQuery`, `.invalidDocument` when a hit does not decode into `Model`.
    public func search(_ query: Query, limit: Int = 10) throws(IndexError) -> [Model] {
        try index.search(query, as: Model.self, limit: limit)
    }

    /// The best `limit` models for a query string, with their scores, best first.
    /// - Throws: as `search(_:limit:)`.
    public func searchScored(_ text: String, limit: Int = 10) throws(IndexError) -> [(score: Float, model: Model)] {
        try hits(text, limit: limit).map { hit throws(IndexError) in (hit.score, try hit.decode(Model.self)) }
    }

    /// The best `limit` models for `query`, with their scores, best first.
    /// - Throws: as `search(_:limit:)`.
    public func searchScored(_ query: Query, limit: Int = 10) throws(IndexError) -> [(score: Float, model: Model)] {
        try hits(query, limit: limit).map { hit throws(IndexError) in (hit.score, try hit.decode(Model.self)) }
    }

    /// The hits of a scored search; the collection reports no match count, so none is kept beyond the hits.
    private func hits(_ text: String, limit: Int) throws(IndexError) -> SearchResults {
        try index.search(text, limit: limit, counting: .hitsOnly)
    }

    private func hits(_ query: Query, limit: Int) throws(IndexError) -> SearchResults {
        try index.search(query, limit: limit, counting: .hitsOnly)
    }
}

extension SearchCollection: Sendable where Model: Sendable {}
