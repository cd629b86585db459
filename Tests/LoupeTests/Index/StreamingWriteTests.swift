import Foundation
import Loupe
import TestSupport
import Testing

/// Segment files are streamed as they are produced (issue #13): the bytes are those of the format as committed in
/// the fixtures, and a write failing mid-file, in a flush or in a merge, leaves the last commit as it was.
@Suite struct StreamingWriteTests {
    /// Segment ids of a commit, in commit order, read from its meta.json.
    private static func segmentIDs(_ directory: any Directory) throws -> [String] {
        let meta = try JSONSerialization.jsonObject(with: Data(directory.contents("meta.json")))
        let segments = try #require((meta as? [String: Any])?["segments"] as? [[String: Any]])
        return segments.compactMap { $0["id"] as? String }
    }

    /// The v3 fixture (the first 300 movies, committed after 150 and 300) written again through the streaming
    /// serializer, with 4 KiB buffers so every file crosses many buffer drains: every file is byte for byte the
    /// committed one.
    @Test func flushedSegmentsAreByteIdenticalToTheCommittedFixture() throws {
        let fixture = try MmapDirectory(
            path: FormatCompatibilityTests.path(FormatCompatibilityTests.current), create: false)
        let directory = FaultyDirectory()
        let index = try Index(directory: directory, schema: MoviesFixture.schema, verifyChecksums: true)
        let writer = try index.writer()
        for (i, line) in MoviesFixture.lines.prefix(300).enumerated() {
            try writer.addJSON(line)
            if i == 149 { try writer.commit() }
        }
        try writer.commit()
        let expected = try Self.segmentIDs(fixture)
        let written = try Self.segmentIDs(directory)
        try #require(expected.count == 2 && written.count == 2)
        for (old, new) in zip(expected, written) {
            for ext in ["terms", "postings", "positions", "norms", "store", "fast"] {
                let a = try fixture.contents("\(old).\(ext)")
                let b = try directory.contents("\(new).\(ext)")
                #expect(a.count == b.count && a == b, "\(ext): \(b.count) bytes written, \(a.count) in the fixture")
            }
        }
    }

    /// A merge streamed through 4 KiB buffers writes the same files as through the standard buffer.
    @Test func mergedSegmentsDoNotDependOnTheBufferSize() throws {
        var files: [[String: [UInt8]]] = []
        for directory in [FaultyDirectory(), RAMDirectory()] as [any Directory] {
            let index = try Index(directory: directory, schema: MoviesFixture.schema, verifyChecksums: true)
            let writer = try index.writer()
            writer.mergePolicy = .never
            for (i, line) in MoviesFixture.lines.prefix(400).enumerated() {
                try writer.addJSON(line)
                if i % 100 == 99 { try writer.commit() }
            }
            try writer.deleteDocuments(matching: .term("id", "tt0111161"))
            try writer.merge()
            let id = try #require(try Self.segmentIDs(directory).first)
            var byExtension: [String: [UInt8]] = [:]
            for ext in ["terms", "postings", "positions", "norms", "store", "fast"] {
                byExtension[ext] = try directory.contents("\(id).\(ext)")
            }
            files.append(byExtension)
        }
        #expect(files[0] == files[1])
    }

    /// What a search of the committed index answers, to compare before and after a failure.
    private static func answers(_ index: Index) throws -> [SearchResults] {
        try ["love", "war OR peace", "\"the dark\"", "night"].map { try index.search($0, limit: 20) }
    }

    private static func addMovies(_ writer: IndexWriter, _ range: Range<Int>) throws {
        for line in MoviesFixture.lines[range] { try writer.addJSON(line) }
    }

    @Test(arguments: ["postings", "terms", "store", "fast"])
    func aFlushFailingMidFileLeavesTheLastCommitIntact(file: String) throws {
        let disk = TemporaryDirectory()
        let directory = FaultyDirectory(wrapping: try MmapDirectory(path: disk.path, create: true))
        let index = try Index(directory: directory, schema: MoviesFixture.schema, verifyChecksums: true)
        let writer = try index.writer()
        try Self.addMovies(writer, 0..<200)
        try writer.commitAndReload()
        let before = try Self.answers(index)

        try Self.addMovies(writer, 200..<400)
        directory.fail(filesEndingWith: "." + file, afterBytes: 5_000)
        do {
            try writer.commit()
            Issue.record("the commit must report the failed write")
        } catch {
            #expect(error.code == .io, "\(error)")
            #expect(error.message.contains(file), "\(error)")
        }
        #expect(directory.midFileFailures == 1, "the write failed after 5,000 bytes of the file")
        directory.fail(filesEndingWith: nil)
        #expect(try directory.list().allSatisfy { !$0.hasSuffix(".tmp") }, "the temporary file is removed")

        let reopened = try Index(directory: directory, schema: nil, verifyChecksums: true)
        #expect(reopened.documentCount == 200)
        #expect(try Self.answers(reopened) == before)

        try writer.rollback()
        try Self.addMovies(writer, 200..<400)
        try writer.commitAndReload()
        #expect(index.documentCount == 400)
        #expect(try Index(directory: directory, schema: nil, verifyChecksums: true).documentCount == 400)
    }

    @Test(arguments: ["postings", "positions", "store", "fast"])
    func aMergeFailingMidFileLeavesTheLastCommitIntact(file: String) throws {
        let disk = TemporaryDirectory()
        let directory = FaultyDirectory(wrapping: try MmapDirectory(path: disk.path, create: true))
        let index = try Index(directory: directory, schema: MoviesFixture.schema, verifyChecksums: true)
        let writer = try index.writer()
        writer.mergePolicy = .never
        for start in stride(from: 0, to: 400, by: 100) {
            try Self.addMovies(writer, start..<(start + 100))
            try writer.commit()
        }
        try index.reload()
        let before = try Self.answers(index)
        let segments = try Self.segmentIDs(directory)

        directory.fail(filesEndingWith: "." + file, afterBytes: 5_000)
        do {
            try writer.merge()
            Issue.record("the merge must report the failed write")
        } catch {
            #expect(error.code == .io, "\(error)")
        }
        #expect(directory.midFileFailures == 1)
        directory.fail(filesEndingWith: nil)
        #expect(try directory.list().allSatisfy { !$0.hasSuffix(".tmp") })
        #expect(try Self.segmentIDs(directory) == segments, "the commit point did not move")
        let reopened = try Index(directory: directory, schema: nil, verifyChecksums: true)
        #expect(reopened.documentCount == 400)
        #expect(try Self.answers(reopened) == before)

        try writer.rollback()
        try writer.merge()
        try index.reload()
        #expect(try Self.segmentIDs(directory).count == 1)
        #expect(index.documentCount == 400)
        #expect(try Self.answers(index).map(\.totalCount) == before.map(\.totalCount))
    }
}
