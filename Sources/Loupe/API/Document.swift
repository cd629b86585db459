import FoundationEssentials

/// One value of a field, as given to the writer and as returned from the document store.
public enum FieldValue: Sendable, Hashable {
    /// Text for `text` and `string` fields.
    case text(String)
    case u64(UInt64)
    case i64(Int64)
    case f64(Double)
    case bool(Bool)
    case date(Date)
}

extension FieldValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral
{
    public init(stringLiteral value: String) { self = .text(value) }
    /// Integer literals become `.i64`; the writer converts them to the field's type (u64, f64, date) when exact.
    public init(integerLiteral value: Int64) { self = .i64(value) }
    public init(floatLiteral value: Double) { self = .f64(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

/// The values given for one field of a `Document`: one value or, for a multi-valued field, several.
public struct DocumentValue: Sendable, Hashable, ExpressibleByArrayLiteral, ExpressibleByStringLiteral,
    ExpressibleByStringInterpolation,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    public var values: [FieldValue]

    public init(_ value: FieldValue) { values = [value] }
    public init(_ values: [FieldValue]) { self.values = values }
    public init(_ date: Date) { values = [.date(date)] }
    public init(arrayLiteral elements: FieldValue...) { values = elements }
    public init(stringLiteral value: String) { values = [.text(value)] }
    public init(integerLiteral value: Int64) { values = [.i64(value)] }
    public init(floatLiteral value: Double) { values = [.f64(value)] }
    public init(booleanLiteral value: Bool) { values = [.bool(value)] }
}

/// A document to index: field names with their values.
///
/// ```swift
/// try writer.addDocument(["id": "tt0113277", "title": "Heat", "year": 1995, "genres": ["Crime", "Drama"]])
/// ```
public struct Document: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// Field names with their values, in insertion order.
    public private(set) var entries: [(name: String, values: [FieldValue])] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, DocumentValue)...) {
        for (name, value) in elements { add(name, value.values) }
    }

    public init(_ fields: [String: DocumentValue]) {
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { add(name, value.values) }
    }

    /// Appends values to a field (a field named twice is multi-valued).
    public mutating func add(_ name: String, _ values: [FieldValue]) {
        entries.append((name, values))
    }

    public mutating func add(_ name: String, _ value: FieldValue) {
        add(name, [value])
    }

    /// Every value given for `name`.
    public subscript(name: String) -> [FieldValue] {
        entries.filter { $0.name == name }.flatMap(\.values)
    }

    public static func == (a: Document, b: Document) -> Bool {
        a.entries.elementsEqual(b.entries) { $0.name == $1.name && $0.values == $1.values }
    }

    public func hash(into hasher: inout Hasher) {
        for entry in entries {
            hasher.combine(entry.name)
            hasher.combine(entry.values)
        }
    }
}
