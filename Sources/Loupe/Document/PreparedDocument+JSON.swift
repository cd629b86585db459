import LoupeCodec

extension Schema {
    /// Parses one JSON object (one JSONL line) into a prepared document as it reads it: no `JSONValue` tree, no
    /// `String`, no array per key; each text or string value is copied once, into the document's byte array.
    /// `null` values and empty arrays count as absent.
    ///
    /// A line that is not valid JSON is reported as such even where a field before the damage is wrong, as when
    /// the whole line was parsed first: on any error the line is parsed again by `JSONParser`, whose error, when
    /// it finds one, is the one thrown.
    /// - Throws: `IndexError` `.invalidDocument` naming the field, or the byte offset of a JSON syntax error.
    package func prepareJSON(_ bytes: UnsafeRawBufferPointer) throws(IndexError) -> PreparedDocument {
        let failure: IndexError
        do {
            switch try unsafe readDocument(bytes) {
            case .success(let prepared): return prepared
            case .failure(let error): failure = error
            }
        } catch {
            failure = Self.malformed(error)
        }
        if case .failure(let syntax) = Result(catching: { () throws(JSONError) in try unsafe JSONParser.parse(bytes) })
        {
            throw Self.malformed(syntax)
        }
        throw failure
    }

    @inline(never)
    private static func malformed(_ error: JSONError) -> IndexError {
        IndexError(.invalidDocument, "malformed JSON: \(error.message)", context: .init(byteOffset: error.offset))
    }

    /// The document, or why the line, well-formed JSON as far as it was read, is not one of the schema.
    private func readDocument(_ bytes: UnsafeRawBufferPointer) throws(JSONError) -> Result<PreparedDocument, IndexError>
    {
        var reader = unsafe JSONPullReader(bytes)
        guard case .object = try reader.peekKind() else {
            return .failure(IndexError(.invalidDocument, "a document must be a JSON object"))
        }
        reader.enterContainer()
        // The line's length bounds its strings' unescaped bytes: one allocation holds them all.
        var prepared = PreparedDocument(reservingItems: fields.count, bytes: bytes.count)
        var previous = -1
        var first = true
        while let key = try reader.nextMember(first: first) {
            first = false
            guard let ordinal = unsafe fieldID(of: key, in: bytes, after: previous) else {
                return .failure(unsafe unknownField(key, in: bytes))
            }
            previous = ordinal
            var kind = try reader.peekKind()
            let inArray = if case .array = kind { true } else { false }
            if inArray {
                reader.enterContainer()
                guard try reader.nextElement(first: true) else { continue }
                kind = try reader.peekKind()
            }
            while true {
                if case .null = kind {
                    try reader.readNull()
                } else {
                    if let error = try unsafe readValue(kind, in: &reader, bytes: bytes, for: ordinal, into: &prepared)
                    {
                        return .failure(error)
                    }
                }
                guard inArray, try reader.nextElement(first: false) else { break }
                kind = try reader.peekKind()
            }
        }
        try reader.finish()
        prepared.sortByField()
        return .success(prepared)
    }

    /// The id of the field a member's key names. Members usually come in schema order, some fields absent, so
    /// the few fields after `previous` (the last member's) are compared first, byte for byte; any other name is
    /// looked up by its `String`, which costs an allocation and a hash.
    private func fieldID(of key: JSONStringBytes, in bytes: UnsafeRawBufferPointer, after previous: Int) -> Int? {
        switch key {
        case .input(let range):
            let key = unsafe UnsafeRawBufferPointer(rebasing: bytes[range])
            for candidate in previous + 1..<min(previous + 5, fieldNames.count)
            where unsafe key.elementsEqual(fieldNames[candidate]) {
                return candidate
            }
            return fieldIndex[unsafe String(decoding: key, as: UTF8.self)]
        case .unescaped(let key):
            return fieldIndex[String(decoding: key, as: UTF8.self)]
        }
    }

    @inline(never)
    private func unknownField(_ key: JSONStringBytes, in bytes: UnsafeRawBufferPointer) -> IndexError {
        let name = unsafe Self.text(of: key, in: bytes)
        return IndexError(.invalidDocument, "unknown field '\(name)' (not in the schema)", context: .init(field: name))
    }

    /// A string the reader found, for an error message.
    @inline(never)
    private static func text(of string: JSONStringBytes, in bytes: UnsafeRawBufferPointer) -> String {
        switch string {
        case .input(let range): unsafe String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        case .unescaped(let unescaped): String(decoding: unescaped, as: UTF8.self)
        }
    }

    /// Reads the value of kind `kind` (not `null`) that a document gives for field `field`, converting it to the
    /// field's type, and appends it to `document`; integers are accepted for float fields. An array here is one
    /// inside the field's array. Returns why the value does not fit the field, if it does not.
    private func readValue(
        _ kind: JSONPullReader.Kind, in reader: inout JSONPullReader, bytes: UnsafeRawBufferPointer, for field: Int,
        into document: inout PreparedDocument
    ) throws(JSONError) -> IndexError? {
        switch (fields[field].type, kind) {
        case (.text, .string), (.string, .string):
            switch try reader.readString() {
            case .input(let range): unsafe document.append(field, bytes: UnsafeRawBufferPointer(rebasing: bytes[range]))
            case .unescaped(let unescaped): document.append(field, bytes: unescaped)
            }
        case (.u64, .number):
            let n = try reader.readNumber()
            guard let v = n.uint64 else { return mismatch(field, "the number \(n.double)") }
            document.append(field, mapped: v)
        case (.i64, .number):
            let n = try reader.readNumber()
            guard let v = n.int64 else { return mismatch(field, "the number \(n.double)") }
            document.append(field, mapped: NumericMapping.fromI64(v))
        case (.f64, .number):
            document.append(field, mapped: NumericMapping.fromF64(try reader.readNumber().double))
        case (.bool, .bool):
            document.append(field, mapped: try reader.readBool() ? 1 : 0)
        case (.date, .string):
            let string = try reader.readString()
            let micros =
                switch string {
                case .input(let range): unsafe RFC3339.parseMicros(UnsafeRawBufferPointer(rebasing: bytes[range]))
                case .unescaped(let unescaped): RFC3339.parseMicros(unescaped)
                }
            guard let micros else {
                let text = unsafe Self.text(of: string, in: bytes).prefix(40)
                return mismatch(field, "\"\(text)\" (not an RFC 3339 date)")
            }
            document.append(field, mapped: NumericMapping.fromI64(micros))
        case (_, .string): return mismatch(field, "a string")
        case (_, .number): return mismatch(field, "a number")
        case (_, .bool): return mismatch(field, "a boolean")
        case (_, .object): return mismatch(field, "an object")
        case (_, .array): return mismatch(field, "a nested array")
        case (_, .null): return mismatch(field, "null")
        }
        return nil
    }

    @inline(never)
    private func mismatch(_ field: Int, _ what: String) -> IndexError {
        let entry = fields[field]
        return IndexError(
            .invalidDocument, "field '\(entry.name)': expected \(entry.type.rawValue), got \(what)",
            context: .init(field: entry.name))
    }
}
