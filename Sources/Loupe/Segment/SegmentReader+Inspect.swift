extension SegmentReader {
    /// What one field occupies in a segment.
    package struct FieldFootprint {
        package var field: Int
        package var terms: Int
        package var postingsBytes: Int
        package var positionsBytes: Int
        package var normsBytes: Int
        package var fastBytes: Int
        /// How the fast column is laid out (`Column.layoutDescription`), nil without one.
        package var fastLayout: String?
    }

    /// Per field with anything in this segment: its term count and the bytes of its postings, positions, norms
    /// and fast column. Fields are written one after another in the postings and positions files, so a field's
    /// share runs from its first term's offset to the next field's (or the end of the file).
    package func footprints(schema: Schema) -> [FieldFootprint] {
        var starts: [(field: Int, postings: UInt64, positions: UInt64?)] = []
        for (field, entry) in schema.fields.enumerated() {
            guard let dictionary = terms.field(field), dictionary.termCount > 0,
                let info = try? dictionary.cursorAtFirst().info
            else { continue }
            let recordsPositions = entry.type == .text && entry.record == .position
            starts.append((field, info.postingsOffset, recordsPositions ? info.positionsOffset : nil))
        }
        func share(_ start: UInt64?, among all: [UInt64], fileSize: Int) -> Int {
            guard let start else { return 0 }
            return Int((all.filter { $0 > start }.min() ?? UInt64(fileSize)) - start)
        }
        let postingStarts = starts.map(\.postings)
        let positionStarts = starts.compactMap(\.positions)
        var out: [FieldFootprint] = []
        for field in schema.fields.indices {
            let start = starts.first { $0.field == field }
            let footprint = FieldFootprint(
                field: field, terms: terms.field(field)?.termCount ?? 0,
                postingsBytes: start.map { share($0.postings, among: postingStarts, fileSize: postings.count) } ?? 0,
                positionsBytes: start.map { share($0.positions, among: positionStarts, fileSize: positions.count) }
                    ?? 0,
                normsBytes: norms.column(field)?.byteCount ?? 0, fastBytes: fast.column(field)?.byteCount ?? 0,
                fastLayout: fast.column(field)?.layoutDescription)
            if footprint.terms + footprint.normsBytes + footprint.fastBytes > 0 { out.append(footprint) }
        }
        return out
    }
}
