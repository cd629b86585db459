import LoupeCodec

/// How one stored value is written in a document-store document (the value's type comes from the schema).
package enum StoredValueCoding {
    package static func write(_ value: PreparedDocument.Value, type: FieldType, into out: inout ByteWriter) {
        switch (value, type) {
        case (.bytes(let b), _):
            out.writeLengthPrefixed(b)
        case (.mapped(let v), .u64):
            out.writeVInt(v)
        case (.mapped(let v), .i64), (.mapped(let v), .date):
            out.writeVInt(zigZag(NumericMapping.toI64(v)))
        case (.mapped(let v), .f64):
            out.writeU64(NumericMapping.toF64(v).bitPattern)
        case (.mapped(let v), _):
            out.writeU8(UInt8(truncatingIfNeeded: v))
        }
    }

    package static func read(type: FieldType, from reader: inout ByteReader) throws(FormatError) -> PreparedDocument.Value {
        switch type {
        case .text, .string:
            return unsafe .bytes(Array(try reader.readLengthPrefixed()))
        case .u64:
            return .mapped(try reader.readVInt())
        case .i64, .date:
            return .mapped(NumericMapping.fromI64(unZigZag(try reader.readVInt())))
        case .f64:
            return .mapped(NumericMapping.fromF64(Double(bitPattern: try reader.readU64())))
        case .bool:
            return .mapped(UInt64(try reader.readU8() & 1))
        }
    }

    @inline(__always) private static func zigZag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    @inline(__always) private static func unZigZag(_ v: UInt64) -> Int64 { Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1) }
}
