import Foundation
import Loupe
import Testing
import TestSupport

/// Indexes written by earlier format versions must keep opening and answering the same way. Each version has a
/// committed fixture (`Fixtures/v<N>`: the first 300 movies of the bundled corpus, two segments); with
/// `LOUPE_WRITE_FIXTURES=1` a missing fixture for the current version is written instead.
@Suite struct FormatCompatibilityTests {
    static let current = 1
    static func path(_ version: Int) -> String { FixturePaths.loupeTestFixtures + "/v\(version)" }

    static func writeFixture(at path: String) throws {
        let index = try Index(path: path, schema: MoviesFixture.schema)
        let writer = try index.writer()
        for (i, line) in MoviesFixture.lines.prefix(300).enumerated() {
            try writer.addJSON(line)
            if i == 149 { try writer.commit() }
        }
        try writer.commit()
    }

    @Test func currentVersionFixtureOpensAndAnswers() throws {
        let path = Self.path(Self.current)
        if !FileManager.default.fileExists(atPath: path + "/meta.json") {
            try #require(ProcessInfo.processInfo.environment["LOUPE_WRITE_FIXTURES"] == "1", "fixture v\(Self.current) is missing")
            try Self.writeFixture(at: path)
        }
        // Open a copy: opening for writing would take the lock file inside the fixture folder.
        let copy = TemporaryDirectory()
        for name in try FileManager.default.contentsOfDirectory(atPath: path) where !name.hasPrefix(".") {
            try FileManager.default.copyItem(atPath: path + "/" + name, toPath: copy.path + "/" + name)
        }
        let index = try Index(path: copy.path)
        #expect(index.schema == MoviesFixture.schema)
        #expect(index.documentCount == 300)
        #expect(index.searcher().segmentCount == 2)
        let fresh = Index.inMemory(schema: MoviesFixture.schema)
        let writer = try fresh.writer()
        for line in MoviesFixture.lines.prefix(300) { try writer.addJSON(line) }
        try writer.commitAndReload()
        for text in ["love", "the man", "\"the man\"", "genres:Drama -title:love", "+john +smith", "year:1999"] {
            let old = try index.search(index.parseQuery(text), limit: 20)
            let new = try fresh.search(fresh.parseQuery(text), limit: 20)
            #expect(old == new, "\(text)")
        }
    }
}
