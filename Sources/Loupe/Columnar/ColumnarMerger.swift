/// The merged segment's fast fields: every live document's values copied in the merged order, string ordinals
/// remapped through a k-way merge of the inputs' dictionaries. A string only deleted documents held is dropped, so
/// the merged dictionary is what it would be had the live documents been indexed together.
enum ColumnarMerger {
    /// - Parameters:
    ///   - newIDs: per input segment, each document's id in the merged segment, or -1 when deleted.
    static func merge(schema: Schema, segments: [SegmentReader], newIDs: [[Int32]], maxDoc: Int) -> [UInt8] {
        var out = ColumnarFileWriter()
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
        return out.finish()
    }

    /// The sorted union of the strings live documents hold, and each input's old-to-new ordinal table.
    private static func mergedDictionary(_ columns: [Column?], newIDs: [[Int32]]) -> ([[UInt8]], [[UInt64]]) {
        var live: [[Bool]] = []
        for (s, column) in columns.enumerated() {
            guard let column, let dictionary = column.dictionary else {
                live.append([])
                continue
            }
            var used = [Bool](repeating: false, count: dictionary.count)
            for doc in 0..<DocID(newIDs[s].count) where newIDs[s][Int(doc)] >= 0 {
                for i in column.valueRange(doc) { used[Int(column.value(at: i))] = true }
            }
            live.append(used)
        }
        var merged: [[UInt8]] = []
        var remap = live.map { [UInt64](repeating: 0, count: $0.count) }
        var next = [Int](repeating: 0, count: columns.count)
        func advance(_ s: Int) {
            while next[s] < live[s].count && !live[s][next[s]] { next[s] += 1 }
        }
        for s in columns.indices { advance(s) }
        while true {
            var smallest: [UInt8]?
            for s in columns.indices where next[s] < live[s].count {
                let term = columns[s]!.dictionary!.term(UInt64(next[s]))
                if let best = smallest, !term.lexicographicallyPrecedes(best) { continue }
                smallest = term
            }
            guard let term = smallest else { break }
            for s in columns.indices where next[s] < live[s].count && columns[s]!.dictionary!.term(UInt64(next[s])) == term {
                remap[s][next[s]] = UInt64(merged.count)
                next[s] += 1
                advance(s)
            }
            merged.append(term)
        }
        return (merged, remap)
    }
}
