/// The merged segment's fast fields: every live document's values copied in the merged order, string ordinals
/// remapped through a k-way merge of the inputs' dictionaries. A string only deleted documents held is dropped, so
/// the merged dictionary is what it would be had the live documents been indexed together. Columns are merged and
/// written one at a time, so memory holds one merged column, never the file.
enum ColumnarMerger {
    /// Writes the merged file to `out` and finishes it.
    /// - Parameters:
    ///   - newIDs: per input segment, each document's id in the merged segment, or -1 when deleted.
    /// - Throws: the `StorageError` of a write, the fsync or the rename.
    static func merge(
        schema: Schema, segments: [SegmentReader], newIDs: [[Int32]], maxDoc: Int, to file: consuming FileWriter
    ) throws(StorageError) {
        var out = ColumnarFileWriter(file)
        for field in schema.fields.indices where schema.fields[field].fast {
            let kind = ColumnKind(schema.fields[field].type)
            let columns = segments.map { $0.fast.column(field) }
            var remap: [[UInt64]]?
            var dictionary: [[UInt8]]?
            if kind == .bytes {
                (dictionary, remap) = mergedDictionary(columns, newIDs: newIDs)
            }
            var docs: [UInt32] = []
            var values: [UInt64] = []
            for (s, column) in columns.enumerated() {
                guard let column else { continue }
                for doc in 0..<DocID(newIDs[s].count) {
                    let id = newIDs[s][Int(doc)]
                    guard id >= 0 else { continue }
                    for i in column.valueRange(doc) {
                        let v = column.value(at: i)
                        values.append(remap.map { $0[s][Int(v)] } ?? v)
                        docs.append(UInt32(id))
                    }
                }
            }
            out.append(field: field, kind: kind, maxDoc: maxDoc, docs: docs, values: values, dictionary: dictionary)
        }
        try out.finish()
    }

    /// The sorted union of the strings live documents hold, and each input's old-to-new ordinal table (empty for an
    /// input without the column).
    private static func mergedDictionary(_ columns: [Column?], newIDs: [[Int32]]) -> ([[UInt8]], [[UInt64]]) {
        struct Input {
            let segment: Int
            let dictionary: ColumnDictionary
            /// Whether a live document holds each ordinal.
            var live: [Bool]
            /// The next live ordinal not yet merged.
            var next = 0

            mutating func skipDead() {
                while next < live.count && !live[next] { next += 1 }
            }

            var current: [UInt8]? { next < live.count ? dictionary.term(UInt64(next)) : nil }
        }
        var inputs: [Input] = []
        for (s, column) in columns.enumerated() {
            guard let column, let dictionary = column.dictionary else { continue }
            var live = [Bool](repeating: false, count: dictionary.count)
            for doc in 0..<DocID(newIDs[s].count) where newIDs[s][Int(doc)] >= 0 {
                for i in column.valueRange(doc) { live[Int(column.value(at: i))] = true }
            }
            var input = Input(segment: s, dictionary: dictionary, live: live)
            input.skipDead()
            inputs.append(input)
        }
        var merged: [[UInt8]] = []
        var remap = columns.map { [UInt64](repeating: 0, count: $0?.dictionary?.count ?? 0) }
        while let smallest = inputs.compactMap(\.current).min(by: { $0.lexicographicallyPrecedes($1) }) {
            for i in inputs.indices where inputs[i].current == smallest {
                remap[inputs[i].segment][inputs[i].next] = UInt64(merged.count)
                inputs[i].next += 1
                inputs[i].skipDead()
            }
            merged.append(smallest)
        }
        return (merged, remap)
    }
}
