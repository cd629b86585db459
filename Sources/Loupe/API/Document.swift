#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One value of a field, as given to the writer and as returned from the document store.
public enum FieldValue: Sendable, Hashable {
    /// Text for `text` and `string` fields.
    case text(String)
    /// An unsigned 64-bit integer, exact over its whole range (the bindings' `.unsigned`).
    case u64(UInt64)
    /// A signed 64-bit integer, exact over its whole range (the bindings' `.int`).
    case i64(Int64)
    /// A 64-bit floating-point number (the bindings' `.double`).
    case f64(Double)
    /// A Boolean.
    case bool(Bool)
    /// A point in time, kept at microsecond precision.
    case date(Date)
}

extension FieldValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    /// A string literal is a `.text` value.
    public init(stringLiteral value: String) { self = .text(value) }
    /// Integer literals become `.i64`; the writer converts them to the field's type (u64, f64, date) when exact.
    public init(integerLiteral value: Int64) { self = .i64(value) }
    /// A floating-point literal is an `.f64` value.
    public init(floatLiteral value: Double) { self = .f64(value) }
    /// A Boolean literal is a `.bool` value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

/// The Tantivy-for-Swift bindings' spellings of the cases, for code written against them.
extension FieldValue {
    /// `.text(value)`.
    public static func string(_ value: String) -> FieldValue { .text(value) }
    /// `.i64(value)`.
    public static func int(_ value: Int64) -> FieldValue { .i64(value) }
    /// `.u64(value)`.
    public static func unsigned(_ value: UInt64) -> FieldValue { .u64(value) }
    /// `.f64(value)`.
    public static func double(_ value: Double) -> FieldValue { .f64(value) }
}

/// The values a `Document` can hold for one field: any `FieldValueConvertible`, arrays of them (a multi-valued
/// field), optionals (nil: no value) and `DocumentValue`. It is what lets a document literal mix types and
/// variables: `["title": title, "year": year, "tags": tags]`.
public protocol DocumentValueConvertible {
    /// The field's values, in order.
    var documentValues: [FieldValue] { get }
}

/// One value of a field: strings, integers, floating-point numbers, Booleans, dates and `FieldValue` itself. Taken
/// wherever a single value is (term queries, deletes by id, `get`, `upsert`).
public protocol FieldValueConvertible: DocumentValueConvertible, Sendable {
    /// The value as a field value.
    var fieldValue: FieldValue { get }
}

extension FieldValueConvertible {
    /// The one value.
    public var documentValues: [FieldValue] { [fieldValue] }
}

extension FieldValue: FieldValueConvertible {
    /// Itself.
    public var fieldValue: FieldValue { self }
}

extension String: FieldValueConvertible {
    /// `.text`.
    public var fieldValue: FieldValue { .text(self) }
}

extension Substring: FieldValueConvertible {
    /// `.text`.
    public var fieldValue: FieldValue { .text(String(self)) }
}

extension Int: FieldValueConvertible {
    /// `.i64`.
    public var fieldValue: FieldValue { .i64(Int64(self)) }
}

extension Int32: FieldValueConvertible {
    /// `.i64`.
    public var fieldValue: FieldValue { .i64(Int64(self)) }
}

extension Int64: FieldValueConvertible {
    /// `.i64`.
    public var fieldValue: FieldValue { .i64(self) }
}

extension UInt: FieldValueConvertible {
    /// `.u64`.
    public var fieldValue: FieldValue { .u64(UInt64(self)) }
}

extension UInt32: FieldValueConvertible {
    /// `.u64`.
    public var fieldValue: FieldValue { .u64(UInt64(self)) }
}

extension UInt64: FieldValueConvertible {
    /// `.u64`.
    public var fieldValue: FieldValue { .u64(self) }
}

extension Double: FieldValueConvertible {
    /// `.f64`.
    public var fieldValue: FieldValue { .f64(self) }
}

extension Float: FieldValueConvertible {
    /// `.f64`.
    public var fieldValue: FieldValue { .f64(Double(self)) }
}

extension Bool: FieldValueConvertible {
    /// `.bool`.
    public var fieldValue: FieldValue { .bool(self) }
}

extension Date: FieldValueConvertible {
    /// `.date`.
    public var fieldValue: FieldValue { .date(self) }
}

extension Array: DocumentValueConvertible where Element: DocumentValueConvertible {
    /// Every element's values, in order: a multi-valued field.
    public var documentValues: [FieldValue] { flatMap(\.documentValues) }
}

extension Optional: DocumentValueConvertible where Wrapped: DocumentValueConvertible {
    /// The wrapped value's values; none for nil.
    public var documentValues: [FieldValue] { self?.documentValues ?? [] }
}

/// The values given for one field of a `Document`: one value or, for a multi-valued field, several.
public struct DocumentValue: Sendable, Hashable, DocumentValueConvertible, ExpressibleByArrayLiteral,
    ExpressibleByStringLiteral, ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    /// The values, in order.
    public var values: [FieldValue]

    /// One value.
    public init(_ value: FieldValue) { values = [value] }
    /// Several values.
    public init(_ values: [FieldValue]) { self.values = values }
    /// One date.
    public init(_ date: Date) { values = [.date(date)] }
    /// The values of an array literal.
    public init(arrayLiteral elements: FieldValue...) { values = elements }
    /// One `.text` value.
    public init(stringLiteral value: String) { values = [.text(value)] }
    /// One `.i64` value (converted to the field's type when exact).
    public init(integerLiteral value: Int64) { values = [.i64(value)] }
    /// One `.f64` value.
    public init(floatLiteral value: Double) { values = [.f64(value)] }
    /// One `.bool` value.
    public init(booleanLiteral value: Bool) { values = [.bool(value)] }

    /// `values`.
    public var documentValues: [FieldValue] { values }
}

/// A document to index: field names with their values.
///
/// A dictionary literal takes literals and variables of any `DocumentValueConvertible` type; arrays fill
/// multi-valued fields, and a nil optional gives no value:
///
/// ```swift
/// try writer.addDocument(["id": "tt0113277", "title": "Heat", "year": 1995, "genres": ["Crime", "Drama"]])
/// try writer.addDocument(["id": id, "title": title, "rating": FieldValue.f64(8.3), "tags": tags])
/// ```
public struct Document: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// Field names with their values, in insertion order.
    public private(set) var entries: [(name: String, values: [FieldValue])] = []

    /// An empty document.
    public init() {}

    /// The fields of a dictionary literal, in its order.
    public init(dictionaryLiteral elements: (String, any DocumentValueConvertible)...) {
        for (name, value) in elements { add(name, value.documentValues) }
    }

    /// The fields of a dictionary, by name.
    public init(_ fields: [String: any DocumentValueConvertible]) {
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { add(name, value.documentValues) }
    }

    /// Appends values to a field (a field named twice is multi-valued).
    public mutating func add(_ name: String, _ values: [FieldValue]) {
        entries.append((name, values))
    }

    /// Appends one value to a field.
    public mutating func add(_ name: String, _ value: FieldValue) {
        add(name, [value])
    }

    /// Every value given for `name`.
    public subscript(name: String) -> [FieldValue] {
        entries.filter { $0.name == name }.flatMap(\.values)
    }

    /// Documents are equal when they hold the same fields and values in the same order.
    public static func == (a: Document, b: Document) -> Bool {
        a.entries.elementsEqual(b.entries) { $0.name == $1.name && $0.values == $1.values }
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        for entry in entries {
            hasher.combine(entry.name)
            hasher.combine(entry.values)
        }
    }
}
