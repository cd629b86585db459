import Loupe
import LoupeCodec
import TestSupport
import Testing

/// `Schema.prepareJSON`, which converts a JSONL line as it reads it, against a naive reference that parses the
/// whole line into a `JSONValue` tree first and converts the tree: the same documents, and the same errors (code,
/// message, field and byte offset) on random lines, well-formed and damaged.
@Suite struct PreparedJSONTests {
    /// Every field type, one field each: the schema of `DocumentTests`.
    static let schema = DocumentTests.schema

    @Test(arguments: 0..<8 as Range<UInt64>)
    func randomLinesConvertAsTheTreeFirstReferenceDoes(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var accepted = 0
        for round in 0..<400 {
            var line = Self.line(using: &random)
            if round % 3 == 2 { Self.damage(&line, using: &random) }
            let text = String(decoding: line, as: UTF8.self)
            let got = line.withUnsafeBytes { raw in
                Result { () throws(IndexError) in try Self.schema.prepareJSON(raw) }
            }
            switch (got, Self.reference(line)) {
            case (.success(let document), .success(let expected)):
                accepted += 1
                #expect(document.standaloneValues().map(\.field) == expected.map(\.field), "\(text)")
                #expect(document.standaloneValues().map(\.value) == expected.map(\.value), "\(text)")
            case (.failure(let error), .failure(let expected)):
                #expect(error.code == expected.code, "\(text)")
                #expect(error.message == expected.message, "\(text)")
                #expect(error.context == expected.context, "\(text)")
            case (let got, let expected):
                Issue.record("seed \(seed): \(text): got \(got), the reference \(expected)")
            }
        }
        // Both outcomes are exercised: about a quarter of the lines are documents (a damaged one never is).
        #expect((50...300).contains(accepted), "\(accepted) lines accepted")
    }

    /// A JSON object whose members are the schema's fields (in order, shuffled or repeated), now and then an
    /// unknown one, with values of the field's type, of another type, `null`, arrays of values and nulls, nested
    /// arrays and objects; some keys written with an escape.
    static func line(using random: inout SplitMix64) -> [UInt8] {
        let names = schema.fields.map(\.name)
        var keys = names.filter { _ in Int.random(in: 0..<3, using: &random) > 0 }
        if Bool.random(using: &random) { keys.shuffle(using: &random) }
        if Int.random(in: 0..<8, using: &random) == 0, let key = names.randomElement(using: &random) {
            keys.append(key)
        }
        if Int.random(in: 0..<12, using: &random) == 0 { keys.insert("titel", at: 0) }
        var members: [JSONMember] = []
        for key in keys {
            let type = schema.field(named: key)?.type ?? .text
            let value: JSONValue
            switch Int.random(in: 0..<16, using: &random) {
            case 0: value = .null
            case 1: value = .array([])
            case 2, 3: value = .array((0..<Int.random(in: 1...3, using: &random)).map { _ in item(type, &random) })
            case 4: value = .array([item(type, &random), .null, item(type, &random)])
            case 5 where Bool.random(using: &random): value = .array([.array([item(type, &random)])])
            case 5: value = .object([JSONMember("k", item(type, &random))])
            default: value = item(type, &random)
            }
            members.append(JSONMember(key: Array(key.utf8), value: value))
        }
        var bytes: [UInt8] = []
        JSONWriter.write(.object(members), into: &bytes, pretty: Int.random(in: 0..<4, using: &random) == 0)
        if Int.random(in: 0..<6, using: &random) == 0 {
            // `"ti\u0074le"` is the key `title`, escaped.
            bytes = Array(String(decoding: bytes, as: UTF8.self).replacing(#""title""#, with: #""ti\u0074le""#).utf8)
        }
        return bytes
    }

    /// A value for a field of `type`: usually of that type, sometimes of another one.
    static func item(_ type: FieldType, _ random: inout SplitMix64) -> JSONValue {
        let wanted =
            Int.random(in: 0..<16, using: &random) > 0 ? type : FieldType.allCases.randomElement(using: &random)!
        switch wanted {
        case .text, .string:
            let words = ["heat", "noir", "caf\u{E9}", "a \"quoted\" word", "tab\there", "\u{1F3AC}"]
            return .string(Array(words.randomElement(using: &random)!.utf8))
        case .u64: return .number(JSONNumber(UInt64.random(in: 0...UInt64.max, using: &random)))
        case .i64: return .number(JSONNumber(Int64.random(in: -1_000...1_000, using: &random)))
        case .f64:
            return Bool.random(using: &random)
                ? .number(JSONNumber(Double(Int.random(in: -40...40, using: &random)) / 8))
                : .number(JSONNumber(Int64.random(in: -5...5, using: &random)))
        case .bool: return .bool(Bool.random(using: &random))
        case .date:
            let dates = ["1995-12-15T00:00:00Z", "2001-02-03T04:05:06.789+01:00", "yesterday", "2024-13-01T00:00:00Z"]
            return .string(Array(dates.randomElement(using: &random)!.utf8))
        }
    }

    /// One to three bytes replaced, inserted or removed, from JSON's own punctuation and a few bad bytes.
    static func damage(_ bytes: inout [UInt8], using random: inout SplitMix64) {
        let alphabet = Array(#"{}[],:"\ -.0en"#.utf8) + [0x00, 0xFF]
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let byte = alphabet[Int.random(in: alphabet.indices, using: &random)]
            let index = Int.random(in: bytes.indices, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: bytes[index] = byte
            case 1: bytes.insert(byte, at: index)
            default: if bytes.count > 1 { bytes.remove(at: index) }
            }
        }
    }

    /// The naive reference: the whole line parsed into a tree, then its members converted in order.
    static func reference(_ line: [UInt8]) -> Result<[(field: Int, value: PreparedDocument.Value)], IndexError> {
        let tree: JSONValue
        do {
            tree = try JSONParser.parse(line)
        } catch {
            return .failure(
                IndexError(
                    .invalidDocument, "malformed JSON: \(error.message)", context: .init(byteOffset: error.offset)))
        }
        guard case .object(let members) = tree else {
            return .failure(IndexError(.invalidDocument, "a document must be a JSON object"))
        }
        var values: [(field: Int, value: PreparedDocument.Value)] = []
        for member in members {
            let name = String(decoding: member.key, as: UTF8.self)
            guard let field = schema.fields.firstIndex(where: { $0.name == name }) else {
                return .failure(
                    IndexError(
                        .invalidDocument, "unknown field '\(name)' (not in the schema)", context: .init(field: name)))
            }
            let items: [JSONValue] =
                switch member.value {
                case .array(let items): items.filter { $0 != .null }
                case .null: []
                default: [member.value]
                }
            for item in items {
                switch convert(item, schema.fields[field]) {
                case .success(let value): values.append((field, value))
                case .failure(let error): return .failure(error)
                }
            }
        }
        // Grouped by field, each field's values in their order.
        return .success(
            values.enumerated().sorted { ($0.element.field, $0.offset) < ($1.element.field, $1.offset) }.map(\.element))
    }

    static func convert(_ value: JSONValue, _ entry: FieldEntry) -> Result<PreparedDocument.Value, IndexError> {
        func mismatch(_ what: String) -> Result<PreparedDocument.Value, IndexError> {
            .failure(
                IndexError(
                    .invalidDocument, "field '\(entry.name)': expected \(entry.type.rawValue), got \(what)",
                    context: .init(field: entry.name)))
        }
        switch (entry.type, value) {
        case (.text, .string(let s)), (.string, .string(let s)): return .success(.bytes(s))
        case (.u64, .number(let n)): return n.uint64.map { .success(.mapped($0)) } ?? mismatch("the number \(n.double)")
        case (.i64, .number(let n)):
            return n.int64.map { .success(.mapped(NumericMapping.fromI64($0))) } ?? mismatch("the number \(n.double)")
        case (.f64, .number(let n)): return .success(.mapped(NumericMapping.fromF64(n.double)))
        case (.bool, .bool(let b)): return .success(.mapped(b ? 1 : 0))
        case (.date, .string(let s)):
            guard let micros = RFC3339.parseMicros(s) else {
                return mismatch("\"\(String(decoding: s.prefix(40), as: UTF8.self))\" (not an RFC 3339 date)")
            }
            return .success(.mapped(NumericMapping.fromI64(micros)))
        case (_, .string): return mismatch("a string")
        case (_, .number): return mismatch("a number")
        case (_, .bool): return mismatch("a boolean")
        case (_, .object): return mismatch("an object")
        case (_, .array): return mismatch("a nested array")
        case (_, .null): return mismatch("null")
        }
    }
}
