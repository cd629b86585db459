import Foundation
import LoupeAnalysis

/// Reads the golden files next to this source file and decodes their escapes.
enum Fixtures {
    /// `Tests/LoupeAnalysisTests/Fixtures/`, found from this file's path so tests run from any directory.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures"
    )

    /// The lines of fixture `name`, without `#` comment lines.
    static func lines(_ name: String) throws -> [Substring] {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.isEmpty && !$0.hasPrefix("#")
        }
    }

    /// Undoes `make_goldens.py`'s `escape`: `\\`, `\t`, `\n`, `\r` and `\u{hex}`.
    static func unescape(_ text: Substring) -> String {
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\", let escaped = scalars.next() else {
                result.append(scalar)
                continue
            }
            switch escaped {
            case "t": result.append("\t")
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "u":
                _ = scalars.next() // "{"
                var hex = ""
                while let digit = scalars.next(), digit != "}" {
                    hex.unicodeScalars.append(digit)
                }
                result.append(Unicode.Scalar(UInt32(hex, radix: 16) ?? 0xFFFD) ?? "\u{FFFD}")
            default: result.append(escaped)
            }
        }
        return String(result)
    }
}

/// Helpers shared by the suites.
extension TextAnalyzer {
    /// `tokens(text)` as `text@position` strings, compact in expectations.
    func terms(_ text: String) -> [String] {
        tokens(text).map { "\($0.text)@\($0.position)" }
    }
}

/// The built-in analyzer registered as `name`; the suites only ask for names that exist.
func builtIn(_ name: String) -> TextAnalyzer {
    guard let analyzer = AnalyzerRegistry.builtIn.analyzer(named: name) else {
        preconditionFailure("no built-in analyzer named \(name)")
    }
    return analyzer
}
