import Loupe
import LoupeCodec

/// The update-heavy phase's input: `id<TAB>json` lines, one upsert each, in the order compare.py drew them (so
/// that Loupe and tantivy replay the same sequence). Read whole before the phase, so the timing sees no file I/O.
struct UpsertList {
    /// A line loupe-bench cannot use, by 1-based line number (0: the file or the schema as a whole).
    struct FileError: Error, CustomStringConvertible {
        var path: String
        var line: Int
        var reason: String
        var description: String { "\(path):\(line): \(reason)" }
    }

    /// One upsert: delete the documents whose id field holds `id`, then add `json`.
    struct Entry {
        var id: FieldValue
        var json: [UInt8]
    }

    /// The schema's id field, which every delete matches on.
    let idField: String
    let entries: [Entry]

    /// Reads the whole file; the ids are converted to the id field's type (string, u64 or i64).
    init(path: String, schema: Schema) throws(FileError) {
        guard let idField = schema.idField, let type = schema.field(named: idField)?.type else {
            throw FileError(path: path, line: 0, reason: "upserts delete by id, and the schema names no id_field")
        }
        let reader: LineReader
        do {
            reader = try LineReader(path: path)
        } catch {
            throw FileError(path: path, line: 0, reason: "\(error)")
        }
        var entries: [Entry] = []
        while true {
            let next: UnsafeRawBufferPointer?
            do {
                next = try reader.nextLine()
            } catch {
                throw FileError(path: path, line: reader.lineNumber + 1, reason: "\(error)")
            }
            guard let line = next else { break }
            guard let tab = line.firstIndex(of: UInt8(ascii: "\t")),
                let id = Self.idValue(String(decoding: line[..<tab], as: UTF8.self), type: type)
            else {
                let reason = "want <\(type.rawValue) id><TAB><JSON document>"
                throw FileError(path: path, line: reader.lineNumber, reason: reason)
            }
            entries.append(Entry(id: id, json: Array(line[(tab + 1)...])))
        }
        self.idField = idField
        self.entries = entries
    }

    /// The id as the delete term of a field of type `type`; nil when it does not parse or the type cannot be an id.
    private static func idValue(_ text: String, type: FieldType) -> FieldValue? {
        switch type {
        case .string: .text(text)
        case .u64: UInt64(text).map(FieldValue.u64)
        case .i64: Int64(text).map(FieldValue.i64)
        case .text, .f64, .bool, .date: nil
        }
    }
}
