/// Serializes ``JSONValue``s, and the scalars they are made of, as RFC 8259 JSON in UTF-8.
///
/// Output is deterministic: members keep their order, numbers keep the classification they
/// were parsed with, and strings escape only what RFC 8259 requires (`"`, `\` and control
/// characters), so `JSONParser.parse` of the output returns an equal value.
package enum JSONWriter {
    /// Appends `value` to `out`.
    ///
    /// - Parameters:
    ///   - pretty: two-space indentation with one element or member per line and `": "` after
    ///     keys; otherwise no whitespace at all (one JSONL line per value).
    /// - Complexity: O(*n*) in the size of the output.
    package static func write(_ value: JSONValue, into out: inout [UInt8], pretty: Bool = false) {
        write(value, depth: 0, pretty: pretty, into: &out)
    }

    private static func write(_ value: JSONValue, depth: Int, pretty: Bool, into out: inout [UInt8]) {
        switch value {
        case .null:
            appendNull(to: &out)
        case .bool(let bool):
            appendBool(bool, to: &out)
        case .number(let number):
            appendNumber(number, to: &out)
        case .string(let utf8):
            appendString(utf8, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { appendLineBreak(depth: depth + 1, to: &out) }
                write(element, depth: depth + 1, pretty: pretty, into: &out)
            }
            if pretty, !elements.isEmpty { appendLineBreak(depth: depth, to: &out) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { appendLineBreak(depth: depth + 1, to: &out) }
                appendString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                write(member.value, depth: depth + 1, pretty: pretty, into: &out)
            }
            if pretty, !members.isEmpty { appendLineBreak(depth: depth, to: &out) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func appendLineBreak(depth: Int, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// Appends `null`.
    package static func appendNull(to out: inout [UInt8]) {
        out.append(contentsOf: "null".utf8)
    }

    /// Appends `true` or `false`.
    package static func appendBool(_ value: Bool, to out: inout [UInt8]) {
        out.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }
}
