import FoundationEssentials

extension StoredDocument {
    /// Converts a document read from the store back to public values, grouped by field in schema order.
    package init(schema: Schema, values: [(field: Int, value: PreparedDocument.Value)]) {
        var grouped = [[FieldValue]](repeating: [], count: schema.fields.count)
        for v in values { grouped[v.field].append(FieldValue(v.value, type: schema.fields[v.field].type)) }
        var entries: [(name: String, values: [FieldValue])] = []
        for (i, vs) in grouped.enumerated() where !vs.isEmpty { entries.append((schema.fields[i].name, vs)) }
        self.init(entries: entries)
    }
}

extension FieldValue {
    /// The public value of an engine value of a field of type `type`.
    package init(_ value: PreparedDocument.Value, type: FieldType) {
        switch (value, type) {
        case (.bytes(let b), _): self = .text(String(decoding: b, as: UTF8.self))
        case (.mapped(let v), .u64): self = .u64(v)
        case (.mapped(let v), .i64): self = .i64(NumericMapping.toI64(v))
        case (.mapped(let v), .f64): self = .f64(NumericMapping.toF64(v))
        case (.mapped(let v), .bool): self = .bool(v != 0)
        case (.mapped(let v), .date): self = .date(Date(timeIntervalSince1970: Double(NumericMapping.toI64(v)) / 1_000_000))
        case (.mapped(let v), .text), (.mapped(let v), .string): self = .u64(v)
        }
    }
}
