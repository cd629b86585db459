/// A JSON number, classified by how its literal was written.
///
/// A literal with no fraction and no exponent is an *integer* when it fits `Int64` or `UInt64`
/// exactly; every other literal (`1.5`, `1e3`, `90.0`, or an integer too large for 64 bits) is a
/// *double*, correctly rounded. The classification is kept so that a schema can tell `3` from
/// `3.0`, and so that writing a parsed value back produces the same kind of literal. (`-0` is
/// the integer 0; `-0.0` keeps its sign.)
package struct JSONNumber: Sendable, Equatable {
    @usableFromInline
    enum Storage: Sendable, Equatable {
        /// Any integer literal in `Int64.min...Int64.max`.
        case signed(Int64)
        /// An integer literal in `Int64.max + 1 ... UInt64.max`; smaller ones are always `signed`,
        /// which keeps equality a plain comparison of storage.
        case unsigned(UInt64)
        case double(Double)
    }

    @usableFromInline
    var storage: Storage

    /// Creates an integer number.
    package init(_ value: Int64) {
        storage = .signed(value)
    }

    /// Creates an integer number.
    package init(_ value: UInt64) {
        storage = value <= UInt64(Int64.max) ? .signed(Int64(value)) : .unsigned(value)
    }

    /// Creates a non-integer number. A non-finite value has no JSON spelling; ``JSONWriter``
    /// writes it as `null`.
    package init(_ value: Double) {
        storage = .double(value)
    }

    /// Whether the literal was an integer that fits `Int64` or `UInt64`.
    package var isInteger: Bool {
        switch storage {
        case .signed, .unsigned: true
        case .double: false
        }
    }

    /// The value of an integer literal in `Int64`'s range; `nil` for doubles, even integral ones.
    package var int64: Int64? {
        switch storage {
        case .signed(let value): value
        case .unsigned, .double: nil
        }
    }

    /// The value of a non-negative integer literal; `nil` for negative integers and doubles.
    package var uint64: UInt64? {
        switch storage {
        case .signed(let value): value >= 0 ? UInt64(value) : nil
        case .unsigned(let value): value
        case .double: nil
        }
    }

    /// The value as a `Double`: exact for doubles, rounded to nearest for integers beyond 2^53.
    package var double: Double {
        switch storage {
        case .signed(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .double(let value): value
        }
    }
}

extension JSONNumber: CustomStringConvertible {
    /// The number as ``JSONWriter`` spells it.
    package var description: String {
        var bytes: [UInt8] = []
        JSONWriter.appendNumber(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
