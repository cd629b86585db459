import LoupeCodec
import Testing

/// A document the parser must accept, and the value it must produce.
struct AcceptedJSON: Sendable, CustomTestStringConvertible {
    var text: String
    var expected: JSONValue
    var testDescription: String { text.debugDescription }

    init(_ text: String, _ expected: JSONValue) {
        self.text = text
        self.expected = expected
    }
}

/// A document the parser must reject, where, and with which words in the message.
struct RejectedJSON: Sendable, CustomTestStringConvertible {
    var bytes: [UInt8]
    var offset: Int
    var messageFragment: String
    var testDescription: String { String(decoding: bytes, as: UTF8.self).debugDescription }

    init(_ text: String, at offset: Int, _ messageFragment: String) {
        self.init(bytes: Array(text.utf8), at: offset, messageFragment)
    }

    init(bytes: [UInt8], at offset: Int, _ messageFragment: String) {
        self.bytes = bytes
        self.offset = offset
        self.messageFragment = messageFragment
    }
}

private func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite("JSONParser")
struct JSONParserTests {
    static let accepted: [AcceptedJSON] = [
        AcceptedJSON("null", .null),
        AcceptedJSON(" \t\r\ntrue\n", true),
        AcceptedJSON("false", false),
        AcceptedJSON("0", 0),
        AcceptedJSON("-0", 0),
        AcceptedJSON("-1", -1),
        AcceptedJSON("9223372036854775807", .number(JSONNumber(Int64.max))),
        AcceptedJSON("-9223372036854775808", .number(JSONNumber(Int64.min))),
        AcceptedJSON("9223372036854775808", .number(JSONNumber(UInt64(Int64.max) + 1))),
        AcceptedJSON("18446744073709551615", .number(JSONNumber(UInt64.max))),
        AcceptedJSON("18446744073709551616", .number(JSONNumber(18446744073709551616.0))),
        AcceptedJSON("-9223372036854775809", .number(JSONNumber(-9223372036854775809.0))),
        AcceptedJSON("123456789012345678901234567890", .number(JSONNumber(1.2345678901234568e29))),
        AcceptedJSON("1.5", 1.5),
        AcceptedJSON("90.0", 90.0),
        AcceptedJSON("1e2", 100.0),
        AcceptedJSON("1E+2", 100.0),
        AcceptedJSON("-2.5e-3", -0.0025),
        AcceptedJSON("0.1", 0.1),
        AcceptedJSON("0.30000000000000004", 0.30000000000000004),
        AcceptedJSON("9007199254740993", .number(JSONNumber(Int64(9_007_199_254_740_993)))),
        AcceptedJSON("9007199254740993.0", 9007199254740992.0),
        AcceptedJSON("1.7976931348623157e308", .number(JSONNumber(Double.greatestFiniteMagnitude))),
        AcceptedJSON("5e-324", .number(JSONNumber(Double.leastNonzeroMagnitude))),
        // The largest subnormal; its neighbourhood once sent strtod implementations into loops.
        AcceptedJSON("2.2250738585072011e-308", .number(JSONNumber(Double(bitPattern: 0x000F_FFFF_FFFF_FFFF)))),
        AcceptedJSON("1e-400", 0.0),
        AcceptedJSON("0e99999999999999999999", 0.0),
        AcceptedJSON(#""""#, ""),
        AcceptedJSON(#""abc""#, "abc"),
        AcceptedJSON(#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        AcceptedJSON(#""\u0041\u00e9\u20AC""#, "Aé€"),
        AcceptedJSON(#""\ud83d\ude00""#, "😀"),
        AcceptedJSON(#""\u0000""#, "\u{0}"),
        AcceptedJSON("\"é€😀 raw\"", "é€😀 raw"),
        AcceptedJSON(
            #""a long run of plain text before an escape\n and after it""#,
            "a long run of plain text before an escape\n and after it"),
        // U+FEFF inside a string is content (Foundation drops it; see `matchesFoundation`).
        AcceptedJSON("\"\u{FEFF}x\\n\u{FEFF}\"", "\u{FEFF}x\n\u{FEFF}"),
        AcceptedJSON("[]", []),
        AcceptedJSON("{}", [:]),
        AcceptedJSON("[ 1 , [ 2 , [ 3 ] ] , { } ]", [1, [2, [3]], [:]]),
        AcceptedJSON(#"{"a":1,"b":[true,null],"c":{"d":"e"}}"#, ["a": 1, "b": [true, .null], "c": ["d": "e"]]),
        AcceptedJSON(#"{"k":1,"k":2}"#, ["k": 1, "k": 2]),
        AcceptedJSON(#"{"\u006b":"v"}"#, ["k": "v"]),
    ]

    @Test(arguments: accepted)
    func acceptsValidDocument(_ example: AcceptedJSON) throws {
        #expect(try JSONParser.parse(example.text) == example.expected)
        #expect(try JSONParser.parse(utf8(example.text)) == example.expected)
    }

    static let rejected: [RejectedJSON] = [
        RejectedJSON("", at: 0, "expected a JSON value, found end of input"),
        RejectedJSON("   ", at: 3, "expected a JSON value"),
        RejectedJSON("[1,]", at: 3, "expected a JSON value, found ']'"),
        RejectedJSON("[1,,2]", at: 3, "expected a JSON value, found ','"),
        RejectedJSON(#"{"a":1,}"#, at: 7, #"expected '"' to begin an object key, found '}'"#),
        RejectedJSON("{,}", at: 1, "to begin an object key"),
        RejectedJSON("{1:2}", at: 1, "to begin an object key"),
        RejectedJSON(#"{"a" 1}"#, at: 5, "expected ':' after object key, found '1'"),
        RejectedJSON(#"{"a":1 "b":2}"#, at: 7, "expected ',' or '}' after object member, found '\"'"),
        RejectedJSON("[1 2]", at: 3, "expected ',' or ']' after array element"),
        RejectedJSON("[1", at: 2, "expected ',' or ']' after array element, found end of input"),
        RejectedJSON(#"{"a":1"#, at: 6, "expected ',' or '}' after object member"),
        RejectedJSON("[1] x", at: 4, "expected end of input after the JSON value, found 'x'"),
        RejectedJSON("1 2", at: 2, "expected end of input"),
        RejectedJSON("01", at: 0, "leading zeros"),
        RejectedJSON("-01", at: 1, "leading zeros"),
        RejectedJSON("-", at: 1, "expected a digit after '-'"),
        RejectedJSON("-a", at: 1, "expected a digit after '-', found 'a'"),
        RejectedJSON("1.", at: 2, "expected a digit after '.'"),
        RejectedJSON("1.e3", at: 2, "expected a digit after '.'"),
        RejectedJSON("1e", at: 2, "expected a digit in the exponent"),
        RejectedJSON("1e+", at: 3, "expected a digit in the exponent"),
        RejectedJSON(".5", at: 0, "expected a JSON value, found '.'"),
        RejectedJSON("+1", at: 0, "expected a JSON value"),
        RejectedJSON("1e400", at: 0, "too large"),
        RejectedJSON("-1e400", at: 0, "too large"),
        RejectedJSON("NaN", at: 0, "expected a JSON value, found 'N'"),
        RejectedJSON("Infinity", at: 0, "expected a JSON value"),
        RejectedJSON("-Infinity", at: 1, "expected a digit after '-'"),
        RejectedJSON("'a'", at: 0, "expected a JSON value, found '''"),
        RejectedJSON("nul", at: 3, "expected 'null'"),
        RejectedJSON("trux", at: 3, "expected 'true' at byte 0, found 'x'"),
        RejectedJSON("fals", at: 4, "expected 'false'"),
        RejectedJSON("True", at: 0, "expected a JSON value"),
        RejectedJSON("// comment\n1", at: 0, "expected a JSON value, found '/'"),
        RejectedJSON("\u{FEFF}1", at: 0, "found byte 0xEF"),
        RejectedJSON(#""abc"#, at: 4, "expected '\"' to close the string opened at byte 0, found end of input"),
        RejectedJSON(#"["abc\"#, at: 6, "expected an escape character after '\\'"),
        RejectedJSON("\"a\nb\"", at: 2, "unescaped control character 0x0A in string"),
        RejectedJSON("\"0123456789abcdef\tx\"", at: 17, "unescaped control character 0x09"),
        RejectedJSON("\"\u{7F}\u{1F}\"", at: 2, "unescaped control character 0x1F"),
        RejectedJSON(#""\x""#, at: 2, "invalid escape"),
        RejectedJSON(#""\U0041""#, at: 2, "invalid escape"),
        RejectedJSON(#""\u12""#, at: 5, "expected 4 hex digits after '\\u', found '\"'"),
        RejectedJSON(#""\u12G4""#, at: 5, "expected 4 hex digits"),
        RejectedJSON(#""\ud800""#, at: 1, "unpaired high surrogate"),
        RejectedJSON(#""\ud800x""#, at: 1, "unpaired high surrogate"),
        RejectedJSON(#""\ud800\u0041""#, at: 7, "non-low-surrogate"),
        RejectedJSON(#""\ud800\ud800""#, at: 7, "non-low-surrogate"),
        RejectedJSON(#""\udc00""#, at: 1, "unpaired low surrogate"),
        RejectedJSON(bytes: [0x22, 0xC3, 0x22], at: 1, "invalid UTF-8 sequence starting with byte 0xC3"),
        RejectedJSON(bytes: [0x22, 0xC3], at: 1, "invalid UTF-8"),
        RejectedJSON(bytes: [0x22, 0xC0, 0x80, 0x22], at: 1, "invalid UTF-8"),
        RejectedJSON(bytes: [0x22, 0xE0, 0x80, 0x80, 0x22], at: 1, "invalid UTF-8"),
        RejectedJSON(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], at: 1, "invalid UTF-8"),
        RejectedJSON(bytes: [0x22, 0xF0, 0x80, 0x80, 0x80, 0x22], at: 1, "invalid UTF-8"),
        RejectedJSON(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], at: 1, "invalid UTF-8"),
        RejectedJSON(bytes: [0x22, 0xE2, 0x82, 0x41, 0x22], at: 1, "invalid UTF-8"),
        RejectedJSON(bytes: [0x22, 0x80, 0x22], at: 1, "invalid UTF-8"),
        RejectedJSON(bytes: [0x22, 0xFF, 0x22], at: 1, "invalid UTF-8"),
        RejectedJSON(bytes: utf8("\"0123456789abcdef") + [0xF8, 0x22], at: 17, "invalid UTF-8"),
        RejectedJSON(bytes: [0x5B, 0x00, 0x5D], at: 1, "found byte 0x00"),
    ]

    @Test(arguments: rejected)
    func rejectsInvalidDocument(_ example: RejectedJSON) {
        let error = #expect(throws: JSONError.self) { try JSONParser.parse(example.bytes) }
        #expect(error?.offset == example.offset)
        #expect(error?.message.contains(example.messageFragment) == true, "\(String(describing: error))")
    }

    @Test func reportsMessageAndOffsetTogether() {
        #expect(throws: JSONError(offset: 7, message: "expected ',' or '}' after object member, found '\"'")) {
            try JSONParser.parse(#"{"a":1 "b":2}"#)
        }
        let error = JSONError(offset: 3, message: "expected a JSON value, found ']'")
        #expect(error.description == "expected a JSON value, found ']' at byte 3")
    }

    @Test(arguments: [1, 2, 255, 256])
    func acceptsNestingUpToTheLimit(depth: Int) throws {
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let objects = String(repeating: #"{"k":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(try JSONParser.parse(arrays).arrayValue != nil)
        #expect(try JSONParser.parse(objects)["k"] != nil)
    }

    @Test func rejectsNestingBeyondTheLimit() {
        #expect(throws: JSONError(offset: 7, message: "nesting deeper than 3 arrays and objects")) {
            try JSONParser.parse(utf8("[[{\"a\":[]}]]"), maxDepth: 3)
        }
        // Far deeper than any call stack could recurse: the reader must not recurse.
        let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(throws: JSONError.self) { try JSONParser.parse(hostile) }
        #expect(throws: JSONError.self) { try JSONParser.parse(hostile, maxDepth: .max) }
    }

    @Test func classifiesNumbersByLiteral() throws {
        let integer = try #require(try JSONParser.parse("42").numberValue)
        #expect(integer.isInteger && integer.int64 == 42 && integer.uint64 == 42 && integer.double == 42)
        let negative = try #require(try JSONParser.parse("-42").numberValue)
        #expect(negative.int64 == -42 && negative.uint64 == nil)
        let large = try #require(try JSONParser.parse("18446744073709551615").numberValue)
        #expect(large.isInteger && large.int64 == nil && large.uint64 == .max)
        let integral = try #require(try JSONParser.parse("42.0").numberValue)
        #expect(!integral.isInteger && integral.int64 == nil && integral.double == 42)
        let negativeZero = try #require(try JSONParser.parse("-0.0").numberValue)
        #expect(negativeZero.double.sign == .minus)
    }

    @Test func readsAJSONLDocument() throws {
        let line = #"{"id":"gcide:1","headwords":["1","one"],"body":"1 \\1\\ adj.\n  one","body_chars":172}"#
        let document = try JSONParser.parse(line)
        #expect(document["id"]?.stringValue == "gcide:1")
        #expect(document["headwords"]?.arrayValue?.compactMap(\.stringValue) == ["1", "one"])
        #expect(document["body"]?.stringValue == "1 \\1\\ adj.\n  one")
        #expect(document["body_chars"]?.uint64Value == 172)
        #expect(document["missing"] == nil)
        #expect(document["headwords"]?[1]?.stringValue == "one")
        #expect(document["headwords"]?[2] == nil)
        #expect(document.members?.map(\.key) == [utf8("id"), utf8("headwords"), utf8("body"), utf8("body_chars")])
    }

    @Test func readsLongStringsWithEscapesAndMultibyteText() throws {
        // Longer than the scratch buffer's initial reservation, so it must grow mid-string.
        let line = "plain ASCII, é, 漢字, 😀 and a \"quote\"\n"
        let text = String(repeating: line, count: 3_000)
        var document: [UInt8] = []
        JSONWriter.appendString(text.utf8, to: &document)
        #expect(try JSONParser.parse(document) == .string(Array(text.utf8)))
    }

    @Test func readsFromARawBufferSlice() throws {
        let bytes = utf8(#"xx{"a":[1,2]}yy"#)
        let value = try bytes.withUnsafeBytes { raw in
            try JSONParser.parse(UnsafeRawBufferPointer(rebasing: raw[2..<13]))
        }
        #expect(value == ["a": [1, 2]])
    }
}
