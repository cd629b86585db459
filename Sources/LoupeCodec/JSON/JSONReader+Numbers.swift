extension JSONReader {
    /// Exact powers of ten: every one up to 10^22 is representable in a `Double`, which is what
    /// makes Clinger's fast path exact.
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Reads `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` starting at `position`.
    mutating func parseNumber() throws(JSONError) -> JSONNumber {
        let start = position
        let isNegative = peek() == UInt8(ascii: "-")
        if isNegative { position += 1 }

        var significand: UInt64 = 0
        var overflowed = false
        switch peek() {
        case UInt8(ascii: "0"):
            position += 1
            if let next = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
                throw failure("leading zeros are not allowed in numbers", at: position - 1)
            }
        case .some(UInt8(ascii: "1")...UInt8(ascii: "9")):
            accumulateDigits(into: &significand, overflowed: &overflowed)
        default:
            throw failure("expected a digit after '-', found \(describeByte(at: position))")
        }

        var isInteger = true
        var decimalExponent = 0
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            let fractionStart = position
            accumulateDigits(into: &significand, overflowed: &overflowed)
            guard position > fractionStart else {
                throw failure("expected a digit after '.', found \(describeByte(at: position))")
            }
            decimalExponent = fractionStart - position
        }
        if let marker = peek(), marker | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            decimalExponent += try readExponent()
        }

        if isInteger, !overflowed {
            if let integer = Self.integer(magnitude: significand, isNegative: isNegative) { return integer }
            return try slowDouble(startingAt: start)
        }
        if !overflowed, let magnitude = Self.exactDouble(significand: significand, decimalExponent: decimalExponent) {
            return JSONNumber(isNegative ? -magnitude : magnitude)
        }
        return try slowDouble(startingAt: start)
    }

    /// Appends decimal digits at `position` to `significand`; once it would exceed `UInt64`, only
    /// sets `overflowed` and skips the rest (the slow path rereads the literal).
    @inline(__always)
    mutating func accumulateDigits(into significand: inout UInt64, overflowed: inout Bool) {
        while position < end {
            let digit = unsafe bytes[position] &- UInt8(ascii: "0")
            guard digit < 10 else { return }
            let (scaled, scaleOverflow) = significand.multipliedReportingOverflow(by: 10)
            let (sum, sumOverflow) = scaled.addingReportingOverflow(UInt64(digit))
            if scaleOverflow || sumOverflow {
                overflowed = true
            } else {
                significand = sum
            }
            position += 1
        }
    }

    /// Reads `[+-]? [0-9]+` after an `e`. The magnitude saturates far beyond any exponent a
    /// `Double` can use, so a thousand-digit exponent cannot overflow `Int`.
    mutating func readExponent() throws(JSONError) -> Int {
        var isNegative = false
        switch peek() {
        case UInt8(ascii: "-"):
            isNegative = true
            position += 1
        case UInt8(ascii: "+"):
            position += 1
        default:
            break
        }
        let digitsStart = position
        var magnitude = 0
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            magnitude = min(magnitude * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
            position += 1
        }
        guard position > digitsStart else {
            throw failure("expected a digit in the exponent, found \(describeByte(at: position))")
        }
        return isNegative ? -magnitude : magnitude
    }

    /// The integer with this sign and magnitude, or `nil` when it fits neither `Int64` nor `UInt64`.
    static func integer(magnitude: UInt64, isNegative: Bool) -> JSONNumber? {
        guard isNegative else { return JSONNumber(magnitude) }
        if magnitude <= UInt64(Int64.max) { return JSONNumber(-Int64(magnitude)) }
        if magnitude == UInt64(Int64.max) + 1 { return JSONNumber(Int64.min) }
        return nil
    }

    /// `significand × 10^decimalExponent` when both factors are exact doubles, so that one IEEE
    /// multiplication or division rounds correctly (W. D. Clinger, "How to Read Floating Point
    /// Numbers Accurately", PLDI 1990); `nil` otherwise.
    static func exactDouble(significand: UInt64, decimalExponent: Int) -> Double? {
        if significand == 0 { return 0 }
        guard significand <= 1 << 53, (-22...22).contains(decimalExponent) else { return nil }
        let value = Double(significand)
        return decimalExponent < 0
            ? value / exactPowersOfTen[-decimalExponent]
            : value * exactPowersOfTen[decimalExponent]
    }

    /// Converts the literal from `start` to `position` with the C library's correctly rounded
    /// `strtod`; only reached for long significands or large exponents.
    @inline(never)
    func slowDouble(startingAt start: Int) throws(JSONError) -> JSONNumber {
        let text = unsafe String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw failure("number is too large for a 64-bit double", at: start)
        }
        return JSONNumber(value)
    }
}
