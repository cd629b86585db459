#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns a document's stored values into a `Decodable` model, driven by the model's property types as the
/// Tantivy-for-Swift bindings' typed search is:
/// - a scalar property reads the field's first stored value, an array (or set) property all of them (one value
///   still decodes into an array, and an absent field into `[]`), and an optional is nil when the field has no
///   value;
/// - integers convert between i64, u64 and f64 values when exact (an `Int` reads a u64 that fits, an `Int8` an
///   i64 in its range), `Double` reads any number, `Float` any number in its range;
/// - `Date` reads date values and RFC 3339 text; `URL` and `UUID` read text;
/// - a `[String: V]` dictionary model gets every stored field.
package struct DocumentDecoder {
    package init() {}

    /// The model stored in `document`.
    /// - Throws: `IndexError` `.invalidDocument` naming the model and field (`Book.year: …`) when a non-optional
    ///   scalar has no stored value, a value does not fit its property, or the model wants a nested object.
    /// - Complexity: O(n) in the number of stored values.
    package func decode<T: Decodable>(_ type: T.Type, from document: StoredDocument) throws(IndexError) -> T {
        try decode(type, from: document.entries)
    }

    /// The model given by `entries`, field names with their values (`Document.entries`, `StoredDocument.entries`).
    package func decode<T: Decodable>(
        _ type: T.Type, from entries: [(name: String, values: [FieldValue])]
    )
        throws(IndexError) -> T
    {
        var fields: [String: [FieldValue]] = [:]
        var names: [String] = []
        for entry in entries where !entry.values.isEmpty {
            if fields[entry.name] == nil { names.append(entry.name) }
            fields[entry.name, default: []] += entry.values
        }
        let state = State(model: String(describing: T.self), fields: fields, names: names)
        do {
            return try T(from: Root(state: state))
        } catch {
            throw state.indexError(error)
        }
    }
}

extension DocumentDecoder {
    /// The document being decoded.
    fileprivate struct State {
        let model: String
        let fields: [String: [FieldValue]]
        /// The names of the fields with values, in the document's order.
        let names: [String]

        func invalid(_ path: [any CodingKey], _ message: String) -> IndexError {
            IndexError(
                .invalidDocument, CodingPath.describe(path, in: model) + ": " + message,
                context: .init(field: CodingPath.field(path)))
        }

        func notKeyed() -> IndexError {
            invalid([], "a document decodes into a keyed model (a struct, a class or a [String: …] dictionary)")
        }

        func nestedObject(_ path: [any CodingKey]) -> IndexError {
            invalid(
                path,
                "a nested object cannot be read from a document (its fields hold scalars or arrays of scalars); "
                    + "declare its properties at the top level of \(model)")
        }

        func nestedArray(_ path: [any CodingKey]) -> IndexError {
            invalid(path, "an array of arrays cannot be read from a document (a field holds one array of scalars)")
        }

        /// The `IndexError` an error thrown out of `init(from:)` becomes.
        func indexError(_ error: any Error) -> IndexError {
            switch error {
            case let error as IndexError:
                return error
            case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
                DecodingError.valueNotFound(_, let context), DecodingError.keyNotFound(_, let context):
                return invalid(context.codingPath, context.debugDescription)
            default:
                return IndexError(.invalidDocument, "\(model): decoding failed: \(error)")
            }
        }
    }

    /// The decoder of the whole document.
    fileprivate struct Root: Decoder {
        let state: State
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Fields(state: state))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw state.notKeyed() }

        func singleValueContainer() -> any SingleValueDecodingContainer { RootValue(state: state) }
    }

    /// A single-value container over the whole document: only a wrapper of a keyed model decodes from it.
    fileprivate struct RootValue: SingleValueDecodingContainer {
        let state: State
        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool { false }
        func decode(_ type: Bool.Type) throws -> Bool { throw state.notKeyed() }
        func decode(_ type: String.Type) throws -> String { throw state.notKeyed() }
        func decode(_ type: Double.Type) throws -> Double { throw state.notKeyed() }
        func decode(_ type: Float.Type) throws -> Float { throw state.notKeyed() }
        func decode(_ type: Int.Type) throws -> Int { throw state.notKeyed() }
        func decode(_ type: Int8.Type) throws -> Int8 { throw state.notKeyed() }
        func decode(_ type: Int16.Type) throws -> Int16 { throw state.notKeyed() }
        func decode(_ type: Int32.Type) throws -> Int32 { throw state.notKeyed() }
        func decode(_ type: Int64.Type) throws -> Int64 { throw state.notKeyed() }
        func decode(_ type: Int128.Type) throws -> Int128 { throw state.notKeyed() }
        func decode(_ type: UInt.Type) throws -> UInt { throw state.notKeyed() }
        func decode(_ type: UInt8.Type) throws -> UInt8 { throw state.notKeyed() }
        func decode(_ type: UInt16.Type) throws -> UInt16 { throw state.notKeyed() }
        func decode(_ type: UInt32.Type) throws -> UInt32 { throw state.notKeyed() }
        func decode(_ type: UInt64.Type) throws -> UInt64 { throw state.notKeyed() }
        func decode(_ type: UInt128.Type) throws -> UInt128 { throw state.notKeyed() }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            if T.self == Date.self || T.self == URL.self || T.self == UUID.self { throw state.notKeyed() }
            return try T(from: Root(state: state))
        }
    }

    /// The fields of the document, by coding key.
    fileprivate struct Fields<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let state: State
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { state.names.compactMap { Key(stringValue: $0) } }

        /// Whether the field has a stored value (so `decodeIfPresent` gives nil for an absent one).
        func contains(_ key: Key) -> Bool { state.fields[key.stringValue] != nil }

        func decodeNil(forKey key: Key) -> Bool { !contains(key) }

        /// The decoder of the field `key`: every value, or none when the field is absent.
        private func field(_ key: Key) -> Value {
            Value(state: state, codingPath: [key], values: state.fields[key.stringValue] ?? [], isElement: false)
        }

        private func take<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try field(key).take(type)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try take(type, forKey: key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try take(type, forKey: key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try take(type, forKey: key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try take(type, forKey: key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try take(type, forKey: key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try take(type, forKey: key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try take(type, forKey: key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try take(type, forKey: key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try take(type, forKey: key) }
        func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try take(type, forKey: key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try take(type, forKey: key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try take(type, forKey: key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try take(type, forKey: key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try take(type, forKey: key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try take(type, forKey: key) }
        func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try take(type, forKey: key) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try take(type, forKey: key) }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            throw state.nestedObject([key])
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try field(key).unkeyedContainer()
        }

        /// A superclass decodes from the same document as its subclass.
        func superDecoder() -> any Decoder { Root(state: state) }

        func superDecoder(forKey key: Key) -> any Decoder { field(key) }
    }

    /// The decoder of one field's values, or of one element of a field's array (`isElement`).
    fileprivate struct Value: Decoder {
        let state: State
        let codingPath: [any CodingKey]
        let values: [FieldValue]
        let isElement: Bool
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            throw state.nestedObject(codingPath)
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            if isElement { throw state.nestedArray(codingPath) }
            return Values(field: self)
        }

        func singleValueContainer() -> any SingleValueDecodingContainer { Scalar(field: self) }

        /// A `T` read from these values: a scalar from the first, through the type's `init(from:)` otherwise.
        func take<T: Decodable>(_ type: T.Type) throws -> T {
            try Scalar(field: self).decode(type)
        }

        /// The first value, for a scalar property.
        func first() throws(IndexError) -> FieldValue {
            if let first = values.first { return first }
            let name = CodingPath.field(codingPath) ?? state.model
            throw state.invalid(
                codingPath,
                "the document has no stored value of '\(name)' (is the field stored?); declare the "
                    + "property optional if documents may lack it")
        }

        func mismatch(_ expected: String, _ value: FieldValue) -> IndexError {
            state.invalid(codingPath, "expected \(expected), the stored value is \(Self.describe(value))")
        }

        private static func describe(_ value: FieldValue) -> String {
            switch value {
            case .text(let s): "text \"\(s.prefix(40))\""
            case .u64(let v): "u64 \(v)"
            case .i64(let v): "i64 \(v)"
            case .f64(let v): "f64 \(v)"
            case .bool(let v): "bool \(v)"
            case .date(let d): "date \(RFC3339.format(micros: Int64((d.timeIntervalSince1970 * 1_000_000).rounded())))"
            }
        }
    }

    /// One value: the first of a field's (`field.values`), or an array element.
    fileprivate struct Scalar: SingleValueDecodingContainer {
        let field: Value
        var codingPath: [any CodingKey] { field.codingPath }

        func decodeNil() -> Bool { field.values.isEmpty }

        func decode(_ type: Bool.Type) throws -> Bool {
            let value = try field.first()
            guard case .bool(let b) = value else { throw field.mismatch("a bool", value) }
            return b
        }

        func decode(_ type: String.Type) throws -> String {
            let value = try field.first()
            guard case .text(let s) = value else { throw field.mismatch("text", value) }
            return s
        }

        func decode(_ type: Double.Type) throws -> Double {
            let value = try field.first()
            switch value {
            case .f64(let d): return d
            case .i64(let i): return Double(i)
            case .u64(let u): return Double(u)
            default: throw field.mismatch("a number", value)
            }
        }

        func decode(_ type: Float.Type) throws -> Float {
            let double = try decode(Double.self)
            guard double.magnitude <= Double(Float.greatestFiniteMagnitude) || !double.isFinite else {
                throw field.mismatch("a number that fits Float", .f64(double))
            }
            return Float(double)
        }

        func decode(_ type: Int.Type) throws -> Int { try integer(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
        func decode(_ type: Int128.Type) throws -> Int128 { try integer(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
        func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(type) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            if let date = try dateIfWanted(type) { return date }
            if T.self == URL.self {
                let text = try decode(String.self)
                guard let url = URL(string: text) as? T else { throw field.mismatch("a URL", .text(text)) }
                return url
            }
            return try T(from: field)
        }

        /// A `Date` from a date value or RFC 3339 text, when `T` is `Date`; nil for any other type.
        private func dateIfWanted<T>(_ type: T.Type) throws(IndexError) -> T? {
            guard T.self == Date.self else { return nil }
            let value = try field.first()
            switch value {
            case .date(let d): return d as? T
            case .text(let s):
                guard let micros = RFC3339.parseMicros(s.utf8) else { throw field.mismatch("a date", value) }
                return Date(timeIntervalSince1970: Double(micros) / 1_000_000) as? T
            default: throw field.mismatch("a date", value)
            }
        }

        /// An integer from any stored number it equals exactly.
        private func integer<I: FixedWidthInteger>(_ type: I.Type) throws(IndexError) -> I {
            let value = try field.first()
            let exact: I? =
                switch value {
                case .i64(let v): I(exactly: v)
                case .u64(let v): I(exactly: v)
                case .f64(let v): I(exactly: v)
                default: nil
                }
            guard let exact else { throw field.mismatch("an integer that fits \(I.self)", value) }
            return exact
        }
    }

    /// The values of a field read as an array, each through its own element decoder.
    fileprivate struct Values: UnkeyedDecodingContainer {
        let field: Value
        private(set) var currentIndex = 0
        var codingPath: [any CodingKey] { field.codingPath }
        var count: Int? { field.values.count }
        var isAtEnd: Bool { currentIndex >= field.values.count }

        init(field: Value) { self.field = field }

        /// The decoder of the next element.
        private mutating func next() throws(IndexError) -> Value {
            let path = codingPath + [CodingPath.Position(currentIndex)]
            guard currentIndex < field.values.count else {
                throw field.state.invalid(path, "read past the field's \(field.values.count) values")
            }
            currentIndex += 1
            return Value(
                state: field.state, codingPath: path, values: [field.values[currentIndex - 1]], isElement: true)
        }

        private mutating func take<T: Decodable>(_ type: T.Type) throws -> T { try next().take(type) }

        /// Stored arrays hold no nils, so no element is nil.
        mutating func decodeNil() -> Bool { false }
        mutating func decode(_ type: Bool.Type) throws -> Bool { try take(type) }
        mutating func decode(_ type: String.Type) throws -> String { try take(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { try take(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { try take(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { try take(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try take(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try take(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try take(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try take(type) }
        mutating func decode(_ type: Int128.Type) throws -> Int128 { try take(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try take(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try take(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try take(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try take(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try take(type) }
        mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try take(type) }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try take(type) }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try next().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next().unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { try next() }
    }
}
