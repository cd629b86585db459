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

    /// The bytes `write` takes for `value`.
    package static func encodedSize(_ value: PreparedDocument.Value, type: FieldType) -> Int {
        switch (value, type) {
        case (.bytes(let b), _): vintSize(UInt64(b.count)) + b.count
        case (.mapped(let v), .u64): vintSize(v)
        case (.mapped(let v), .i64), (.mapped(let v), .date): vintSize(zigZag(NumericMapping.toI64(v)))
        case (.mapped, .f64): 8
        case (.mapped, _): 1
        }
    }

    /// The bytes `write` takes for a value of a prepared document.
    package static func encodedSize(_ item: PreparedDocument.Item, type: FieldType) -> Int {
        switch item {
        case .bytes(let range): vintSize(UInt64(range.count)) + range.count
        case .mapped(let v): encodedSize(PreparedDocument.Value.mapped(v), type: type)
        }
    }

    /// The bytes of `v` as a VInt: one per 7 bits, at least one.
    package static func vintSize(_ v: UInt64) -> Int { max(1, (64 - v.leadingZeroBitCount + 6) / 7) }

    /// Every (field, value) of one encoded document; with `only`, just that field's values. Values come in
    /// ascending field order (`validate` checks it), so reading one field stops at the first value past it: the id,
    /// usually the first field, costs the same however many other fields are stored.
    package static func decode(
        _ document: ArraySlice<UInt8>, schema: Schema, only: Int? = nil
    ) throws(FormatError)
        -> [(field: Int, value: PreparedDocument.Value)]
    {
        let result = unsafe document.withUnsafeBytes { bytes in
            Result { () throws(FormatError) -> [(field: Int, value: PreparedDocument.Value)] in
                var cursor = unsafe Cursor(bytes: bytes)
                var values: [(field: Int, value: PreparedDocument.Value)] = []
                for _ in 0..<Int(clamping: try cursor.vint()) {
                    let field = try cursor.field(schema)
                    if let only, field > only { break }
                    let type = schema.fields[field].type
                    if only == nil || only == field {
                        values.append((field, try cursor.value(type)))
                    } else {
                        try cursor.skip(type)
                    }
                }
                return values
            }
        }
        return try result.get()
    }

    /// Walks one encoded document without materializing anything, so later decoding cannot fail: every value is
    /// whole, of a field of the schema, in ascending field order, and nothing follows the last.
    /// - Complexity: O(values), a few nanoseconds each.
    package static func validate(_ document: ArraySlice<UInt8>, schema: Schema) throws(FormatError) {
        let result = unsafe document.withUnsafeBytes { bytes in
            Result { () throws(FormatError) in
                var cursor = unsafe Cursor(bytes: bytes)
                var previous = 0
                for _ in 0..<Int(clamping: try cursor.vint()) {
                    let field = try cursor.field(schema)
                    guard field >= previous else {
                        throw .malformed(
                            offset: cursor.offset, reason: "stored value of field \(field) after field \(previous)")
                    }
                    previous = field
                    try cursor.skip(schema.fields[field].type)
                }
                guard cursor.offset == cursor.count else {
                    throw .malformed(offset: cursor.offset, reason: "stored document has trailing bytes")
                }
            }
        }
        try result.get()
    }

    /// A checked cursor over one encoded document. Its reads inline into the loops above, where LoupeCodec's
    /// `ByteReader` costs a call per read across the module boundary (a third of a cached fetch's time, measured).
    @safe private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        let count: Int
        var offset = 0

        init(bytes: UnsafeRawBufferPointer) {
            unsafe self.bytes = bytes
            count = bytes.count
        }

        /// A LEB128 varint of at most 64 bits, as `ByteWriter.writeVInt` writes it.
        @inline(__always)
        mutating func vint() throws(FormatError) -> UInt64 {
            let start = offset
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while offset < count {
                let byte = unsafe bytes[offset]
                offset &+= 1
                guard shift < 63 || byte <= 1 else {
                    throw .malformed(offset: start, reason: "varint overflows 64 bits")
                }
                value |= UInt64(byte & 0x7F) &<< shift
                if byte < 0x80 { return value }
                shift &+= 7
            }
            throw .truncated(offset: start, needed: offset - start + 1, available: offset - start)
        }

        @inline(__always)
        mutating func field(_ schema: Schema) throws(FormatError) -> Int {
            let field = try vint()
            guard field < UInt64(schema.fields.count) else {
                throw .malformed(offset: offset, reason: "stored value of unknown field \(field)")
            }
            return Int(field)
        }

        @inline(__always)
        mutating func advance(_ length: UInt64) throws(FormatError) {
            guard length <= UInt64(count - offset) else {
                throw .truncated(offset: offset, needed: Int(clamping: length), available: count - offset)
            }
            offset &+= Int(length)
        }

        /// Moves past one value without materializing it.
        @inline(__always)
        mutating func skip(_ type: FieldType) throws(FormatError) {
            switch type {
            case .text, .string: try advance(vint())
            case .u64, .i64, .date: _ = try vint()
            case .f64: try advance(8)
            case .bool: try advance(1)
            }
        }

        mutating func value(_ type: FieldType) throws(FormatError) -> PreparedDocument.Value {
            switch type {
            case .text, .string:
                let length = try vint()
                let start = offset
                try advance(length)
                return unsafe .bytes(Array(bytes[start..<offset]))
            case .u64:
                return .mapped(try vint())
            case .i64, .date:
                return .mapped(NumericMapping.fromI64(StoredValueCoding.unZigZag(try vint())))
            case .f64:
                try advance(8)
                return .mapped(NumericMapping.fromF64(Double(bitPattern: unsafe bytes.loadU64LE(at: offset - 8))))
            case .bool:
                try advance(1)
                return .mapped(UInt64(unsafe bytes[offset - 1] & 1))
            }
        }
    }

    @inline(__always) private static func zigZag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    @inline(__always) private static func unZigZag(_ v: UInt64) -> Int64 {
        Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)
    }
}
