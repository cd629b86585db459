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

    /// Moves past one value without materializing it.
    package static func skip(type: FieldType, in reader: inout ByteReader) throws(FormatError) {
        switch type {
        case .text, .string: _ = unsafe try reader.readLengthPrefixed()
        case .u64, .i64, .date: _ = try reader.readVInt()
        case .f64: try reader.skip(8)
        case .bool: try reader.skip(1)
        }
    }

    /// Every (field, value) of one encoded document; with `only`, just that field's values.
    package static func decode(_ document: ArraySlice<UInt8>, schema: Schema, only: Int? = nil) throws(FormatError)
        -> [(field: Int, value: PreparedDocument.Value)]
    {
        let result = unsafe document.withUnsafeBytes { bytes in
            Result { () throws(FormatError) -> [(field: Int, value: PreparedDocument.Value)] in
                var reader = unsafe ByteReader(bytes)
                var values: [(field: Int, value: PreparedDocument.Value)] = []
                for _ in 0..<Int(clamping: try reader.readVInt()) {
                    let field = try fieldOrdinal(&reader, schema)
                    if only == nil || only == field {
                        values.append((field, try read(type: schema.fields[field].type, from: &reader)))
                    } else {
                        try skip(type: schema.fields[field].type, in: &reader)
                    }
                }
                return values
            }
        }
        return try result.get()
    }

    /// Walks one encoded document without materializing anything, so later decoding cannot fail.
    package static func validate(_ document: ArraySlice<UInt8>, schema: Schema) throws(FormatError) {
        let result = unsafe document.withUnsafeBytes { bytes in
            Result { () throws(FormatError) in
                var reader = unsafe ByteReader(bytes)
                for _ in 0..<Int(clamping: try reader.readVInt()) {
                    try skip(type: schema.fields[try fieldOrdinal(&reader, schema)].type, in: &reader)
                }
                guard reader.isAtEnd else {
                    throw .malformed(offset: reader.offset, reason: "stored document has trailing bytes")
                }
            }
        }
        try result.get()
    }

    private static func fieldOrdinal(_ reader: inout ByteReader, _ schema: Schema) throws(FormatError) -> Int {
        let field = Int(clamping: try reader.readVInt())
        guard field < schema.fields.count else {
            throw .malformed(offset: reader.offset, reason: "stored value of unknown field \(field)")
        }
        return field
    }

    @inline(__always) private static func zigZag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    @inline(__always) private static func unZigZag(_ v: UInt64) -> Int64 { Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1) }
}
