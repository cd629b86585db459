import IdxKit
import Testing

@Suite struct StatsCommandTests {
    @Test func jsonShape() throws {
        // Each commit flushes its batch to a new segment: 2 + 2 + 1 documents.
        let folder = try Fixtures.indexedFolder(extraArguments: ["--commit-every", "2"])
        let run = IdxRun(["stats", folder.subpath("index"), "--json"])
        #expect(run.code == .success)
        #expect(run.err.isEmpty)
        #expect(run.out.hasPrefix(#"{"documents": 5, "deleted": 0, "max_doc": 5, "bytes": "#))
        #expect(run.out.hasSuffix(#""id_field":"id"}}"# + "\n"))

        let stats = try run.json()
        #expect(Set(stats.keys) == ["documents", "deleted", "max_doc", "bytes", "bytes_by_kind", "segments", "schema"])
        let schema = try #require(stats["schema"] as? [String: Any])
        #expect(schema["id_field"] as? String == "id")
        let kinds = try #require(stats["bytes_by_kind"] as? [String: Int])
        #expect(Set(kinds.keys) == ["terms", "postings", "positions", "norms", "store", "fast"])
        let segments = try #require(stats["segments"] as? [[String: Any]])
        #expect(segments.count == 3)
        #expect(segments.map { $0["documents"] as? Int } == [2, 2, 1])
        var bytes = 0
        for segment in segments {
            #expect(Set(segment.keys) == ["id", "documents", "deleted", "max_doc", "bytes", "bytes_by_kind"])
            let id = try #require(segment["id"] as? String)
            #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
            #expect(segment["deleted"] as? Int == 0)
            #expect(segment["max_doc"] as? Int == segment["documents"] as? Int)
            let segmentBytes = try #require(segment["bytes"] as? Int)
            #expect(segmentBytes > 0)
            bytes += segmentBytes
        }
        #expect(stats["bytes"] as? Int == bytes)
    }

    @Test func text() throws {
        let folder = try Fixtures.indexedFolder()
        let index = folder.subpath("index")
        let run = IdxRun(["stats", index])
        #expect(run.code == .success)
        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 10)
        #expect(lines[0] == "index      \(index)")
        #expect(lines[1] == "documents  5")
        #expect(lines[2] == "deleted    0")
        #expect(lines[3] == "max_doc    5")
        #expect(lines[4].hasPrefix("bytes      "))
        #expect(lines[5].hasPrefix("files      terms ") && lines[5].contains(", store "))
        #expect(lines[6] == "fields     6; default: title; id: id")
        #expect(lines[7] == "segments   1")
        #expect(lines[8].hasPrefix("  ") && lines[8].contains("  documents 5  deleted 0  max_doc 5  bytes "))
        #expect(lines[9].isEmpty)
    }

    @Test func noIndexIsAFailure() throws {
        let folder = try TemporaryFolder()
        let run = IdxRun(["stats", folder.subpath("missing")])
        #expect(run.code == .failure)
        #expect(run.err.hasPrefix("idx stats: no index at \(folder.subpath("missing")); create one with 'idx create "))
    }
}
