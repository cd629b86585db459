// Column: one fast field of a segment. Layout: ColumnarFormat.swift.
//
// | kind(u8) | layout(u8) | optional index (layout 1) | offsets: numeric values of maxDoc + 1 (layout 2) |
// | values: numeric values | dictionary (kind bytes) |
// layout 0, full:     every document has exactly one value; row = document
// layout 1, optional: at most one value per document; the optional index gives a document's row
// layout 2, multi:    document d owns values offsets[d] ..< offsets[d + 1] (the offsets are a numeric block, so
//                     runs of documents without values cost next to nothing under the blockwise-linear codec)

import LoupeCodec

/// What a column's values are.
package enum ColumnKind: UInt8, Sendable {
    case u64 = 0
    case i64, f64, bool, date
    /// Ordinals into the segment's `ColumnDictionary` of strings.
    case bytes

    package init(_ type: FieldType) {
        switch type {
        case .u64: self = .u64
        case .i64: self = .i64
        case .f64: self = .f64
        case .bool: self = .bool
        case .date: self = .date
        case .text, .string: self = .bytes
        }
    }
}

/// One fast field of a segment, read in O(1) per document straight from the mapped file.
///
/// Values are `NumericMapping`-mapped `UInt64`s (u64 as is, i64 and dates through `fromI64` — dates in microseconds
/// — f64 through `fromF64`, bool 0/1), whose order is the originals' order, or, for `.bytes`, ordinals into
/// `dictionary`, whose order is byte order within the segment.
@safe
package struct Column: Sendable {
    enum Layout: Sendable {
        case full
        case optional(OptionalIndex)
        case multi(offsets: NumericValues)
    }

    package let kind: ColumnKind
    let layout: Layout
    let values: NumericValues
    /// The segment's sorted strings, for `.bytes` columns.
    package let dictionary: ColumnDictionary?
    /// Bytes the column takes in its file.
    package let byteCount: Int

    init(kind: ColumnKind, layout: Layout, values: NumericValues, dictionary: ColumnDictionary?, byteCount: Int) {
        self.kind = kind
        self.layout = layout
        self.values = values
        self.dictionary = dictionary
        self.byteCount = byteCount
    }

    /// Every document has at most one value.
    package var isSingleValued: Bool {
        if case .multi = layout { false } else { true }
    }

    /// Values held by all documents together.
    package var valueCount: Int { values.count }

    /// Indexes into the column's values owned by `doc`, empty when it has none.
    @inline(__always) package func valueRange(_ doc: DocID) -> Range<Int> {
        switch layout {
        case .full:
            let i = Int(doc)
            return i < values.count ? i..<(i &+ 1) : 0..<0
        case .optional(let index):
            guard let row = index.row(doc), row < values.count else { return 0..<0 }
            return row..<(row &+ 1)
        case .multi(let offsets):
            let d = Int(doc)
            guard d &+ 1 < offsets.count else { return 0..<0 }
            // Clamped, not truncated: a damaged offset of 2^63 or more must not become a negative index.
            let lo = Int(clamping: offsets[d])
            let hi = Int(clamping: offsets[d &+ 1])
            return lo..<Swift.max(lo, Swift.min(hi, values.count))
        }
    }

    /// The value at index `i` of the column (0 ≤ i < valueCount).
    @inline(__always) package func value(at i: Int) -> UInt64 { values[i] }

    /// The first value of `doc`, nil when it has none.
    @inline(__always) package func first(_ doc: DocID) -> UInt64? {
        let r = valueRange(doc)
        return r.isEmpty ? nil : values[r.lowerBound]
    }

    /// Every value of `doc`, in the order they were added.
    package func values(_ doc: DocID) -> [UInt64] { valueRange(doc).map { values[$0] } }

    /// The first value of each of `count` documents into `out`, `missing` for a document without one: the block read
    /// path of collectors, choosing the layout once per block.
    package func firstValues(
        of docs: UnsafePointer<DocID>, count: Int, into out: UnsafeMutablePointer<UInt64>, missing: UInt64
    ) {
        switch layout {
        case .full:
            // Documents rise, so the last one bounds them all.
            if count > 0, Int(unsafe docs[count - 1]) < values.count {
                unsafe values.gather(docs, count: count, into: out, missingRow: terminatedDoc, missing: missing)
            } else {
                for i in 0..<count {
                    let d = Int(unsafe docs[i])
                    unsafe out[i] = d < values.count ? values[d] : missing
                }
            }
        case .optional(let index):
            unsafe withUnsafeTemporaryAllocation(of: UInt32.self, capacity: count) { rows in
                unsafe index.rows(of: docs, count: count, into: rows.baseAddress!, missing: terminatedDoc)
                unsafe values.gather(
                    rows.baseAddress!, count: count, into: out, missingRow: terminatedDoc, missing: missing)
            }
        case .multi:
            for i in 0..<count { unsafe out[i] = first(docs[i]) ?? missing }
        }
    }

    /// Hands every value of the column to `body`, `ScoreBlock.capacity` at a time, in row order: what a collector
    /// needs when every document matches and each counts by its values alone.
    package func forEachValueBlock(_ body: (UnsafeBufferPointer<UInt64>) -> Void) {
        unsafe withUnsafeTemporaryAllocation(of: UInt64.self, capacity: ScoreBlock.capacity) { buffer in
            var start = 0
            while start < values.count {
                let n = Swift.min(ScoreBlock.capacity, values.count - start)
                unsafe values.decode(from: start, count: n, into: buffer.baseAddress!)
                unsafe body(UnsafeBufferPointer(rebasing: buffer[..<n]))
                start += n
            }
        }
    }

    /// Reads one column of a segment of `maxDoc` documents.
    package init(_ bytes: UnsafeRawBufferPointer, maxDoc: Int, fileOffset: Int) throws(FormatError) {
        var reader = unsafe ByteReader(bytes)
        let kindByte = try reader.readU8()
        let layoutByte = try reader.readU8()
        guard let kind = ColumnKind(rawValue: kindByte), layoutByte <= 2 else {
            throw .malformed(offset: fileOffset, reason: "column kind \(kindByte) or layout \(layoutByte) unknown")
        }
        var used = 0
        var layout = Layout.full
        if layoutByte == 1 {
            layout = .optional(
                unsafe try OptionalIndex(
                    UnsafeRawBufferPointer(rebasing: bytes[reader.offset...]), maxDoc: maxDoc,
                    fileOffset: fileOffset + reader.offset, consumed: &used))
            try reader.skip(used)
        } else if layoutByte == 2 {
            let offsets = unsafe try NumericValues(
                UnsafeRawBufferPointer(rebasing: bytes[reader.offset...]), fileOffset: fileOffset + reader.offset,
                consumed: &used)
            guard offsets.count == maxDoc + 1 else {
                throw .malformed(
                    offset: fileOffset + reader.offset, reason: "\(offsets.count) offsets for \(maxDoc) documents")
            }
            try reader.skip(used)
            layout = .multi(offsets: offsets)
        }
        let values = unsafe try NumericValues(
            UnsafeRawBufferPointer(rebasing: bytes[reader.offset...]), fileOffset: fileOffset + reader.offset,
            consumed: &used)
        try reader.skip(used)
        switch layout {
        case .full where values.count != maxDoc:
            throw .malformed(
                offset: fileOffset, reason: "full column of \(values.count) values for \(maxDoc) documents")
        case .optional(let index) where index.rowCount != values.count:
            throw .malformed(
                offset: fileOffset, reason: "optional column of \(values.count) values for \(index.rowCount) rows")
        default:
            break
        }
        var dictionary: ColumnDictionary?
        if kind == .bytes {
            let d = unsafe try ColumnDictionary(
                UnsafeRawBufferPointer(rebasing: bytes[reader.offset...]), fileOffset: fileOffset + reader.offset,
                consumed: &used)
            try reader.skip(used)
            guard values.count == 0 || values.max < UInt64(d.count) else {
                throw .malformed(
                    offset: fileOffset, reason: "ordinal \(values.max) past a dictionary of \(d.count) values")
            }
            dictionary = d
        }
        self.init(kind: kind, layout: layout, values: values, dictionary: dictionary, byteCount: bytes.count)
    }

    /// Appends the column of `values`, where `docs[i]` (non-decreasing) is the document holding `values[i]`, for a
    /// segment of `maxDoc` documents; `dictionary` holds the sorted strings `values` index for a `.bytes` column.
    package static func write(
        kind: ColumnKind, maxDoc: Int, docs: [UInt32], values: [UInt64], dictionary: [[UInt8]]?,
        into out: inout ByteWriter
    ) {
        var single = true
        for i in docs.indices.dropFirst() where docs[i] == docs[i - 1] {
            single = false
            break
        }
        out.writeU8(kind.rawValue)
        if single && docs.count == maxDoc {
            out.writeU8(0)
        } else if single {
            out.writeU8(1)
            OptionalIndex.write(docs, maxDoc: maxDoc, into: &out)
        } else {
            out.writeU8(2)
            var offsets = [UInt64](repeating: 0, count: maxDoc + 1)
            for doc in docs { offsets[Int(doc) + 1] += 1 }
            for d in 0..<maxDoc { offsets[d + 1] += offsets[d] }
            NumericValuesWriter.write(offsets, into: &out)
        }
        NumericValuesWriter.write(values, into: &out)
        if kind == .bytes { ColumnDictionary.write(dictionary ?? [], into: &out) }
    }
}
