import Foundation
import Loupe
import LoupeCodec
import TestSupport
import Testing

/// The v1 fixture's term dictionaries and norms (format v1) answer every query kind that reads them as an index
/// written today does, and merging its segments rewrites them in the current formats.
@Suite struct TermsAndNormsCompatibilityTests {
    static let queries = [
        "love", "title:lov*", "title:lvoe~1", "people:jonh~1", "title:/l.ve.*/", "people:/(john|jack)s?/", "title:m?n",
        "genres:Drama", "year:1999", "year:[1990 TO 1999]", "title:[a TO c]", "\"the man\"",
    ]

    private func fixtureCopy() throws -> TemporaryDirectory {
        let path = FixturePaths.loupeTestFixtures + "/v1"
        let copy = TemporaryDirectory()
        for name in try FileManager.default.contentsOfDirectory(atPath: path) where !name.hasPrefix(".") {
            try FileManager.default.copyItem(atPath: path + "/" + name, toPath: copy.path + "/" + name)
        }
        return copy
    }

    /// The footer versions of the `.terms` and `.norms` files of the index's live segments.
    private func versions(_ index: Index, at path: String) throws -> Set<UInt32> {
        var found = Set<UInt32>()
        for segment in index.searcher().segmentInfos {
            for kind in ["terms", "norms"] {
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(path)/\(segment.id).\(kind)")))
                found.insert(try bytes.withUnsafeBytes { try Footer.read($0).formatVersion })
            }
        }
        return found
    }

    @Test func v1DictionariesAndNormsAnswerAndMergeIntoTheCurrentFormats() throws {
        let copy = try fixtureCopy()
        let old = try Index(path: copy.path)
        #expect(try versions(old, at: copy.path) == [1])
        let fresh = try Index.inMemory(schema: MoviesFixture.schema)
        let writer = try fresh.writer()
        for line in MoviesFixture.lines.prefix(300) { try writer.addJSON(line) }
        try writer.commitAndReload()
        func expectSameAnswers(_ stage: String) throws {
            for text in Self.queries {
                let a = try old.search(old.parseQuery(text), limit: 20)
                let b = try fresh.search(fresh.parseQuery(text), limit: 20)
                #expect(a == b, "\(stage): \(text)")
            }
        }
        try expectSameAnswers("v1 segments")
        try old.optimize()
        #expect(old.searcher().segmentCount == 1)
        #expect(try versions(old, at: copy.path) == [SegmentComponent.terms.formatVersion])
        #expect(SegmentComponent.fieldNorms.formatVersion == SegmentComponent.terms.formatVersion)
        try expectSameAnswers("merged")
    }
}
