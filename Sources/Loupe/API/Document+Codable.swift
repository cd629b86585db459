/// Codable documents, as the Tantivy-for-Swift bindings spell them: add any `Encodable` whose coding keys are
/// field names, and decode stored documents (and hits) into any `Decodable`.
///
/// ```swift
/// struct Book: Codable { let title: String; let year: UInt64; let tags: [String] }
/// try writer.addDocument(Book(title: "Dune", year: 1965, tags: ["sf"]))
/// let books = try index.search("dune").map { hit throws(IndexError) in try hit.decode(Book.self) }
/// ```
///
/// A property encodes as one value of its field (a `String`, an integer, `Float` or `Double`, `Bool`, `Date`,
/// `URL`, `UUID`, a raw-value enum), as several (an array or set of those), or as none (`nil`). Decoding is driven
/// by the model: a scalar property reads its field's first stored value, an array property all of them (`[]` when
/// there are none), an optional is nil when the field has no stored value; numbers convert when exact.
extension IndexWriter {
    /// Adds `value` as a document, one field per coding key; returns its opstamp.
    ///
    /// A `[String: V]` dictionary is a document too, so `addDocument(["title": "Hi"])` gives the same document
    /// whichever overload the literal picks.
    /// - Throws: `IndexError` `.invalidDocument` naming the coding path when `value` is not a struct, class or
    ///   dictionary of scalars and arrays of scalars (`Book.author.name: 'author' holds a nested object…`), or
    ///   naming the field when the schema lacks it or its value does not fit the field's type.
    @discardableResult
    public func addDocument<T: Encodable>(_ value: T) throws(IndexError) -> UInt64 {
        try add(Result { () throws(IndexError) in try index.schema.prepare(index.schema.document(encoding: value)) })
    }

    /// Adds a document given as one JSON object, as `addJSON(_:)` does (the bindings' spelling).
    /// - Throws: `IndexError` `.invalidDocument` with the field or the byte offset of the JSON error.
    @discardableResult
    public func addDocument(json: String) throws(IndexError) -> UInt64 {
        try addJSON(json)
    }
}

extension StoredDocument {
    /// The stored fields read into a `T`, one property per field.
    ///
    /// A scalar property reads the field's first value, an array property every value (`[]` for none), an
    /// optional is nil when the field has no value. Integers convert between i64, u64 and f64 when exact, a
    /// `Double` reads any number, a `Date` reads dates and RFC 3339 text. Only stored fields come back.
    /// - Throws: `IndexError` `.invalidDocument` naming the model and field (`Book.year: the document has no
    ///   stored value of 'year' (is the field stored?)…`) when a non-optional scalar is missing or a value does
    ///   not fit its property.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws(IndexError) -> T {
        try DocumentDecoder().decode(type, from: self)
    }
}

extension SearchHit {
    /// The hit's stored fields read into a `T` (see `StoredDocument.decode(_:)`).
    /// - Throws: `IndexError` `.invalidDocument` naming the model and field.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws(IndexError) -> T {
        try document.decode(type)
    }
}

/// Typed search: the bindings' `index.search("dune", as: Book.self)`.
extension Index {
    /// The best `limit` hits for a query string, decoded into `T` (see `StoredDocument.decode(_:)`); unqualified
    /// words search `fields`, or the default (else every indexed text) field when empty. Matches are not counted
    /// beyond what finding the hits takes (`CountPolicy.hitsOnly`).
    /// - Throws: `IndexError` `.invalidQuery` for a query that does not parse, `.invalidDocument` naming the model
    ///   and field when a hit does not decode into `T`.
    public func search<T: Decodable>(
        _ text: String, as type: T.Type, limit: Int = 10, offset: Int = 0, fields: [String] = [],
        orderBy: SearchOrder = .relevance, boosts: [String: Float] = [:], options: QueryParserOptions = .init()
    ) throws(IndexError) -> [T] {
        try search(
            text, limit: limit, offset: offset, fields: fields, orderBy: orderBy, boosts: boosts, counting: .hitsOnly,
            options: options
        ).map { hit throws(IndexError) in try hit.decode(type) }
    }

    /// The best `limit` hits for `query`, decoded into `T` (see `StoredDocument.decode(_:)`); matches are not
    /// counted beyond what finding the hits takes.
    /// - Throws: `IndexError` `.invalidQuery`, `.invalidDocument` naming the model and field when a hit does not
    ///   decode into `T`.
    public func search<T: Decodable>(
        _ query: Query, as type: T.Type, limit: Int = 10, offset: Int = 0, orderBy: SearchOrder = .relevance,
        boosts: [String: Float] = [:]
    ) throws(IndexError) -> [T] {
        try search(query, limit: limit, offset: offset, orderBy: orderBy, boosts: boosts, counting: .hitsOnly)
            .map { hit throws(IndexError) in try hit.decode(type) }
    }
}

/// One-call Codable updates, on the writer this index has open or a temporary one (see `Index.add(_:)`).
extension Index {
    /// Adds `value` as a document (see `IndexWriter.addDocument(_:)`), commits and reloads.
    /// - Throws: `IndexError` `.invalidDocument` naming the field; `.writerLocked` when another `Index` or process
    ///   holds the writer.
    public func add<T: Encodable>(_ value: T) throws(IndexError) {
        try add(schema.document(encoding: value))
    }

    /// Adds every value as a document in one commit, then reloads: all of them or, if one is refused, none.
    /// - Throws: `IndexError` `.invalidDocument` naming the field; `.writerLocked`.
    public func add<T: Encodable>(contentsOf values: some Sequence<T>) throws(IndexError) {
        try add(contentsOf: values.map { (value) throws(IndexError) in try schema.document(encoding: value) })
    }

    /// Replaces the documents whose `idField` holds `id` by `value`, in one commit (then reloads): the bindings'
    /// `upsert(card, idField: "id", id: card.id)`.
    /// - Throws: `IndexError` `.invalidDocument` naming the field; `.invalidQuery` when `idField` is not an
    ///   indexed field of `id`'s type; `.writerLocked`.
    public func upsert<T: Encodable>(_ value: T, idField: String, id: some FieldValueConvertible) throws(IndexError) {
        try replace(field: idField, value: id.fieldValue, with: schema.document(encoding: value))
    }
}

extension Schema {
    /// `value` as a document, every coding key checked against the fields.
    /// - Throws: `IndexError` `.invalidDocument` naming the coding path, or the model and the field the schema
    ///   lacks.
    package func document<T: Encodable>(encoding value: T) throws(IndexError) -> Document {
        let document = try DocumentEncoder().encode(value)
        for entry in document.entries where field(named: entry.name) == nil {
            throw IndexError(
                .invalidDocument,
                "\(T.self).\(entry.name): the schema has no field '\(entry.name)'; add it to the schema, or leave it "
                    + "out of what \(T.self) encodes (its coding keys)",
                context: .init(field: entry.name))
        }
        return document
    }
}
