import LoupeCodec

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

    /// Parses one JSON object (one JSONL line) into a prepared document, without building `String`s.
    /// `null` values and empty arrays count as absent.
    /// - Throws: `IndexError` `.invalidDocument` naming the field, or the byte offset of a JSON syntax error.
    package func prepareJSON(_ bytes: UnsafeRawBufferPointer) throws(IndexError) -> PreparedDocument {
        let parsed: JSONValue
        do {
            parsed = unsafe try JSONParser.parse(bytes)
        } catch {
            throw IndexError(
                .invalidDocument, "malformed JSON: \(error.message)", context: .init(byteOffset: error.offset))
        }
        guard case .object(let members) = parsed else {
            throw IndexError(.invalidDocument, "a document must be a JSON object")
        }
        var prepared = PreparedDocument()
        var previous = -1
        for member in members {
            guard let ordinal = fieldID(named: member.key, after: previous) else {
                let name = String(decoding: member.key, as: UTF8.self)
                throw IndexError(
                    .invalidDocument, "unknown field '\(name)' (not in the schema)", context: .init(field: name))
            }
            previous = ordinal
            let entry = fields[ordinal]
            switch member.value {
            case .array(let items):
                for item in items where item != .null {
                    prepared.values.append((ordinal, try Self.convertJSON(item, for: entry)))
                }
            case .null:
                continue
            default:
                prepared.values.append((ordinal, try Self.convertJSON(member.value, for: entry)))
            }
        }
        prepared.values.sortByField()
        return prepared
    }

    /// The id of the field named `key`. Members usually come in schema order, some fields absent, so the few
    /// fields after `previous` (the last member's) are compared first, byte for byte; any other name is looked up
    /// by its `String`, which costs an allocation and a hash.
    private func fieldID(named key: [UInt8], after previous: Int) -> Int? {
        for candidate in previous + 1..<min(previous + 5, fieldNames.count) where fieldNames[candidate] == key {
            return candidate
        }
        return fieldIndex[String(decoding: key, as: UTF8.self)]
    }

    private static func convertJSON(
        _ value: JSONValue, for entry: FieldEntry
    ) throws(IndexError) -> PreparedDocument.Value {
        func mismatch(_ what: String) -> IndexError {
            IndexError(
                .invalidDocument, "field '\(entry.name)': expected \(entry.type.rawValue), got \(what)",
                context: .init(field: entry.name))
        }
        switch (entry.type, value) {
        case (.text, .string(let s)), (.string, .string(let s)):
            return .bytes(s)
        case (.u64, .number(let n)):
            guard let v = n.uint64 else { throw mismatch("the number \(n.double)") }
            return .mapped(v)
        case (.i64, .number(let n)):
            guard let v = n.int64 else { throw mismatch("the number \(n.double)") }
            return .mapped(NumericMapping.fromI64(v))
        case (.f64, .number(let n)):
            return .mapped(NumericMapping.fromF64(n.double))
        case (.bool, .bool(let b)):
            return .mapped(b ? 1 : 0)
        case (.date, .string(let s)):
            guard let micros = RFC3339.parseMicros(s) else {
                throw mismatch("\"\(String(decoding: s.prefix(40), as: UTF8.self))\" (not an RFC 3339 date)")
            }
            return .mapped(NumericMapping.fromI64(micros))
        case (_, .string): throw mismatch("a string")
        case (_, .number): throw mismatch("a number")
        case (_, .bool): throw mismatch("a boolean")
        case (_, .object): throw mismatch("an object")
        case (_, .array): throw mismatch("a nested array")
        case (_, .null): throw mismatch("null")
        }
    }
}

extension Array where Element == (field: Int, value: PreparedDocument.Value) {
    /// Groups values by field while keeping each field's input order (insertion sort: documents have few fields
    /// and usually arrive in schema order already).
    fileprivate mutating func sortByField() {
        guard count > 1 else { return }
        for i in 1..<count {
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
