extension RegexParser {
    /// What an escape sequence stands for.
    enum Escape {
        case scalar(UInt32)
        case set(ScalarSet)
    }

    /// An escape sequence, the cursor at `\`. Valid both outside and inside classes.
    mutating func parseEscape() throws(RegexSyntaxError) -> Escape {
        let start = position
        position += 1
        guard let scalar = current else {
            throw error("incomplete escape sequence, reached end of pattern prematurely", at: start)
        }
        position += 1
        switch scalar {
        case "a": return .scalar(0x07)
        case "f": return .scalar(0x0C)
        case "t": return .scalar(0x09)
        case "n": return .scalar(0x0A)
        case "r": return .scalar(0x0D)
        case "v": return .scalar(0x0B)
        case "x": return .scalar(try parseHex(fixedDigits: 2))
        case "u": return .scalar(try parseHex(fixedDigits: 4))
        case "U": return .scalar(try parseHex(fixedDigits: 8))
        case "d", "s", "w", "D", "S", "W":
            guard let set = Self.perlClass(scalar) else { break }
            return .set(set)
        case "p", "P":
            throw error("Unicode property classes (\\p, \\P) are not supported", at: start)
        case "0"..."9":
            throw error("backreferences are not supported", at: start)
        case "b", "B", "A", "z", "<", ">":
            throw error("assertions (\\b, \\B, \\A, \\z, \\<, \\>) are not supported (terms match whole)", at: start)
        default:
            if scalar.isASCII, !Self.isASCIIAlphanumeric(scalar) { return .scalar(scalar.value) }
        }
        throw error("unrecognized escape sequence", at: start)
    }

    /// `\d`, `\s`, `\w` and their negations, with ASCII meaning.
    static func perlClass(_ letter: Unicode.Scalar) -> ScalarSet? {
        switch letter {
        case "d": posixClass("digit")
        case "s": posixClass("space")
        case "w": posixClass("word")
        case "D": posixClass("digit")?.complement()
        case "S": posixClass("space")?.complement()
        case "W": posixClass("word")?.complement()
        default: nil
        }
    }

    /// The ASCII classes of `[[:name:]]` (the same set as Rust's `regex`).
    static func posixClass(_ name: String) -> ScalarSet? {
        let ranges: [ClosedRange<UInt32>]
        switch name {
        case "alnum": ranges = [0x30...0x39, 0x41...0x5A, 0x61...0x7A]
        case "alpha": ranges = [0x41...0x5A, 0x61...0x7A]
        case "ascii": ranges = [0x00...0x7F]
        case "blank": ranges = [0x09...0x09, 0x20...0x20]
        case "cntrl": ranges = [0x00...0x1F, 0x7F...0x7F]
        case "digit": ranges = [0x30...0x39]
        case "graph": ranges = [0x21...0x7E]
        case "lower": ranges = [0x61...0x7A]
        case "print": ranges = [0x20...0x7E]
        case "punct": ranges = [0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E]
        case "space": ranges = [0x09...0x0D, 0x20...0x20]
        case "upper": ranges = [0x41...0x5A]
        case "word": ranges = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
        case "xdigit": ranges = [0x30...0x39, 0x41...0x46, 0x61...0x66]
        default: return nil
        }
        return ScalarSet(ranges: ranges)
    }

    private static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// The digits of `\x7F`, `\u00E9`, `\U0001F600` (exactly `fixedDigits`) or `\x{1F600}` (1 to 8), the
    /// cursor just past the letter.
    private mutating func parseHex(fixedDigits: Int) throws(RegexSyntaxError) -> UInt32 {
        let braced = current == "{"
        if braced { position += 1 }
        let start = position
        var value: UInt32 = 0
        var digits = 0
        while braced ? current != "}" : digits < fixedDigits {
            guard let scalar = current else {
                throw error("incomplete escape sequence, reached end of pattern prematurely", at: position)
            }
            guard let digit = Self.hexValue(scalar) else { throw error("invalid hexadecimal digit", at: position) }
            // Saturate past the largest scalar instead of overflowing (leading zeros stay harmless).
            value = value > ScalarSet.maximum ? value : value << 4 | digit
            digits += 1
            position += 1
        }
        if braced {
            guard digits > 0 else { throw error("hexadecimal literal empty", at: start) }
            position += 1
        }
        guard value <= ScalarSet.maximum, !ScalarSet.surrogates.contains(value) else {
            throw error("hexadecimal literal is not a Unicode scalar value", at: start)
        }
        return value
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 0x30
        case "a"..."f": scalar.value - 0x61 + 10
        case "A"..."F": scalar.value - 0x41 + 10
        default: nil
        }
    }
}
