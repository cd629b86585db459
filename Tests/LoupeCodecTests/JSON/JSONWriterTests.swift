import LoupeCodec
import Testing

@Suite("JSONWriter")
struct JSONWriterTests {
    private func written(_ append: (inout [UInt8]) -> Void) -> String {
        var out: [UInt8] = []
        append(&out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func escapesOnlyWhatRFC8259Requires() {
        let text = "quote\" backslash\\ slash/ \u{8}\u{C}\n\r\t \u{0}\u{1F}\u{7F} é😀"
        #expect(
            written { JSONWriter.appendString(text.utf8, to: &$0) }
                == #""quote\" backslash\\ slash/ \b\f\n\r\t \u0000\u001f"# + "\u{7F} é😀\"")
        #expect(written { JSONWriter.appendString([UInt8](), to: &$0) } == #""""#)
    }

    @Test func acceptsNonContiguousCollections() {
        let reversed = "ba\"".utf8.reversed()
        #expect(written { JSONWriter.appendString(reversed, to: &$0) } == #""\"ab""#)
    }

    @Test func writesIntegers() {
        #expect(written { JSONWriter.appendNumber(Int64(0), to: &$0) } == "0")
        #expect(written { JSONWriter.appendNumber(Int64(-7), to: &$0) } == "-7")
        #expect(written { JSONWriter.appendNumber(Int64.min, to: &$0) } == "-9223372036854775808")
        #expect(written { JSONWriter.appendNumber(Int64.max, to: &$0) } == "9223372036854775807")
        #expect(written { JSONWriter.appendNumber(UInt64.max, to: &$0) } == "18446744073709551615")
        #expect(written { JSONWriter.appendNumber(UInt64(10), to: &$0) } == "10")
    }

    @Test func writesDoublesAsShortestRoundTripText() {
        #expect(written { JSONWriter.appendNumber(90.0, to: &$0) } == "90.0")
        #expect(written { JSONWriter.appendNumber(0.1, to: &$0) } == "0.1")
        #expect(written { JSONWriter.appendNumber(-0.0, to: &$0) } == "-0.0")
        #expect(written { JSONWriter.appendNumber(1e-7, to: &$0) } == "1e-07")
        #expect(written { JSONWriter.appendNumber(1e300, to: &$0) } == "1e+300")
        #expect(written { JSONWriter.appendNumber(Double.nan, to: &$0) } == "null")
        #expect(written { JSONWriter.appendNumber(-Double.infinity, to: &$0) } == "null")
        #expect(JSONNumber(2.5).description == "2.5")
        #expect(JSONNumber(Int64(3)).description == "3")
    }

    @Test func writesLiterals() {
        #expect(written { JSONWriter.appendBool(true, to: &$0) } == "true")
        #expect(written { JSONWriter.appendBool(false, to: &$0) } == "false")
        #expect(written { JSONWriter.appendNull(to: &$0) } == "null")
    }

    @Test func writesCompactDocuments() {
        let document: JSONValue = ["id": "a\"b", "tags": ["x", 1, 2.5, true, .null], "empty": [:], "none": []]
        #expect(
            String(decoding: jsonText(document), as: UTF8.self)
                == #"{"id":"a\"b","tags":["x",1,2.5,true,null],"empty":{},"none":[]}"#)
    }

    @Test func writesPrettyDocuments() {
        let document: JSONValue = ["a": [1, ["b": .null]], "c": [], "d": [:]]
        let expected = """
            {
              "a": [
                1,
                {
                  "b": null
                }
              ],
              "c": [],
              "d": {}
            }
            """
        #expect(String(decoding: jsonText(document, pretty: true), as: UTF8.self) == expected)
    }

    @Test func appendsToExistingOutput() {
        var out = Array("prefix ".utf8)
        JSONWriter.write([1, 2], into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "prefix [1,2]")
    }
}
