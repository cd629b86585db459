import Foundation
import IdxKit
import Testing

/// An output stream that keeps what it is given, standing in for stdout or stderr.
final class CapturedOutput: Output {
    private(set) var text = ""
    let isTerminal: Bool

    init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    func write(_ text: String) { self.text += text }
}

/// What one in-process `idx` invocation did.
struct IdxRun {
    let code: ExitCode
    let out: String
    let err: String

    /// Runs `idx` with `arguments` (without the program name); `-` reads `input`.
    init(_ arguments: [String], input: Int32 = 0) {
        let out = CapturedOutput()
        let err = CapturedOutput()
        code = Idx.run(arguments, input: input, stdout: out, stderr: err)
        self.out = out.text
        self.err = err.text
    }

    /// The text of `--json` output, parsed.
    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(out.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(out)")
    }
}

/// A fresh folder under the system's temporary folder, deleted when the test is done with it.
final class TemporaryFolder {
    let path: String

    /// A folder in `parent`, the system's temporary folder by default.
    init(in parent: URL = FileManager.default.temporaryDirectory) throws {
        path = parent.appendingPathComponent("idx-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to a file in the folder and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    /// The path of `name` in the folder, which need not exist.
    func subpath(_ name: String) -> String { path + "/" + name }
}
