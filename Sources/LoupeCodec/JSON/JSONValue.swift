/// A parsed JSON value.
///
/// Strings and object keys stay as unescaped UTF-8 byte arrays so that ingestion never builds a
/// `String` per field; convert at the edge with ``stringValue`` when text is needed. The parser
/// guarantees that every byte array it produces is valid UTF-8.
package enum JSONValue: Sendable, Equatable {
    /// The literal `null`.
    case null
    /// The literal `true` or `false`.
    case bool(Bool)
    /// A number, classified as integer or double by its literal (see ``JSONNumber``).
    case number(JSONNumber)
    /// A string, unescaped, as UTF-8 bytes.
    case string([UInt8])
    /// An array, in document order.
    case array([JSONValue])
    /// An object's members in document order. Duplicate keys are kept so that callers can reject
    /// them with their own error; lookups by key see the first one.
    case object([JSONMember])
}

/// One `"key": value` pair of a JSON object.
package struct JSONMember: Sendable, Equatable {
    /// The unescaped key, as UTF-8 bytes.
    package var key: [UInt8]
    /// The member's value.
    package var value: JSONValue

    /// Creates a member from an unescaped UTF-8 key and a value.
    package init(key: [UInt8], value: JSONValue) {
        self.key = key
        self.value = value
    }

    /// Creates a member whose key is the UTF-8 encoding of `key`.
    package init(_ key: String, _ value: JSONValue) {
        self.key = Array(key.utf8)
        self.value = value
    }
}
