#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FieldValue {
    /// The public value of an engine value of a field of type `type`.
    package init(_ value: PreparedDocument.Value, type: FieldType) {
        switch (value, type) {
        case (.bytes(let b), _): self = .text(String(decoding: b, as: UTF8.self))
        case (.mapped(let v), .u64): self = .u64(v)
        case (.mapped(let v), .i64): self = .i64(NumericMapping.toI64(v))
        case (.mapped(let v), .f64): self = .f64(NumericMapping.toF64(v))
        case (.mapped(let v), .bool): self = .bool(v != 0)
        case (.mapped(let v), .date):
            self = .date(Date(timeIntervalSince1970: Double(NumericMapping.toI64(v)) / 1_000_000))
        case (.mapped(let v), .text), (.mapped(let v), .string): self = .u64(v)
        }
    }
}
