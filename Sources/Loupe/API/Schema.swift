/// The kind of values a field holds.
public enum FieldType: String, Sendable, Hashable, CaseIterable {
    /// Tokenized text, searched word by word.
    case text
    /// One untokenized token per value (a keyword, an id, a tag).
    case string
    /// Unsigned 64-bit integers.
    case u64
    /// Signed 64-bit integers.
    case i64
    /// 64-bit floating-point numbers.
    case f64
    /// Booleans.
    case bool
    /// A point in time: RFC 3339 in JSON, `Date` in Swift; kept at microsecond precision.
    case date
}

/// How much the postings of an indexed text field record (tantivy's `IndexRecordOption`).
public enum IndexRecordOption: String, Sendable, Hashable, Comparable {
    /// Document ids only.
    case basic
    /// Ids and term frequencies (enables BM25).
    case freq
    /// Ids, frequencies and positions (enables phrase queries).
    case position

    /// Orders by how much is recorded: basic < freq < position.
    public static func < (a: Self, b: Self) -> Bool {
        let order: [Self] = [.basic, .freq, .position]
        return order.firstIndex(of: a)! < order.firstIndex(of: b)!
    }
}

/// One field of a schema and its options.
public struct FieldEntry: Sendable, Hashable {
    /// The field's name, unique in its schema.
    public var name: String
    /// The kind of values it holds.
    public var type: FieldType
    /// Kept in the document store and returned with hits.
    public var stored: Bool
    /// Searchable through the term dictionary.
    public var indexed: Bool
    /// Kept in a columnar fast field, readable per document in O(1) (sorting, ranges, aggregations).
    public var fast: Bool
    /// Analyzer name for text fields (`default`, `en_stem`, `raw`, `lowercase`, `whitespace`, or a registered one).
    /// String fields always use `raw`.
    public var tokenizer: String
    /// What the postings record; text fields only (string fields record `basic`, numeric fields `basic`).
    public var record: IndexRecordOption

    /// A field entry; `tokenizer` and `record` apply to text fields only.
    public init(
        name: String, type: FieldType, stored: Bool = true, indexed: Bool = true, fast: Bool = false,
        tokenizer: Analyzer = .default, record: IndexRecordOption = .position
    ) {
        self.name = name
        self.type = type
        self.stored = stored
        self.indexed = indexed
        self.fast = fast
        self.tokenizer = type == .text ? tokenizer.name : "raw"
        self.record = type == .text ? record : .basic
    }
}

/// The fields of an index, fixed when the index is created and persisted with it.
///
/// Build one with `SchemaBuilder` or read one from JSON with `Schema(json:)`:
/// `{"fields": [{"name": "title", "type": "text", "stored": true, "indexed": true, "fast": false,
/// "tokenizer": "default", "record": "position"}, ...], "default_fields": ["title"], "id_field": "id"}`.
public struct Schema: Sendable, Hashable {
    /// Fields in declaration order; a field's position is its id inside the index.
    public let fields: [FieldEntry]
    /// Fields searched by query-string words that name no field.
    public let defaultFields: [String]
    /// The field that identifies a document (a string field), if declared.
    public let idField: String?

    package let fieldIndex: [String: Int]
    /// Each field's name as UTF-8 bytes, by field id, for `fieldID(named:after:)`.
    package let fieldNames: [[UInt8]]
    /// Why the schema is not valid, for one `SchemaBuilder.build()` could not throw; an index refuses it.
    package let problem: IndexError?

    /// - Parameter limits: the field count limit (tests pass a small one).
    /// - Throws: `IndexError` `.invalidArgument` naming the bad field, `.limitExceeded` for too many fields.
    package init(
        fields: [FieldEntry], defaultFields: [String], idField: String?, limits: IndexLimits = .default
    ) throws(IndexError) {
        try limits.checkFieldCount(fields)
        var index: [String: Int] = [:]
        for (i, field) in fields.enumerated() {
            try Self.validateName(field.name)
            if field.fast && field.type == .text && field.tokenizer != "raw" && field.tokenizer != "lowercase" {
                throw IndexError(
                    .invalidArgument,
                    "schema: field '\(field.name)': a fast text field needs the raw or lowercase tokenizer (it has "
                        + "'\(field.tokenizer)'); use a string field, or declare it with \"fast\": false",
                    context: .init(field: field.name))
            }
            if index.updateValue(i, forKey: field.name) != nil {
                throw IndexError(.invalidArgument, "schema: field '\(field.name)' is declared twice")
            }
        }
        for name in defaultFields {
            guard let i = index[name] else {
                throw IndexError(.invalidArgument, "schema: default field '\(name)' is not a field of the schema")
            }
            guard fields[i].indexed else {
                throw IndexError(.invalidArgument, "schema: default field '\(name)' is not indexed")
            }
        }
        if let idField, index[idField] == nil {
            throw IndexError(.invalidArgument, "schema: id field '\(idField)' is not a field of the schema")
        }
        self.fields = fields
        self.defaultFields = defaultFields
        self.idField = idField
        self.fieldIndex = index
        self.fieldNames = fields.map { Array($0.name.utf8) }
        self.problem = nil
    }

    /// A schema that failed validation with `problem`, kept so the index made from it can throw the error.
    package init(invalid fields: [FieldEntry], problem: IndexError) {
        self.fields = fields
        self.defaultFields = []
        self.idField = nil
        self.fieldIndex = Dictionary(fields.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.fieldNames = fields.map { Array($0.name.utf8) }
        self.problem = problem
    }

    /// The fields unqualified query words search when a search names none: the declared default fields, or, when
    /// the schema declares none, every indexed text field (as the Tantivy-for-Swift bindings do).
    package var searchedByDefault: [String] {
        defaultFields.isEmpty ? fields.filter { $0.indexed && $0.type == .text }.map(\.name) : defaultFields
    }

    /// Throws the error a `SchemaBuilder.build()` could not throw, if any.
    package func validated() throws(IndexError) -> Schema {
        if let problem { throw problem }
        return self
    }

    /// The entry of the field called `name`, if any.
    public func field(named name: String) -> FieldEntry? {
        fieldIndex[name].map { fields[$0] }
    }

    private static func validateName(_ name: String) throws(IndexError) {
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: "\"") })
        else {
            throw IndexError(.invalidArgument, "schema: invalid field name '\(name)' (empty, whitespace, ':' or '\"')")
        }
    }

    /// Schemas are equal when their fields, default fields and id field are.
    public static func == (a: Schema, b: Schema) -> Bool {
        a.fields == b.fields && a.defaultFields == b.defaultFields && a.idField == b.idField
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
        hasher.combine(defaultFields)
        hasher.combine(idField)
    }
}

/// Builds a `Schema` field by field, in the shape of the Tantivy-for-Swift bindings: call the `add…Field`
/// methods one by one or chain them, then `build()`.
///
/// ```swift
/// let schema = SchemaBuilder()
///     .addTextField("title", stored: true, tokenizer: .english)
///     .addU64Field("year", stored: true, fast: true)
///     .build()
/// ```
public final class SchemaBuilder {
    private var fields: [FieldEntry] = []

    /// An empty builder.
    public init() {}

    /// A tokenized full-text field, in the bindings' argument order.
    /// - Parameters:
    ///   - stored: return its values with hits.
    ///   - indexed: make it searchable.
    ///   - tokenizer: how its text becomes terms (`.default`, `.english`, `.raw`, `.lowercase`, `.whitespace`, or
    ///     a registered name).
    ///   - indexing: what the postings record; `.position` (the default) is needed for phrase queries.
    ///   - fast: also keep it in a column (needs the `.raw` or `.lowercase` tokenizer).
    @discardableResult
    public func addTextField(
        _ name: String, stored: Bool = false, indexed: Bool = true, tokenizer: Analyzer = .default,
        indexing: IndexRecordOption = .position, fast: Bool = false
    ) -> Self {
        fields.append(
            FieldEntry(
                name: name, type: .text, stored: stored, indexed: indexed, fast: fast, tokenizer: tokenizer,
                record: indexing))
        return self
    }

    /// A tokenized full-text field, with Loupe's (and `FieldEntry`'s) spelling of the postings option, `record:`.
    @discardableResult
    public func addTextField(
        _ name: String, stored: Bool = false, indexed: Bool = true, fast: Bool = false, tokenizer: Analyzer = .default,
        record: IndexRecordOption
    ) -> Self {
        addTextField(name, stored: stored, indexed: indexed, tokenizer: tokenizer, indexing: record, fast: fast)
    }

    /// An untokenized keyword field: each value is one token (ids, tags, exact matches).
    @discardableResult
    public func addStringField(
        _ name: String, stored: Bool = false, indexed: Bool = true, fast: Bool = false
    )
        -> Self
    {
        add(name, .string, stored, indexed, fast)
    }

    /// An unsigned 64-bit integer field.
    @discardableResult
    public func addU64Field(
        _ name: String, stored: Bool = false, indexed: Bool = true, fast: Bool = false
    )
        -> Self
    {
        add(name, .u64, stored, indexed, fast)
    }

    /// A signed 64-bit integer field.
    @discardableResult
    public func addI64Field(
        _ name: String, stored: Bool = false, indexed: Bool = true, fast: Bool = false
    )
        -> Self
    {
        add(name, .i64, stored, indexed, fast)
    }

    /// A 64-bit floating-point field.
    @discardableResult
    public func addF64Field(
        _ name: String, stored: Bool = false, indexed: Bool = true, fast: Bool = false
    )
        -> Self
    {
        add(name, .f64, stored, indexed, fast)
    }

    /// A Boolean field.
    @discardableResult
    public func addBoolField(
        _ name: String, stored: Bool = false, indexed: Bool = true, fast: Bool = false
    )
        -> Self
    {
        add(name, .bool, stored, indexed, fast)
    }

    /// A date field: RFC 3339 text in JSON, `Date` in Swift, kept at microsecond precision.
    @discardableResult
    public func addDateField(
        _ name: String, stored: Bool = false, indexed: Bool = true, fast: Bool = false
    )
        -> Self
    {
        add(name, .date, stored, indexed, fast)
    }

    /// The schema, as the bindings build it: unqualified query words search every indexed text field.
    ///
    /// It does not throw, so that `SchemaBuilder()….build()` reads as in the bindings: a schema that is not valid
    /// (a name declared twice, a bad name, a fast text field with a tokenizer other than raw or lowercase) is
    /// reported by the `Index` (or `SearchCollection`) made from it, with the same `.invalidArgument` error
    /// `build(defaultFields:idField:)` throws at once.
    public func build() -> Schema {
        do {
            return try Schema(fields: fields, defaultFields: [], idField: nil)
        } catch {
            return Schema(invalid: fields, problem: error)
        }
    }

    /// The schema, with the fields that unqualified query words search and the field that identifies a document.
    /// - Throws: `IndexError` `.invalidArgument` on duplicate or bad names and unknown default or id fields.
    public func build(defaultFields: [String], idField: String? = nil) throws(IndexError) -> Schema {
        try Schema(fields: fields, defaultFields: defaultFields, idField: idField)
    }

    /// The schema with an id field, every indexed text field searched by default.
    /// - Throws: `IndexError` `.invalidArgument` on duplicate or bad names and an unknown id field.
    public func build(idField: String) throws(IndexError) -> Schema {
        try Schema(fields: fields, defaultFields: [], idField: idField)
    }

    private func add(_ name: String, _ type: FieldType, _ stored: Bool, _ indexed: Bool, _ fast: Bool) -> Self {
        fields.append(FieldEntry(name: name, type: type, stored: stored, indexed: indexed, fast: fast))
        return self
    }
}
