/// Parses and formats RFC 3339 timestamps as microseconds since the Unix epoch, without Foundation's
/// locale-aware formatters (which need ICU and are slow on the indexing path).
package enum RFC3339 {
    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `t`, `z` and a space separator are accepted too.
    /// Returns nil for anything else, including impossible dates such as February 30.
    package static func parseMicros(_ s: some Collection<UInt8>) -> Int64? {
        let b = Array(s)
        guard b.count >= 20 else { return nil }
        func digits(_ at: Int, _ n: Int) -> Int? {
            var v = 0
            for i in at..<(at + n) {
                guard i < b.count, b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                v = v * 10 + Int(b[i] - 0x30)
            }
            return v
        }
        guard let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2), b[7] == UInt8(ascii: "-"),
            let day = digits(8, 2), [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(b[10]),
            let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
            b[16] == UInt8(ascii: ":"), let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year, month), hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var micros = 0
        if b[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 100_000
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                micros += Int(b[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        guard i < b.count else { return nil }
        var offsetSeconds = 0
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard let oh = digits(i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"), let om = digits(i + 4, 2),
                oh < 24, om < 60
            else { return nil }
            offsetSeconds = (oh * 3600 + om * 60) * (b[i] == UInt8(ascii: "+") ? 1 : -1)
            i += 6
        default:
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Int64(seconds) * 1_000_000 + Int64(micros)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.ffffff]Z` in UTC; the fraction appears only when non-zero.
    package static func format(micros: Int64) -> String {
        let (secs, frac) = micros.quotientAndRemainder(dividingBy: 1_000_000)
        let (s, f) = frac < 0 ? (secs - 1, frac + 1_000_000) : (secs, frac)
        let (days, rem) = s.quotientAndRemainder(dividingBy: 86_400)
        let (d, r) = rem < 0 ? (days - 1, rem + 86_400) : (days, rem)
        let (y, m, dd) = civilFromDays(Int(d))
        func pad(_ v: Int, _ n: Int) -> String {
            let t = String(abs(v))
            return (v < 0 ? "-" : "") + String(repeating: "0", count: max(0, n - t.count)) + t
        }
        var out = "\(pad(y, 4))-\(pad(m, 2))-\(pad(dd, 2))T\(pad(Int(r / 3600), 2)):\(pad(Int(r % 3600 / 60), 2)):"
        out += pad(Int(r % 60), 2)
        if f != 0 { out += "." + pad(Int(f), 6) }
        return out + "Z"
    }

    private static func isLeap(_ y: Int) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }

    private static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms").
    private static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
