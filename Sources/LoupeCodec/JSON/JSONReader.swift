/// The state of one parse: a cursor into the input plus the stacks of containers still open.
///
/// Only the `JSONReader` files touch raw memory, and every read is preceded by a check against
/// `end`, so no input can make the reader leave its buffer.
@safe
struct JSONReader {
    /// An array or object whose closing bracket has not been read yet.
    struct OpenContainer {
        var isObject: Bool
        /// Index of the container's first child in `pendingElements` or `pendingMembers`.
        var firstChild: Int
    }

    let bytes: UnsafeRawBufferPointer
    /// `bytes.count`, kept apart so that bounds checks do not touch the unsafe buffer.
    let end: Int
    let maxDepth: Int
    var position = 0
    var openContainers: [OpenContainer] = []
    /// Elements of all open arrays, innermost array's last.
    var pendingElements: [JSONValue] = []
    /// Members of all open objects. A member is pushed with a `null` placeholder when its key is
    /// read and filled in when its value completes.
    var pendingMembers: [JSONMember] = []
    /// Scratch space for strings that contain escapes; reused across strings.
    var unescaped: [UInt8] = []

    init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        unsafe self.bytes = bytes
        self.end = bytes.count
        self.maxDepth = maxDepth
    }

    /// The byte at `position`, or `nil` at the end of input.
    @inline(__always)
    func peek() -> UInt8? {
        position < end ? unsafe bytes[position] : nil
    }

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        // Enough for a typical JSONL document without regrowing; deeper or wider ones grow as usual.
        openContainers.reserveCapacity(8)
        pendingElements.reserveCapacity(16)
        pendingMembers.reserveCapacity(16)
        let value = try parseValue()
        skipWhitespace()
        guard position == end else {
            throw failure("expected end of input after the JSON value, found \(describeByte(at: position))")
        }
        return value
    }

    /// Parses one complete value, opening and closing containers iteratively.
    mutating func parseValue() throws(JSONError) -> JSONValue {
        nextValue: while true {
            var value: JSONValue
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: "{"):
                try openContainer(isObject: true)
                skipWhitespace()
                guard peek() == UInt8(ascii: "}") else {
                    try beginMember()
                    continue nextValue
                }
                position += 1
                value = closeObject()
            case UInt8(ascii: "["):
                try openContainer(isObject: false)
                skipWhitespace()
                guard peek() == UInt8(ascii: "]") else { continue nextValue }
                position += 1
                value = closeArray()
            default:
                value = try parseScalar()
            }
            // `value` is complete: hand it to the innermost open container, closing every container
            // that ends right after it.
            while let container = openContainers.last {
                skipWhitespace()
                if container.isObject {
                    pendingMembers[pendingMembers.count - 1].value = value
                    switch peek() {
                    case UInt8(ascii: ","):
                        position += 1
                        try beginMember()
                        continue nextValue
                    case UInt8(ascii: "}"):
                        position += 1
                        value = closeObject()
                    default:
                        throw failure("expected ',' or '}' after object member, found \(describeByte(at: position))")
                    }
                } else {
                    pendingElements.append(value)
                    switch peek() {
                    case UInt8(ascii: ","):
                        position += 1
                        continue nextValue
                    case UInt8(ascii: "]"):
                        position += 1
                        value = closeArray()
                    default:
                        throw failure("expected ',' or ']' after array element, found \(describeByte(at: position))")
                    }
                }
            }
            return value
        }
    }

    mutating func parseScalar() throws(JSONError) -> JSONValue {
        switch peek() {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "-"), .some(UInt8(ascii: "0")...UInt8(ascii: "9")):
            return .number(try parseNumber())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default:
            throw failure("expected a JSON value, found \(describeByte(at: position))")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let start = position
        for expected in literal.description.utf8 {
            guard peek() == expected else {
                throw failure("expected '\(literal)' at byte \(start), found \(describeByte(at: position))")
            }
            position += 1
        }
    }

    mutating func openContainer(isObject: Bool) throws(JSONError) {
        guard openContainers.count < maxDepth else {
            throw failure("nesting deeper than \(maxDepth) arrays and objects")
        }
        let firstChild = isObject ? pendingMembers.count : pendingElements.count
        openContainers.append(OpenContainer(isObject: isObject, firstChild: firstChild))
        position += 1
    }

    /// Reads `"key" :` and pushes a member awaiting its value.
    mutating func beginMember() throws(JSONError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else {
            throw failure("expected '\"' to begin an object key, found \(describeByte(at: position))")
        }
        let key = try parseString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else {
            throw failure("expected ':' after object key, found \(describeByte(at: position))")
        }
        position += 1
        pendingMembers.append(JSONMember(key: key, value: .null))
    }

    mutating func closeObject() -> JSONValue {
        let start = openContainers.removeLast().firstChild
        let members = Array(pendingMembers[start...])
        pendingMembers.removeSubrange(start...)
        return .object(members)
    }

    mutating func closeArray() -> JSONValue {
        let start = openContainers.removeLast().firstChild
        let elements = Array(pendingElements[start...])
        pendingElements.removeSubrange(start...)
        return .array(elements)
    }

    mutating func skipWhitespace() {
        while position < end {
            switch unsafe bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                position += 1
            default:
                return
            }
        }
    }

    /// An error at the current position.
    @inline(never)
    func failure(_ message: String) -> JSONError {
        JSONError(offset: position, message: message)
    }

    /// An error at `offset`.
    @inline(never)
    func failure(_ message: String, at offset: Int) -> JSONError {
        JSONError(offset: offset, message: message)
    }

    /// How an error message names the byte at `offset`: `'x'` when printable ASCII, else its hex.
    @inline(never)
    func describeByte(at offset: Int) -> String {
        guard offset < end else { return "end of input" }
        let byte = unsafe bytes[offset]
        guard (0x20..<0x7F).contains(byte) else { return "byte \(Self.hex(byte))" }
        return "'\(Character(Unicode.Scalar(byte)))'"
    }

    /// `byte` as two-digit hex with a `0x` prefix, for error messages.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0x0\(digits)" : "0x\(digits)"
    }
}
