import LoupeCodec

/// Reading and writing a schema as JSON.
///
/// Two shapes are read: the documented one, `{"fields": [{"name": …, "type": …, "stored": …}], "default_fields":
/// […], "id_field": …}`, and the object-keyed shape of the shared corpora (`"fields": {"title": {"type": "text",
/// "multi": false}}`, `"default_search_fields"`), where every field is stored and indexed and numeric fields are
/// fast. Unknown keys are ignored so notes and hints can ride along; unknown types and options are errors.
extension Schema {
    package static func decode(json: JSONValue) throws(IndexError) -> Schema {
        guard case .object = json else { throw invalid("the schema must be a JSON object") }
        var entries: [FieldEntry] = []
        switch json["fields"] {
        case .array(let items)?:
            for (i, item) in items.enumerated() { entries.append(try decodeField(item, name: nil, position: i)) }
        case .object(let members)?:
            for (i, member) in members.enumerated() {
                entries.append(
                    try decodeField(member.value, name: String(decoding: member.key, as: UTF8.self), position: i))
            }
        default:
            throw invalid("\"fields\" must be an array of field objects")
        }
        let defaults = json["default_fields"] ?? json["default_search_fields"]
        var defaultFields: [String] = []
        if let defaults {
            guard case .array(let names) = defaults else {
                throw invalid("\"default_fields\" must be an array of names")
            }
            for name in names {
                guard let s = name.stringValue else { throw invalid("\"default_fields\" must hold field names") }
                defaultFields.append(s)
            }
        }
        var idField: String?
        if let id = json["id_field"], id != .null {
            guard let s = id.stringValue else { throw invalid("\"id_field\" must be a field name") }
            idField = s
        }
        return try Schema(fields: entries, defaultFields: defaultFields, idField: idField)
    }

    private static func decodeField(
        _ value: JSONValue, name keyedName: String?, position: Int
    ) throws(IndexError)
        -> FieldEntry
    {
        guard case .object = value else { throw invalid("field #\(position + 1) must be a JSON object") }
        guard let name = keyedName ?? value["name"]?.stringValue else {
            throw invalid("field #\(position + 1) has no \"name\"")
        }
        guard let typeName = value["type"]?.stringValue, let type = FieldType(rawValue: typeName) else {
            throw invalid(
                "field '\(name)': \"type\" must be one of \(FieldType.allCases.map(\.rawValue).joined(separator: ", "))",
                field: name)
        }
        func flag(_ key: String, _ defaultValue: Bool) throws(IndexError) -> Bool {
            guard let v = value[key], v != .null else { return defaultValue }
            guard case .bool(let b) = v else {
                throw invalid("field '\(name)': \"\(key)\" must be true or false", field: name)
            }
            return b
        }
        let corpusShape = keyedName != nil
        let stored = try flag("stored", corpusShape || type != .text)
        let indexed = try flag("indexed", true)
        let fast = try flag("fast", corpusShape && type.isNumeric)
        var tokenizer = "default"
        if let t = value["tokenizer"], t != .null {
            guard let s = t.stringValue else {
                throw invalid("field '\(name)': \"tokenizer\" must be a name", field: name)
            }
            tokenizer = s
        }
        var record = IndexRecordOption.position
        if let r = value["record"], r != .null {
            guard let s = r.stringValue, let option = IndexRecordOption(rawValue: s) else {
                throw invalid("field '\(name)': \"record\" must be basic, freq or position", field: name)
            }
            record = option
        }
        return FieldEntry(
            name: name, type: type, stored: stored, indexed: indexed, fast: fast, tokenizer: Analyzer(tokenizer),
            record: record)
    }

    /// The schema in the documented JSON shape (what `meta.json` stores and `idx` reads back).
    package func encode() -> JSONValue {
        let fieldValues: [JSONValue] = fields.map { f in
            var members: [JSONMember] = [
                JSONMember("name", .string(Array(f.name.utf8))),
                JSONMember("type", .string(Array(f.type.rawValue.utf8))),
                JSONMember("stored", .bool(f.stored)),
                JSONMember("indexed", .bool(f.indexed)),
                JSONMember("fast", .bool(f.fast)),
            ]
            if f.type == .text {
                members.append(JSONMember("tokenizer", .string(Array(f.tokenizer.utf8))))
                members.append(JSONMember("record", .string(Array(f.record.rawValue.utf8))))
            }
            return .object(members)
        }
        var members: [JSONMember] = [
            JSONMember("fields", .array(fieldValues)),
            JSONMember("default_fields", .array(defaultFields.map { .string(Array($0.utf8)) })),
        ]
        if let idField { members.append(JSONMember("id_field", .string(Array(idField.utf8)))) }
        return .object(members)
    }

    @inline(never)
    private static func invalid(_ message: String, field: String? = nil) -> IndexError {
        IndexError(.invalidArgument, "schema: " + message, context: .init(field: field))
    }
}
