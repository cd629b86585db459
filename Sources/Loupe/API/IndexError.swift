/// The one error type of Loupe's public API: what went wrong, where, and what to do about it.
public struct IndexError: Error, Sendable, CustomStringConvertible {
    /// A stable category; new codes may be added without breaking clients.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Sendable {
            case invalidArgument, invalidDocument, invalidQuery, corruption, incompatibleFormat, schemaMismatch, io
            case writerLocked, notFound, cancelled, limitExceeded
        }

        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// A bad value passed to the API (schema, option, field name).
        public static let invalidArgument = Code(.invalidArgument)
        /// A document that does not fit the schema, or malformed JSON.
        public static let invalidDocument = Code(.invalidDocument)
        /// A query that does not parse or names what the schema lacks.
        public static let invalidQuery = Code(.invalidQuery)
        /// A file whose bytes fail validation (checksum, truncation, impossible values).
        public static let corruption = Code(.corruption)
        /// A file written by another format version.
        public static let incompatibleFormat = Code(.incompatibleFormat)
        /// The index was opened with a schema other than the one it was created with.
        public static let schemaMismatch = Code(.schemaMismatch)
        /// The operating system refused a file operation.
        public static let io = Code(.io)
        /// Another writer (in this or another process) holds the index.
        public static let writerLocked = Code(.writerLocked)
        /// No index (or file) at the given place.
        public static let notFound = Code(.notFound)
        /// The task running an async call (`searchAsync`, `aggregateAsync`, …) was cancelled: the call stopped at
        /// the next segment and returned no partial result. Nothing is wrong with the index; retry if still wanted.
        public static let cancelled = Code(.cancelled)
        /// A schema or document past one of the engine's limits (Docs/FORMAT.md, "Limits"): `IndexError.limit` says
        /// which, the message gives the value and the limit, and the context the field. Nothing changed: the document
        /// was not added (the writer stays usable), or the schema was not built.
        public static let limitExceeded = Code(.limitExceeded)

        public var description: String { kind.rawValue }
    }

    /// One of the engine's limits, named by an error of code `.limitExceeded` (values in Docs/FORMAT.md, "Limits").
    public struct Limit: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Sendable {
            case documentsPerIndex, termBytes, fieldsPerSchema, storedDocumentBytes, queryClauses, queryExpansions
        }

        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// Documents in the index, deleted ones not yet merged away included.
        public static let documentsPerIndex = Limit(.documentsPerIndex)
        /// UTF-8 bytes of a string field's value, which is indexed as one term.
        public static let termBytes = Limit(.termBytes)
        /// Fields in a schema.
        public static let fieldsPerSchema = Limit(.fieldsPerSchema)
        /// Bytes of a document's stored values, as the document store encodes them.
        public static let storedDocumentBytes = Limit(.storedDocumentBytes)
        /// Leaf clauses and phrase terms in one query.
        public static let queryClauses = Limit(.queryClauses)
        /// Clauses of one query that expand over the term dictionary (prefix, wildcard, regex, fuzzy, phrase prefix,
        /// autocomplete).
        public static let queryExpansions = Limit(.queryExpansions)

        public var description: String { kind.rawValue }
    }

    /// Where the problem was found; every part is optional.
    public struct Context: Sendable, Hashable {
        /// The file (or folder) involved, as a path or a file name inside the index.
        public var file: String?
        /// The segment involved, as its 32-hex-digit name.
        public var segment: String?
        /// The schema field involved.
        public var field: String?
        /// 1-based line of a JSONL input.
        public var line: Int?
        /// Byte offset within the file, the JSON line or the query string.
        public var byteOffset: Int?

        /// A context with the parts known; the others stay nil.
        public init(
            file: String? = nil, segment: String? = nil, field: String? = nil, line: Int? = nil, byteOffset: Int? = nil
        ) {
            self.file = file
            self.segment = segment
            self.field = field
            self.line = line
            self.byteOffset = byteOffset
        }
    }

    /// The category, to branch on (`error.code == .notFound`).
    public var code: Code
    /// What went wrong and what to do, in one or two sentences.
    public var message: String
    /// Where the problem was found.
    public var context: Context
    /// The limit an error of code `.limitExceeded` hit; nil for every other code.
    public var limit: Limit?

    /// An error of `code` with `message` (what went wrong and what to do) and where it was found.
    public init(_ code: Code, _ message: String, context: Context = Context()) {
        self.code = code
        self.message = message
        self.context = context
    }

    public var description: String {
        var parts: [String] = []
        if let line = context.line { parts.append("line \(line)") }
        if let file = context.file { parts.append(file) }
        if let segment = context.segment { parts.append("segment \(segment)") }
        if let field = context.field { parts.append("field '\(field)'") }
        if let offset = context.byteOffset { parts.append("byte \(offset)") }
        let location = parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
        return "\(code): \(message)\(location)"
    }
}
