#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A document checked against the schema and converted to the engine's value forms.
///
/// Text and string values are UTF-8 bytes; every other type is its `NumericMapping` value. Values are
/// grouped by field in schema order, so the indexer walks each field once and multi-valued fields get
/// consecutive positions.
///
/// The bytes of all text and string values share one array, and each item is plain data (a range of it or a
/// number): a document costs two allocations however many values it has, and freeing it walks nothing.
package struct PreparedDocument: Sendable {
    /// A value in the engine's forms, standing alone (a stored value read back, a query's term).
    package enum Value: Sendable, Equatable {
        case bytes([UInt8])
        case mapped(UInt64)
    }

    /// A value of this document: a range of `bytes`, or a mapped number.
    package enum Item: Sendable, Equatable {
        case bytes(Range<Int>)
        case mapped(UInt64)
    }

    /// (field ordinal, value) pairs, sorted by field ordinal once the document is complete; values of one field
    /// keep their input order.
    package private(set) var items: [(field: Int, value: Item)] = []
    /// The UTF-8 bytes of every text and string value, one after another.
    package private(set) var bytes: [UInt8] = []

    /// An empty document with room for `items` values and `bytes` bytes of text.
    package init(reservingItems items: Int = 0, bytes: Int = 0) {
        self.items.reserveCapacity(items)
        self.bytes.reserveCapacity(bytes)
    }

    /// Appends a text or string value of `field`.
    package mutating func append(_ field: Int, bytes value: some Collection<UInt8>) {
        let start = bytes.count
        bytes.append(contentsOf: value)
        items.append((field, .bytes(start..<bytes.count)))
    }

    /// Appends a mapped value of `field`.
    package mutating func append(_ field: Int, mapped value: UInt64) {
        items.append((field, .mapped(value)))
    }

    /// Appends `value` to the values of `field`.
    package mutating func append(_ field: Int, _ value: Value) {
        switch value {
        case .bytes(let value): append(field, bytes: value)
        case .mapped(let value): append(field, mapped: value)
        }
    }

    /// Groups the values by field, keeping each field's input order.
    package mutating func sortByField() {
        items.sortByField()
    }

    /// Every (field, value) pair as standalone values, each text its own array: for tests and checks, not for
    /// the indexing path.
    package func standaloneValues() -> [(field: Int, value: Value)] {
        items.map { item in
            switch item.value {
            case .bytes(let range): (item.field, .bytes(Array(bytes[range])))
            case .mapped(let value): (item.field, .mapped(value))
            }
        }
    }

    /// Converts one value given for `entry`; integers are accepted for float and date fields when exact.
    package static func convert(_ value: FieldValue, for entry: FieldEntry) throws(IndexError) -> Value {
        func mismatch() -> IndexError {
            IndexError(
                .invalidDocument, "field '\(entry.name)': expected \(entry.type.rawValue), got \(describe(value))",
                context: .init(field: entry.name))
        }
        switch (entry.type, value) {
        case (.text, .text(let s)), (.string, .text(let s)):
            return .bytes(Array(s.utf8))
        case (.u64, .u64(let v)):
            return .mapped(v)
        case (.u64, .i64(let v)):
            guard v >= 0 else { throw mismatch() }
            return .mapped(UInt64(v))
        case (.i64, .i64(let v)):
            return .mapped(NumericMapping.fromI64(v))
        case (.i64, .u64(let v)):
            guard v <= UInt64(Int64.max) else { throw mismatch() }
            return .mapped(NumericMapping.fromI64(Int64(v)))
        case (.f64, .f64(let v)):
            guard !v.isNaN else { throw mismatch() }
            return .mapped(NumericMapping.fromF64(v))
        case (.f64, .i64(let v)):
            return .mapped(NumericMapping.fromF64(Double(v)))
        case (.f64, .u64(let v)):
            return .mapped(NumericMapping.fromF64(Double(v)))
        case (.bool, .bool(let v)):
            return .mapped(v ? 1 : 0)
        case (.date, .date(let d)):
            return .mapped(NumericMapping.fromI64(Int64((d.timeIntervalSince1970 * 1_000_000).rounded())))
        case (.date, .text(let s)):
            guard let micros = RFC3339.parseMicros(s.utf8) else { throw mismatch() }
            return .mapped(NumericMapping.fromI64(micros))
        default:
            throw mismatch()
        }
    }

    private static func describe(_ value: FieldValue) -> String {
        switch value {
        case .text(let s): "text \"\(s.prefix(40))\""
        case .u64(let v): "u64 \(v)"
        case .i64(let v): "integer \(v)"
        case .f64(let v): "f64 \(v)"
        case .bool(let v): "bool \(v)"
        case .date(let d): "date \(d)"
        }
    }
}

extension Schema {
    /// Checks `document` against the schema: every field must exist and every value must fit its type.
    /// - Throws: `IndexError` `.invalidDocument` naming the field.
    package func prepare(_ document: Document) throws(IndexError) -> PreparedDocument {
        var prepared = PreparedDocument()
        for entry in document.entries {
            guard let ordinal = fieldIndex[entry.name] else {
                throw IndexError(
                    .invalidDocument, "unknown field '\(entry.name)' (not in the schema)",
                    context: .init(field: entry.name))
            }
            for value in entry.values {
                prepared.append(ordinal, try PreparedDocument.convert(value, for: fields[ordinal]))
            }
        }
        prepared.sortByField()
        return prepared
    }
}

extension Array where Element == (field: Int, value: PreparedDocument.Item) {
    /// Groups values by field while keeping each field's input order (insertion sort: documents have few fields
    /// and usually arrive in schema order already).
    fileprivate mutating func sortByField() {
        guard count > 1 else { return }
        for i in 1..<count where self[i - 1].field > self[i].field {
            var j = i
            let item = self[i]
            while j > 0 && self[j - 1].field > item.field {
                self[j] = self[j - 1]
                j -= 1
            }
            self[j] = item
        }
    }
}
