import Foundation
import Loupe
import LoupeCodec

/// Paths of the fixtures committed in the repository, found from this file's location.
public enum FixturePaths {
    /// The repository root.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static let moviesDirectory = root + "/Benchmarks/corpora/movies"
    public static let moviesCorpus = moviesDirectory + "/movies.jsonl.gz"
    public static let moviesSchema = moviesDirectory + "/schema.json"
    public static let loupeTestFixtures = root + "/Tests/LoupeTests/Fixtures"
}

/// A temporary folder removed when the value is dropped.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "loupe-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The bundled movies corpus, indexed once per test process (a single segment, like tantivy with one thread).
public enum MoviesFixture {
    public static let schema: Schema = {
        let text = try! String(contentsOfFile: FixturePaths.moviesSchema, encoding: .utf8)
        return try! Schema(json: text)
    }()

    /// Every line of the corpus, in file order.
    public static let lines: [String] = {
        let reader = try! LineReader(path: FixturePaths.moviesCorpus)
        var lines: [String] = []
        while let line = try! reader.nextLine() {
            lines.append(String(decoding: line, as: UTF8.self))
        }
        return lines
    }()

    public static let index: Index = {
        let index = try! Index.inMemory(schema: schema)
        let writer = try! index.writer(memoryBudget: 500_000_000)
        for line in lines { try! writer.addJSON(line) }
        try! writer.commitAndReload()
        return index
    }()
}
