extension JSONWriter {
    /// Appends `utf8` as a quoted JSON string.
    ///
    /// Escapes `"`, `\` and the control characters below 0x20 (as `\n`, `\t`, … or `\u00XX`);
    /// every other byte is copied as is, in runs, so the input should be valid UTF-8 for the
    /// output to be valid JSON.
    /// - Complexity: O(*n*) in `utf8.count`.
    package static func appendString(_ utf8: some Collection<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let copied: Void? = utf8.withContiguousStorageIfAvailable { buffer in
            unsafe appendEscaped(buffer, to: &out)
        }
        if copied == nil {
            let contiguous = Array(utf8)
            unsafe contiguous.withUnsafeBufferPointer { buffer in unsafe appendEscaped(buffer, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var runStart = 0
        for index in 0..<bytes.count {
            let byte = unsafe bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            unsafe out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            appendEscape(for: byte, to: &out)
            runStart = index + 1
        }
        unsafe out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    private static func appendEscape(for byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            // Only control characters get here, so the high nibble is 0 or 1.
            out.append(contentsOf: "u00".utf8)
            out.append(UInt8(ascii: "0") + byte >> 4)
            let low = byte & 0xF
            out.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10)
        }
    }

    /// Appends `number` as it was classified: an integer literal, or a double in the shortest
    /// form that reads back exactly.
    package static func appendNumber(_ number: JSONNumber, to out: inout [UInt8]) {
        switch number.storage {
        case .signed(let value): appendNumber(value, to: &out)
        case .unsigned(let value): appendNumber(value, to: &out)
        case .double(let value): appendNumber(value, to: &out)
        }
    }

    /// Appends an integer in decimal.
    package static func appendNumber(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude, to: &out)
    }

    /// Appends an integer in decimal.
    package static func appendNumber(_ value: UInt64, to out: inout [UInt8]) {
        appendDecimal(value, to: &out)
    }

    /// Appends the shortest text that reads back as exactly `value` (Swift's `description`),
    /// which always has a fraction or an exponent — `90.0`, `1e-07` — so the number stays a
    /// double when parsed again. JSON has no spelling for NaN or infinities; they are written as
    /// `null`, as JavaScript's `JSON.stringify` does.
    package static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else { return appendNull(to: &out) }
        out.append(contentsOf: value.description.utf8)
    }

    private static func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
        var digitCount = 1
        var rest = value / 10
        while rest > 0 {
            digitCount += 1
            rest /= 10
        }
        let end = out.count + digitCount
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digitCount))
        var remaining = value
        for index in stride(from: end - 1, through: end - digitCount, by: -1) {
            out[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
    }
}
