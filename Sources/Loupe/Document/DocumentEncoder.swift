#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns an `Encodable` value into a `Document`, one field per coding key, as the Tantivy-for-Swift bindings do.
///
/// The value must encode as a keyed container: a struct, a class, or a `[String: V]` dictionary (whose fields
/// come out sorted by name, as `Document([String: DocumentValue])` orders them, so `["title": "Hi"]` gives the
/// same document whichever `addDocument` overload the literal picks). Each key's value is
/// - a scalar: `String`, a signed integer (`.i64`), an unsigned one (`.u64`), `Float` or `Double` (`.f64`),
///   `Bool`, `Date` (`.date`, not the `Double` it would encode as), `URL` or `UUID` (as text), or anything that
///   encodes through a single-value container (enums with raw values, wrappers);
/// - an array (or set) of scalars, which fills a multi-valued field, its `nil` elements skipped;
/// - `nil` (or an absent optional), which gives the field no value.
///
/// Writer-side conversions (an integer for an f64 or date field, text for a date) happen when the document is
/// added, against the schema; the encoder knows no schema.
package struct DocumentEncoder {
    package init() {}

    /// The document `value` encodes as.
    /// - Throws: `IndexError` `.invalidDocument` naming the coding path (`Book.author.name`) when `value` is not a
    ///   keyed container, holds a nested object or an array of arrays, or holds an integer beyond 64 bits.
    /// - Complexity: O(n) in the number of values encoded.
    package func encode<T: Encodable>(_ value: T) throws(IndexError) -> Document {
        let state = State(model: String(describing: T.self))
        do {
            try value.encode(to: Root(state: state))
        } catch {
            throw state.indexError(error)
        }
        if let refusal = state.refusal { throw refusal }
        var fields = state.fields
        if value is [String: any Encodable] { fields.sort { $0.name < $1.name } }
        var document = Document()
        for field in fields { document.add(field.name, field.values) }
        return document
    }
}

extension DocumentEncoder {
    /// A shape the document cannot take; containers for it can be made (that cannot throw) but not used.
    fileprivate enum Refusal {
        case notKeyed(String)
        case nestedObject
        case nestedArray
    }

    /// What one encoding collects, shared by every encoder and container it creates.
    fileprivate final class State {
        let model: String
        var fields: [(name: String, values: [FieldValue])] = []
        /// The first refused container made, reported if nothing more precise is thrown when it is used (an empty
        /// nested object throws nothing).
        var refusal: IndexError?

        init(model: String) { self.model = model }

        /// Records the error of `refusal` at `path`, unless one was recorded before.
        func refuse(_ refusal: Refusal, at path: [any CodingKey]) {
            if self.refusal == nil { self.refusal = error(refusal, at: path) }
        }

        func error(_ refusal: Refusal, at path: [any CodingKey]) -> IndexError {
            switch refusal {
            case .notKeyed(let what):
                return invalid(
                    [],
                    "a document encodes as a keyed container (a struct, a class or a [String: …] dictionary), "
                        + "not \(what)")
            case .nestedObject:
                return invalid(
                    path,
                    "'\(CodingPath.field(path) ?? model)' holds a nested object, and a document's fields hold scalars "
                        + "or arrays of scalars; flatten it into top-level fields, or encode it as a single value")
            case .nestedArray:
                return invalid(
                    path,
                    "an array of arrays cannot be indexed (a field holds scalars or one array of scalars); flatten it, "
                        + "or encode each inner array as a single value")
            }
        }

        func invalid(_ path: [any CodingKey], _ message: String) -> IndexError {
            IndexError(
                .invalidDocument, CodingPath.describe(path, in: model) + ": " + message,
                context: .init(field: CodingPath.field(path)))
        }

        /// The `IndexError` an error thrown out of `encode(to:)` becomes.
        func indexError(_ error: any Error) -> IndexError {
            switch error {
            case let error as IndexError:
                return error
            case EncodingError.invalidValue(_, let context):
                return invalid(context.codingPath, context.debugDescription)
            default:
                return refusal ?? IndexError(.invalidDocument, "\(model): encoding failed: \(error)")
            }
        }

        /// The field value `value` encodes as directly, nil for a value that encodes through containers.
        func scalar<T: Encodable>(_ value: T, at path: [any CodingKey]) throws(IndexError) -> FieldValue? {
            switch value {
            case let v as String: return .text(v)
            case let v as Bool: return .bool(v)
            case let v as Date: return .date(v)
            case let v as URL: return .text(v.absoluteString)
            case let v as UUID: return .text(v.uuidString)
            case let v as Double: return .f64(v)
            case let v as Float: return .f64(Double(v))
            case let v as any BinaryInteger:
                if type(of: v).isSigned, let i = Int64(exactly: v) { return .i64(i) }
                if !type(of: v).isSigned, let u = UInt64(exactly: v) { return .u64(u) }
                throw invalid(path, "\(v) does not fit in 64 bits (\(type(of: v)))")
            default: return nil
            }
        }
    }

    /// One field of the document, entered in `State.fields` when its first value (or its array) is encoded, so a
    /// nil gives the field no entry and an empty array an entry without values.
    fileprivate final class Slot {
        let name: String
        private var entry: Int?

        init(_ name: String) { self.name = name }

        func open(_ state: State) -> Int {
            if let entry { return entry }
            state.fields.append((name, []))
            entry = state.fields.count - 1
            return state.fields.count - 1
        }
    }

    /// The encoder of the whole document.
    fileprivate struct Root: Encoder {
        let state: State
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Fields(state: state, codingPath: [], refusal: nil))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let refusal = Refusal.notKeyed("an array")
            state.refuse(refusal, at: [])
            return Values(target: Value(state: state, codingPath: [], slot: Slot(""), refusal: refusal))
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(state: state, target: nil)
        }
    }

    /// The fields of the document, or (with a `refusal`) a nested object, every use of which is refused.
    fileprivate struct Fields<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let state: State
        let codingPath: [any CodingKey]
        let refusal: Refusal?

        private func put<T: Encodable>(_ value: T, forKey key: Key) throws {
            try field(key).put(value)
        }

        /// The encoder of the field `key` (refusing every value inside a nested object).
        private func field(_ key: Key) -> Value {
            Value(state: state, codingPath: codingPath + [key], slot: Slot(key.stringValue), refusal: refusal)
        }

        mutating func encodeNil(forKey key: Key) throws {
            if let refusal { throw state.error(refusal, at: codingPath + [key]) }
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: String, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: Int128, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode(_ value: UInt128, forKey key: Key) throws { try put(value, forKey: key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(value, forKey: key) }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        )
            -> KeyedEncodingContainer<NestedKey>
        {
            field(key).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            field(key).unkeyedContainer()
        }

        /// A superclass encodes into the same document: its fields join the subclass's.
        mutating func superEncoder() -> any Encoder {
            guard let refusal else { return Root(state: state) }
            return Value(state: state, codingPath: codingPath, slot: Slot(""), refusal: refusal)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder { field(key) }
    }

    /// The encoder of one field's values, or of one element of a field's array (`isElement`), whose values join
    /// the field's.
    fileprivate final class Value: Encoder {
        let state: State
        let codingPath: [any CodingKey]
        let slot: Slot
        let isElement: Bool
        /// Set when nothing may be encoded here (inside a nested object, a top-level array).
        let refusal: Refusal?
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(state: State, codingPath: [any CodingKey], slot: Slot, isElement: Bool = false, refusal: Refusal?) {
            self.state = state
            self.codingPath = codingPath
            self.slot = slot
            self.isElement = isElement
            self.refusal = refusal
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let refusal = self.refusal ?? .nestedObject
            state.refuse(refusal, at: codingPath)
            return KeyedEncodingContainer(Fields(state: state, codingPath: codingPath, refusal: refusal))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if let refusal = refusal ?? (isElement ? .nestedArray : nil) {
                state.refuse(refusal, at: codingPath)
                return Values(target: Value(state: state, codingPath: codingPath, slot: slot, refusal: refusal))
            }
            _ = slot.open(state)
            return Values(target: self)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(state: state, target: self)
        }

        /// Appends `value` if it is a scalar, or encodes it here (a wrapper, an optional, a raw-value enum).
        func put<T: Encodable>(_ value: T) throws {
            if let refusal { throw state.error(refusal, at: codingPath) }
            if let scalar = try state.scalar(value, at: codingPath) {
                state.fields[slot.open(state)].values.append(scalar)
            } else {
                try value.encode(to: self)
            }
        }
    }

    /// A single-value container: of a field or an array element (`target`), or of the whole document (nil), which
    /// accepts only a value that encodes as a keyed container.
    fileprivate struct Single: SingleValueEncodingContainer {
        let state: State
        let target: Value?
        var codingPath: [any CodingKey] { target?.codingPath ?? [] }

        private func put<T: Encodable>(_ value: T) throws {
            if let target { return try target.put(value) }
            if try state.scalar(value, at: []) != nil {
                throw state.error(.notKeyed("a single value (\(T.self))"), at: [])
            }
            try value.encode(to: Root(state: state))
        }

        mutating func encodeNil() throws {
            if let target, let refusal = target.refusal { throw state.error(refusal, at: codingPath) }
            if target == nil { throw state.error(.notKeyed("nil"), at: []) }
        }
        mutating func encode(_ value: Bool) throws { try put(value) }
        mutating func encode(_ value: String) throws { try put(value) }
        mutating func encode(_ value: Double) throws { try put(value) }
        mutating func encode(_ value: Float) throws { try put(value) }
        mutating func encode(_ value: Int) throws { try put(value) }
        mutating func encode(_ value: Int8) throws { try put(value) }
        mutating func encode(_ value: Int16) throws { try put(value) }
        mutating func encode(_ value: Int32) throws { try put(value) }
        mutating func encode(_ value: Int64) throws { try put(value) }
        mutating func encode(_ value: Int128) throws { try put(value) }
        mutating func encode(_ value: UInt) throws { try put(value) }
        mutating func encode(_ value: UInt8) throws { try put(value) }
        mutating func encode(_ value: UInt16) throws { try put(value) }
        mutating func encode(_ value: UInt32) throws { try put(value) }
        mutating func encode(_ value: UInt64) throws { try put(value) }
        mutating func encode(_ value: UInt128) throws { try put(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { try put(value) }
    }

    /// The values of a multi-valued field (`target`'s), each element encoded by its own element encoder.
    fileprivate struct Values: UnkeyedEncodingContainer {
        let target: Value
        private(set) var count = 0
        var codingPath: [any CodingKey] { target.codingPath }

        init(target: Value) { self.target = target }

        /// The encoder of the next element.
        private mutating func next() -> Value {
            let path = codingPath + [CodingPath.Position(count)]
            count += 1
            return Value(
                state: target.state, codingPath: path, slot: target.slot, isElement: true, refusal: target.refusal)
        }

        private mutating func put<T: Encodable>(_ value: T) throws {
            if let refusal = target.refusal { throw target.state.error(refusal, at: codingPath) }
            try next().put(value)
        }

        mutating func encodeNil() throws {
            if let refusal = target.refusal { throw target.state.error(refusal, at: codingPath) }
            count += 1
        }
        mutating func encode(_ value: Bool) throws { try put(value) }
        mutating func encode(_ value: String) throws { try put(value) }
        mutating func encode(_ value: Double) throws { try put(value) }
        mutating func encode(_ value: Float) throws { try put(value) }
        mutating func encode(_ value: Int) throws { try put(value) }
        mutating func encode(_ value: Int8) throws { try put(value) }
        mutating func encode(_ value: Int16) throws { try put(value) }
        mutating func encode(_ value: Int32) throws { try put(value) }
        mutating func encode(_ value: Int64) throws { try put(value) }
        mutating func encode(_ value: Int128) throws { try put(value) }
        mutating func encode(_ value: UInt) throws { try put(value) }
        mutating func encode(_ value: UInt8) throws { try put(value) }
        mutating func encode(_ value: UInt16) throws { try put(value) }
        mutating func encode(_ value: UInt32) throws { try put(value) }
        mutating func encode(_ value: UInt64) throws { try put(value) }
        mutating func encode(_ value: UInt128) throws { try put(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { try put(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        )
            -> KeyedEncodingContainer<NestedKey>
        {
            next().container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            next().unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { next() }
    }
}
