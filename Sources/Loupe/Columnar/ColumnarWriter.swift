import LoupeAnalysis
import LoupeCodec

/// Collects the fast values of a segment's documents in memory and writes them as the columnar file
/// (ColumnarFormat.swift).
///
/// Numbers are kept as mapped values with the document holding each; strings are interned per field and written
/// as a sorted dictionary plus ordinals. A text field's value goes through its tokenizer (raw or lowercase, the two
/// a fast text field may have), so the column holds what a term query on the field matches.
package struct ColumnarWriter {
    private struct Values {
        var docs: [UInt32] = []
        var values: [UInt64] = []
        /// Strings of a bytes column; `values` are their ids here until written.
        var strings: TermHashMap?
    }

    private let schema: Schema
    /// Fast fields, in schema order.
    private let fields: [Int]
    private var columns: [Values]
    /// Column of each schema field, nil for fields that are not fast.
    private let slots: [Int?]
    /// Per column, whether its values are lowercased first (text fields with the `lowercase` tokenizer).
    private let lowercases: [Bool]
    /// Lowercases the values of fast text fields with the `lowercase` tokenizer.
    private var lowercase = AnalysisSession(.lowercase)
    /// The lowercased value, reused from one value to the next.
    private var lowered: [UInt8] = []

    package init(schema: Schema) {
        self.schema = schema
        fields = schema.fields.indices.filter { schema.fields[$0].fast }
        columns = fields.map {
            schema.fields[$0].type.isNumeric ? Values() : Values(strings: TermHashMap(capacity: 64))
        }
        var slots = [Int?](repeating: nil, count: schema.fields.count)
        for (slot, field) in fields.enumerated() { slots[field] = slot }
        self.slots = slots
        lowercases = fields.map { schema.fields[$0].type == .text && schema.fields[$0].tokenizer == "lowercase" }
    }

    package var memoryUsage: Int {
        columns.reduce(0) { $0 + $1.docs.capacity * 4 + $1.values.capacity * 8 + ($1.strings?.memoryUsage ?? 0) }
    }

    /// Records the fast values of document `doc` (documents arrive in increasing order).
    package mutating func add(_ document: PreparedDocument, doc: UInt32) {
        unsafe document.bytes.withUnsafeBufferPointer { bytes in
            for v in document.items {
                guard let slot = slots[v.field] else { continue }
                switch v.value {
                case .mapped(let mapped):
                    columns[slot].values.append(mapped)
                    columns[slot].docs.append(doc)
                case .bytes(let range):
                    let value = unsafe UnsafeBufferPointer(rebasing: bytes[range])
                    guard lowercases[slot] else {
                        unsafe intern(value, slot: slot, doc: doc)
                        continue
                    }
                    var lowered = self.lowered
                    self.lowered = []
                    lowered.removeAll(keepingCapacity: true)
                    // Through a buffer pointer: `Array.span` needs macOS 26 / iOS 26 (see Package.swift).
                    _ = unsafe lowercase.analyze(value.span) { term, _ in
                        for i in term.indices { lowered.append(term[i]) }
                    }
                    unsafe lowered.withUnsafeBufferPointer { unsafe intern($0, slot: slot, doc: doc) }
                    self.lowered = lowered
                }
            }
        }
    }

    private mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, slot: Int, doc: UInt32) {
        let id = unsafe columns[slot].strings!.insert(bytes).id
        columns[slot].values.append(UInt64(id))
        columns[slot].docs.append(doc)
    }

    /// Writes the file of a segment of `maxDoc` documents to `out` and finishes it.
    /// - Throws: the `StorageError` of a write, the fsync or the rename.
    package func write(maxDoc: Int, to out: consuming FileWriter) throws(StorageError) {
        var out = ColumnarFileWriter(out)
        for (field, column) in zip(fields, columns) {
            let kind = ColumnKind(schema.fields[field].type)
            guard let strings = column.strings else {
                out.append(
                    field: field, kind: kind, maxDoc: maxDoc, docs: column.docs, values: column.values, dictionary: nil)
                continue
            }
            let order = (0..<strings.count).sorted { a, b in
                unsafe strings.key(a).withUnsafeBytes { x in
                    unsafe strings.key(b).withUnsafeBytes { y in unsafe compareBytes(x, y) < 0 }
                }
            }
            var ordinal = [UInt64](repeating: 0, count: strings.count)
            for (rank, id) in order.enumerated() { ordinal[id] = UInt64(rank) }
            out.append(
                field: field, kind: kind, maxDoc: maxDoc, docs: column.docs,
                values: column.values.map { ordinal[Int($0)] },
                dictionary: order.map { Array(strings.key($0)) })
        }
        try out.finish()
    }
}

/// Writes columns one after another, then the directory and footer (ColumnarFormat.swift). A column is encoded
/// whole (its codec is chosen from all its values) into a scratch buffer reused from column to column, then
/// streamed to the file: memory holds one column, never the file.
struct ColumnarFileWriter: ~Copyable {
    private var out: FileWriter
    private var column = ByteWriter(capacity: 1 << 12)
    private var directory: [(field: Int, offset: Int, length: Int)] = []

    init(_ out: consuming FileWriter) {
        self.out = out
    }

    mutating func append(
        field: Int, kind: ColumnKind, maxDoc: Int, docs: [UInt32], values: [UInt64], dictionary: [[UInt8]]?
    ) {
        column.removeAll()
        Column.write(kind: kind, maxDoc: maxDoc, docs: docs, values: values, dictionary: dictionary, into: &column)
        directory.append((field, out.count, column.count))
        unsafe column.bytes.withUnsafeBytes { unsafe out.writeBytes($0) }
    }

    consuming func finish() throws(StorageError) {
        let directoryOffset = UInt64(out.count)
        out.writeU32(UInt32(directory.count))
        for (field, offset, length) in directory {
            out.writeU32(UInt32(field))
            out.writeU64(UInt64(offset))
            out.writeU64(UInt64(length))
        }
        out.writeU64(directoryOffset)
        out.writeFooter(kind: SegmentComponent.fast.kind, version: SegmentComponent.fast.formatVersion)
        try out.finish()
    }
}
