#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One line of `Fixtures/tantivy-goldens.tsv` (see `Fixtures/make_goldens.py`).
struct TantivyGolden: CustomStringConvertible {
    enum Status: String {
        /// tantivy builds a query; the skeletons say which.
        case ok
        /// tantivy's grammar rejects the query.
        case syntax
        /// tantivy's grammar accepts the query but its query parser rejects it.
        case error
    }

    var line: Int
    var query: String
    var status: Status
    /// The skeleton (or error message) with `should` as the default occurrence.
    var disjunction: String
    /// The same with `conjunction_by_default`.
    var conjunction: String

    var description: String { "line \(line): \(String(reflecting: query))" }

    /// All goldens, read from the fixture beside this test target.
    static func load() throws -> [TantivyGolden] {
        let text = try FixtureFile.read("tantivy-goldens.tsv")
        var goldens: [TantivyGolden] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map { unescape($0) }
            guard columns.count == 4, let status = Status(rawValue: columns[1]) else {
                throw FixtureFile.Failure(message: "malformed golden at line \(index + 1): \(line)")
            }
            goldens.append(
                TantivyGolden(
                    line: index + 1,
                    query: columns[0],
                    status: status,
                    disjunction: columns[2],
                    conjunction: columns[3]
                )
            )
        }
        return goldens
    }

    /// Undoes make_goldens.py's `\\`, `\t`, `\n`, `\r` escapes.
    private static func unescape(_ text: Substring) -> String {
        var result = ""
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                switch scalar {
                case "t": result.unicodeScalars.append("\t")
                case "n": result.unicodeScalars.append("\n")
                case "r": result.unicodeScalars.append("\r")
                default: result.unicodeScalars.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// Reads fixtures from `Tests/LoupeQueryGrammarTests/Fixtures`, found from this file's path.
enum FixtureFile {
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    static func read(_ name: String) throws -> String {
        let thisFile = #filePath
        let supportDirectory = thisFile[..<(thisFile.lastIndex(of: "/") ?? thisFile.endIndex)]
        let testsDirectory = supportDirectory[..<(supportDirectory.lastIndex(of: "/") ?? supportDirectory.endIndex)]
        let path = testsDirectory + "/Fixtures/" + name
        guard let file = unsafe fopen(path, "rb") else {
            throw Failure(message: "cannot open \(path)")
        }
        defer { _ = unsafe fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = unsafe fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
