import Foundation
import Loupe
import TestSupport
import Testing

/// Indexes written by earlier format versions must keep opening and answering the same way. Each version has a
/// committed fixture (`Fixtures/v<N>`: the first 300 movies of the bundled corpus, two segments); with
/// `LOUPE_WRITE_FIXTURES=1` a missing fixture for the current version is written instead.
@Suite struct FormatCompatibilityTests {
    /// The fixture of this build's formats (term dictionary, norms, store and fast fields at version 2, the other
    /// files at 1). Fixtures before v3 were written when string fields could not be fast.
    static let current = 3
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

    @Test(arguments: 1...current)
    func fixtureOpensAndAnswers(version: Int) throws {
        let path = Self.path(version)
        if !FileManager.default.fileExists(atPath: path + "/meta.json") {
            try #require(
                version == Self.current && ProcessInfo.processInfo.environment["LOUPE_WRITE_FIXTURES"] == "1",
                "fixture v\(version) is missing")
            try Self.writeFixture(at: path)
        }
        // Open a copy: opening for writing would take the lock file inside the fixture folder.
        let copy = TemporaryDirectory()
        for name in try FileManager.default.contentsOfDirectory(atPath: path) where !name.hasPrefix(".") {
            try FileManager.default.copyItem(atPath: path + "/" + name, toPath: copy.path + "/" + name)
        }
        let index = try Index(path: copy.path)
        let stringsFast = index.schema.fields.contains { $0.type == .string && $0.fast }
        #expect(stringsFast == (version >= 3))
        #expect(index.schema.fields.map(\.name) == MoviesFixture.schema.fields.map(\.name))
        #expect(index.documentCount == 300)
        #expect(index.searcher().segmentCount == 2)
        let fresh = try Index.inMemory(schema: index.schema)
        let writer = try fresh.writer()
        for line in MoviesFixture.lines.prefix(300) { try writer.addJSON(line) }
        try writer.commitAndReload()
        for text in [
            "love", "the man", "\"the man\"", "genres:Drama -title:love", "+john +smith", "year:1999",
            "year:[1990 TO 1999]",
            "title:lov*", "title:lvoe~1", "\"the ma\"*",
        ] {
            for counting in [CountPolicy.exact, .hitsOnly] {
                let old = try index.search(
                    index.parseQuery(text, options: .init(lenient: true)), limit: 20, counting: counting)
                let new = try fresh.search(
                    fresh.parseQuery(text, options: .init(lenient: true)), limit: 20, counting: counting)
                #expect(old.hits == new.hits, "v\(version): \(text)")
                #expect(counting != .exact || old.totalCount == new.totalCount, "v\(version): \(text)")
            }
            #expect(
                try index.count(index.parseQuery(text, options: .init(lenient: true)))
                    == fresh.count(fresh.parseQuery(text, options: .init(lenient: true))))
            for order in [SearchOrder.descending("year"), .ascending("runtime_min")]
                + (stringsFast ? [.ascending("mpaa_rating")] : [])
            {
                let old = try index.search(
                    index.parseQuery(text, options: .init(lenient: true)), limit: 20, orderBy: order)
                let new = try fresh.search(
                    fresh.parseQuery(text, options: .init(lenient: true)), limit: 20, orderBy: order)
                #expect(old.hits.map(\.document) == new.hits.map(\.document), "v\(version): \(text) by \(order)")
            }
        }
        for field in ["year", "oscars"] + (stringsFast ? ["genres", "mpaa_rating"] : []) {
            #expect(
                try index.termCounts(field, limit: 50) == fresh.termCounts(field, limit: 50), "v\(version): \(field)")
        }
    }

    /// Segments with v1 stores (deflate, the fixture's) and a segment with this build's (LZ4) merge into one LZ4
    /// store: the merger copies compressed blocks only in the current format and re-compresses the v1 ones, with
    /// or without deleted documents among them.
    @Test(arguments: [false, true])
    func v1AndCurrentStoresMergeIntoTheCurrentFormat(withDeletes: Bool) throws {
        let copy = TemporaryDirectory()
        let path = Self.path(1)
        for name in try FileManager.default.contentsOfDirectory(atPath: path) where !name.hasPrefix(".") {
            try FileManager.default.copyItem(atPath: path + "/" + name, toPath: copy.path + "/" + name)
        }
        let index = try Index(path: copy.path)
        let writer = try index.writer()
        writer.mergePolicy = .never
        let lines = Array(MoviesFixture.lines.prefix(400))
        for line in lines[300...] { try writer.addJSON(line) }
        let ids = lines.map { line -> String in
            let start = try! #require(line.range(of: "\"id\":\""))
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
        let deleted = withDeletes ? Set(stride(from: 5, to: 400, by: 37).map { ids[$0] }) : []
        for id in deleted { try writer.deleteDocuments(field: "id", equals: .text(id)) }
        try writer.commitAndReload()
        #expect(index.searcher().segments.map(\.store.codec) == [.deflate, .deflate, .lz4])
        try writer.merge()
        try index.reload()
        let merged = index.searcher().segments
        #expect(merged.count == 1 && merged.first?.store.codec == .lz4)
        #expect(index.verify { Issue.record("\($0)") } == 0)

        let fresh = try Index.inMemory(schema: MoviesFixture.schema)
        let freshWriter = try fresh.writer()
        for (line, id) in zip(lines, ids) where !deleted.contains(id) { try freshWriter.addJSON(line) }
        try freshWriter.commitAndReload()
        #expect(index.documentCount == 400 - deleted.count)
        for id in ids {
            let stored = try index.get("id", equals: .text(id))
            #expect(stored == (deleted.contains(id) ? nil : try fresh.get("id", equals: .text(id))), "\(id)")
        }
    }
}
