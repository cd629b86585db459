import Foundation
import Loupe

/// The JSON that `idx` prints: keys in the order given (not hashed), one line, `", "` and `": "` separators.
///
/// Built by hand rather than with `JSONSerialization` so field order follows the schema and the output is the
/// same on every run.
enum JSONText {
    /// A JSON object from members whose values are already JSON.
    static func object(_ members: [(key: String, json: String)]) -> String {
        "{" + members.map { string($0.key) + ": " + $0.json }.joined(separator: ", ") + "}"
    }

    /// A JSON array from items that are already JSON.
    static func array(_ items: [String]) -> String {
        "[" + items.joined(separator: ", ") + "]"
    }

    /// A JSON string literal, escaping quotes, backslashes and control characters.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A number as Swift prints it (shortest round-trip form, valid JSON); `null` for NaN and infinities,
    /// which JSON cannot express.
    static func number(_ value: Double) -> String {
        value.isFinite ? value.description : "null"
    }

    /// A score: its `Float` digits, not the longer ones of its `Double` widening.
    static func number(_ value: Float) -> String {
        value.isFinite ? value.description : "null"
    }

    /// One stored value; dates as RFC 3339 strings in UTC.
    static func value(_ value: FieldValue) -> String {
        switch value {
        case .text(let text): string(text)
        case .u64(let n): String(n)
        case .i64(let n): String(n)
        case .f64(let x): number(x)
        case .bool(let b): b ? "true" : "false"
        case .date(let date): string(RFC3339.format(micros: Int64((date.timeIntervalSince1970 * 1e6).rounded())))
        }
    }

    /// The values of one field: a scalar when there is one, an array when there are several.
    static func values(_ values: [FieldValue]) -> String {
        values.count == 1 ? value(values[0]) : array(values.map(value))
    }

    /// A stored document as an object, the schema's id field first, then the others in schema order.
    static func document(_ document: StoredDocument, idField: String?) -> String {
        object(orderedFields(document, idField: idField).map { ($0.name, values($0.values)) })
    }

    /// The fields of `document` with `idField` moved to the front.
    static func orderedFields(_ document: StoredDocument, idField: String?) -> [(name: String, values: [FieldValue])] {
        let id = document.entries.filter { $0.name == idField }
        return id + document.entries.filter { $0.name != idField }
    }
}
