import Foundation
import IdxKit
import Testing

@Suite struct MaintenanceCommandTests {
    @Test func deleteOptimizeAndGarbageCollect() throws {
        // Each commit flushes its batch to a new segment: 2 + 2 + 1 documents.
        let folder = try Fixtures.indexedFolder(extraArguments: ["--commit-every", "2"])
        let index = folder.subpath("index")

        let deleted = IdxRun(["delete", index, "title:heat"])
        #expect(deleted.code == .success, "\(deleted.err)")
        #expect(deleted.out == "deleted 2 documents\n")
        #expect(IdxRun(["search", index, "heat", "--count"]).out == "0\n")
        let json = try IdxRun(["delete", index, "title:godfather", "--json"]).json()
        #expect(json["deleted"] as? Int == 1)

        let stats = try IdxRun(["stats", index, "--json"]).json()
        #expect(stats["documents"] as? Int == 2)

        let optimized = try IdxRun(["optimize", index, "--json"]).json()
        let after = try #require(optimized["after"] as? [String: Any])
        #expect(after["segments"] as? Int == 1 && after["documents"] as? Int == 2 && after["deleted"] as? Int == 0)
        #expect(IdxRun(["search", index, "*", "--count"]).out == "2\n")

        let orphan = index + "/0123456789abcdef0123456789abcdef.terms"
        try Data(repeating: 1, count: 64).write(to: URL(fileURLWithPath: orphan))
        let dry = IdxRun(["gc", index, "--dry-run"])
        #expect(dry.out == "0123456789abcdef0123456789abcdef.terms\n1 file, would reclaim 64 bytes\n")
        #expect(FileManager.default.fileExists(atPath: orphan))
        let gc = IdxRun(["gc", index])
        #expect(gc.out.hasSuffix("1 file, reclaimed 64 bytes\n"))
        #expect(!FileManager.default.fileExists(atPath: orphan))
    }

    @Test func deleteReportsQueryErrorsWithAPointer() throws {
        let folder = try Fixtures.indexedFolder()
        let run = IdxRun(["delete", folder.subpath("index"), "titel:heat"])
        #expect(run.code == .failure)
        #expect(run.err.contains("did you mean 'title'"))
        #expect(run.err.contains("\n  titel:heat\n  ^"))
    }

    @Test func checkPassesASoundIndexAndListsDamage() throws {
        let folder = try Fixtures.indexedFolder()
        let index = folder.subpath("index")
        let sound = IdxRun(["check", index])
        #expect(sound.code == .success, "\(sound.err)")
        #expect(sound.out == "ok: 1 segment, 5 documents checked\n")

        let postings = try #require(
            try FileManager.default.contentsOfDirectory(atPath: index).first { $0.hasSuffix(".postings") })
        let path = index + "/" + postings
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[0] ^= 0x5A
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let damaged = IdxRun(["check", index])
        #expect(damaged.code == .failure)
        #expect(damaged.out.contains("problem: ") && damaged.out.contains(postings))
        #expect(damaged.err.contains("found in \(index)"))
        let json = IdxRun(["check", index, "--json"])
        let last = try #require(json.out.split(separator: "\n").last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect((summary["problems"] as? Int ?? 0) >= 1)
    }

    @Test func checkNamesADamagedCommitPointAndRecoverRestoresThePreviousCommit() throws {
        // Commits of 2, 2 and 1 documents: the previous commit holds 4.
        let folder = try Fixtures.indexedFolder(extraArguments: ["--commit-every", "2"])
        let index = folder.subpath("index")
        let meta = index + "/meta.json"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: meta)))
        bytes[bytes.count / 3] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: meta))

        let check = IdxRun(["check", index])
        #expect(check.code == .failure)
        #expect(check.err.contains("meta.json fails its checksum") && check.err.contains("idx recover"), "\(check.err)")
        let recovered = IdxRun(["recover", index])
        #expect(recovered.code == .success, "\(recovered.err)")
        #expect(recovered.out == "restored the previous commit: 2 segments, 4 documents\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: index + "/meta.damaged.json")) == Data(bytes))
        #expect(IdxRun(["check", index]).out == "ok: 2 segments, 4 documents checked\n")

        let again = IdxRun(["recover", index, "--json"])
        #expect(again.code == .success, "recovering twice restores the same commit: \(again.err)")
        #expect(try again.json()["documents"] as? Int == 4)
    }

    @Test func inspectShowsFieldsPerSegment() throws {
        let folder = try Fixtures.indexedFolder(extraArguments: ["--commit-every", "2"])
        let index = folder.subpath("index")
        let text = IdxRun(["inspect", index])
        #expect(text.code == .success, "\(text.err)")
        #expect(text.out.split(separator: "\n").filter { $0.hasPrefix("segment ") }.count == 3)
        #expect(text.out.contains("  field "))
        let json = try IdxRun(["inspect", index, "--json"]).json()
        let segments = try #require(json["segments"] as? [[String: Any]])
        #expect(segments.count == 3)
        let fields = try #require(segments[0]["fields"] as? [[String: Any]])
        let title = try #require(fields.first { $0["name"] as? String == "title" })
        #expect(
            (title["terms"] as? Int ?? 0) > 0 && (title["postings_bytes"] as? Int ?? 0) > 0
                && (title["positions_bytes"] as? Int ?? 0) > 0)
        let year = try #require(fields.first { $0["name"] as? String == "year" })
        #expect((year["fast_bytes"] as? Int ?? 0) > 0 && year["positions_bytes"] as? Int == 0)
        #expect(year["fast_layout"] as? String == "u64 full bitpacked (2 values)")
        let genres = try #require(fields.first { $0["name"] as? String == "genres" })
        #expect((genres["fast_layout"] as? String)?.hasPrefix("bytes multi ") == true)
        #expect(text.out.contains("bytes multi "))
        let id = try #require(segments[0]["id"] as? String)
        let one = try IdxRun(["inspect", index, "--segment", String(id.prefix(8)), "--json"]).json()
        #expect((one["segments"] as? [Any])?.count == 1)
        #expect(IdxRun(["inspect", index, "--segment", "zz"]).code == .failure)
    }
}
