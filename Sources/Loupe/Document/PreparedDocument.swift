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
package struct PreparedDocument: Sendable {
    package enum Value: Sendable, Equatable {
        case bytes([UInt8])
        case mapped(UInt64)
    }

    /// (field ordinal, value) pairs, sorted by field ordinal; values of one field keep their input order.
    package var values: [(field: Int, value: Value)] = []

    package init() {}

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
                prepared.values.append((ordinal, try PreparedDocument.convert(value, for: fields[ordinal])))
            }
        }
        prepared.values.sortByField()
        return prepared
    }
}

extension Array where Element == (field: Int, value: PreparedDocument.Value) {
    /// Groups values by field while keeping each field's input order (insertion sort: documents have few fields
    /// and usually arrive in schema order already).
    mutating func sortByField() {
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
