extension JSONValue {
    /// The value of the first member named `key`, or `nil` if there is none or this is not an
    /// object.
    /// - Complexity: O(*n*) in the number of members; objects here are small documents and configs.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key.elementsEqual(key.utf8) }?.value
    }

    /// The element at `index`, or `nil` if it is out of bounds or this is not an array.
    package subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// Whether this is `null`.
    package var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// The Boolean, if this is `true` or `false`.
    package var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The number, if this is one.
    package var numberValue: JSONNumber? {
        if case .number(let value) = self { value } else { nil }
    }

    /// The value of an integer literal within `Int64`'s range (see ``JSONNumber/int64``).
    package var int64Value: Int64? {
        numberValue?.int64
    }

    /// The value of a non-negative integer literal (see ``JSONNumber/uint64``).
    package var uint64Value: UInt64? {
        numberValue?.uint64
    }

    /// Any number as a `Double`, whether written as an integer or not.
    package var doubleValue: Double? {
        numberValue?.double
    }

    /// The string's unescaped UTF-8 bytes, if this is a string.
    package var utf8Value: [UInt8]? {
        if case .string(let utf8) = self { utf8 } else { nil }
    }

    /// The string as a `String`, if this is a string. Allocates; prefer ``utf8Value`` per document.
    package var stringValue: String? {
        utf8Value.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The elements, if this is an array.
    package var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The members in document order, duplicates included, if this is an object.
    package var members: [JSONMember]? {
        if case .object(let members) = self { members } else { nil }
    }
}

extension JSONValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A Boolean value: `let flag: JSONValue = true`.
    package init(booleanLiteral value: Bool) {
        self = .bool(value)
    }

    /// An integer number: `let count: JSONValue = 3`.
    package init(integerLiteral value: Int64) {
        self = .number(JSONNumber(value))
    }

    /// A double number: `let ratio: JSONValue = 0.5`.
    package init(floatLiteral value: Double) {
        self = .number(JSONNumber(value))
    }

    /// A string: `let name: JSONValue = "title"`.
    package init(stringLiteral value: String) {
        self = .string(Array(value.utf8))
    }

    /// An array: `let tags: JSONValue = ["a", 1, true]`.
    package init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }

    /// An object whose members keep the literal's order, duplicates included:
    /// `let doc: JSONValue = ["id": "1", "n": 2]`.
    package init(dictionaryLiteral members: (String, JSONValue)...) {
        self = .object(members.map { JSONMember($0.0, $0.1) })
    }
}
