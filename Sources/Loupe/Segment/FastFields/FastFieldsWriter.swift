import LoupeCodec

/// Collects fast values in memory while documents are indexed and serializes them column by column.
package struct FastFieldsWriter {
    private struct Column {
        var values: [UInt64] = []
        /// starts[d] = index of document d's first value; one more entry than documents.
        var starts: [UInt64] = [0]
    }

    /// Fast numeric fields, in schema order.
    private let fields: [Int]
    private var columns: [Column]
    /// Column of each schema field, nil for fields that are not fast numeric fields.
    private let slots: [Int?]

    package init(schema: Schema) {
        fields = schema.fields.indices.filter { schema.fields[$0].fast && schema.fields[$0].type.isNumeric }
        columns = Array(repeating: Column(), count: fields.count)
        var slots = [Int?](repeating: nil, count: schema.fields.count)
        for (slot, field) in fields.enumerated() { slots[field] = slot }
        self.slots = slots
    }

    package var memoryUsage: Int {
        columns.reduce(0) { $0 + ($1.values.capacity + $1.starts.capacity) * 8 }
    }

    /// Records the fast values of the next document.
    package mutating func add(_ document: PreparedDocument) {
        for v in document.values {
            guard case .mapped(let mapped) = v.value, let slot = slots[v.field] else { continue }
            columns[slot].values.append(mapped)
        }
        for slot in columns.indices { columns[slot].starts.append(UInt64(columns[slot].values.count)) }
    }

    package func serialize() -> [UInt8] {
        var out = ByteWriter(capacity: 1 << 12)
        var directory: [(Int, UInt64, UInt64)] = []
        for (field, column) in zip(fields, columns) {
            let start = out.count
            write(column, into: &out)
            directory.append((field, UInt64(start), UInt64(out.count - start)))
        }
        let directoryOffset = UInt64(out.count)
        out.writeU32(UInt32(directory.count))
        for (field, offset, length) in directory {
            out.writeU32(UInt32(field))
            out.writeU64(offset)
            out.writeU64(length)
        }
        out.writeU64(directoryOffset)
        Footer.append(kind: SegmentComponent.fast.kind, version: SegmentComponent.fast.formatVersion, to: &out)
        return out.bytes
    }

    private func write(_ column: Column, into out: inout ByteWriter) {
        let docs = column.starts.count - 1
        let single = column.values.count == docs && zip(column.starts, column.starts.dropFirst()).allSatisfy { $1 == $0 + 1 }
        let minValue = column.values.min() ?? 0
        var gcd: UInt64 = 0
        for v in column.values { gcd = greatestCommonDivisor(gcd, v - minValue) }
        if gcd == 0 { gcd = 1 }
        let maxScaled = column.values.reduce(0) { max($0, ($1 - minValue) / gcd) }
        let valueWidth = BitpackedArray.requiredWidth(maxScaled)
        let offsetWidth = single ? 0 : BitpackedArray.requiredWidth(UInt64(column.values.count))
        out.writeU8(single ? 0 : 1)
        out.writeU64(minValue)
        out.writeU64(gcd)
        out.writeU8(UInt8(valueWidth))
        out.writeU64(UInt64(column.values.count))
        out.writeU8(UInt8(offsetWidth))
        if !single { BitpackedArray.write(column.starts, width: offsetWidth, into: &out) }
        BitpackedArray.write(column.values.lazy.map { ($0 - minValue) / gcd }, width: valueWidth, into: &out)
    }

    private func greatestCommonDivisor(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}
