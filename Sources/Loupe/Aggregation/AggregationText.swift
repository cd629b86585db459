/// Text forms tantivy's responses use, reproduced byte for byte: Rust's `Display` of an `f64` (range keys,
/// keyed histogram and percentile names) and the `time` crate's RFC 3339 of a nanosecond timestamp.
package enum AggregationText {
    /// Rust's `format!("{}", value)`: the shortest digits that read back exactly, never an exponent, no
    /// trailing `.0` (`1990`, `2.5`, `0.0000001`, `1000000000000000000000`, `-0`, `NaN`, `inf`).
    package static func rustDisplay(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        var text = value.magnitude.description
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var digits = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        var point = digits.count + exponent
        digits += fraction
        while digits.count > 1, digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        let sign = value.sign == .minus ? "-" : ""
        if digits.isEmpty { return sign + "0" }
        if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
        if point >= digits.count { return sign + digits + String(repeating: "0", count: point - digits.count) }
        let split = digits.index(digits.startIndex, offsetBy: point)
        return sign + digits[..<split] + "." + digits[split...]
    }

    /// A percentile's name in a keyed response: Rust's `Display`, with `.0` added when it has no point (`"99.0"`,
    /// `"99.9"`).
    package static func percentileName(_ percent: Double) -> String {
        let text = rustDisplay(percent)
        return text.contains(".") ? text : text + ".0"
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` of nanoseconds since the epoch, the fraction with its trailing zeros
    /// dropped (`.5`, `.000999936`), as the `time` crate writes RFC 3339.
    package static func rfc3339(nanoseconds: Int64) -> String {
        let (seconds, remainder) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        let (wholeSeconds, nanos) = remainder < 0 ? (seconds - 1, remainder + 1_000_000_000) : (seconds, remainder)
        var text = RFC3339.format(micros: wholeSeconds * 1_000_000)
        guard nanos != 0 else { return text }
        var fraction = String(nanos)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        text.removeLast()
        return text + "." + fraction + "Z"
    }
}
