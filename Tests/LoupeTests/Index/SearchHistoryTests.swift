import Foundation
import Loupe
import LoupeCodec
import TestSupport
import Testing

/// `SearchHistory`: merging, order, capacity, persistence, damaged files and concurrent recording.
@Suite struct SearchHistoryTests {
    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + seconds) }

    @Test func recordMergesIgnoringCase() throws {
        let folder = TemporaryDirectory()
        let history = try SearchHistory(path: folder.path + "/h.bin")
        try history.record("  heat ", at: Self.at(1))
        try history.record("Alien", at: Self.at(2))
        try history.record("HEAT", at: Self.at(3))
        try history.record("   ", at: Self.at(4))
        #expect(history.count == 2)
        #expect(
            history.recent() == [
                .init(query: "HEAT", count: 2, lastUsed: Self.at(3)),
                .init(query: "Alien", count: 1, lastUsed: Self.at(2)),
            ])
    }

    @Test func recentOrderAndLimit() throws {
        let folder = TemporaryDirectory()
        let history = try SearchHistory(path: folder.path + "/h.bin")
        for i in 0..<5 { try history.record("q\(i)", at: Self.at(Double(i))) }
        try history.record("q1", at: Self.at(10))
        #expect(history.recent(limit: 3).map(\.query) == ["q1", "q4", "q3"])
        #expect(history.recent(limit: 0).isEmpty)
        #expect(history.recent(limit: 100).count == 5)
    }

    @Test func capacityDropsLeastRecent() throws {
        let folder = TemporaryDirectory()
        let history = try SearchHistory(path: folder.path + "/h.bin", capacity: 3)
        try history.record("a", at: Self.at(1))
        try history.record("b", at: Self.at(2))
        try history.record("c", at: Self.at(3))
        try history.record("a", at: Self.at(4))
        try history.record("d", at: Self.at(5))
        #expect(history.recent().map(\.query) == ["d", "a", "c"])
        let smaller = try SearchHistory(path: folder.path + "/h.bin", capacity: 2)
        #expect(smaller.recent().map(\.query) == ["d", "a"])
    }

    @Test func removeAndClear() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/h.bin"
        let history = try SearchHistory(path: path)
        try history.record("heat", at: Self.at(1))
        try history.record("alien", at: Self.at(2))
        try history.remove(" HEAT ")
        try history.remove("missing")
        #expect(history.recent().map(\.query) == ["alien"])
        #expect(try SearchHistory(path: path).recent().map(\.query) == ["alien"])
        try history.clear()
        #expect(history.count == 0)
        #expect(try SearchHistory(path: path).count == 0)
    }

    @Test func persistsAcrossReopen() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/h.bin"
        let history = try SearchHistory(path: path)
        try history.record("Heat", at: Self.at(1.25))
        try history.record("héat 🎬", at: Self.at(1.25))
        try history.record("heat", at: Self.at(2.5))
        let reopened = try SearchHistory(path: path)
        #expect(reopened.recent() == history.recent())
        #expect(reopened.recent().map(\.query) == ["heat", "héat 🎬"])
    }

    @Test func besideIndex() throws {
        let folder = TemporaryDirectory()
        let schema = try SchemaBuilder().addTextField("title", stored: true).build(defaultFields: ["title"])
        let index = try Index(path: folder.path, schema: schema)
        let history = try SearchHistory(beside: index)
        try history.record("heat")
        #expect(history.path == folder.path + "/search-history.bin")
        #expect(FileManager.default.fileExists(atPath: history.path))
        #expect(try SearchHistory(beside: Index(path: folder.path)).count == 1)
        let memory = try Index.inMemory(schema: schema)
        #expect(throws: IndexError.self) { try SearchHistory(beside: memory) }
    }

    /// Every truncation and every single-byte change of a small file is `.corruption` naming the file.
    @Test func damagedFilesAreCorruption() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/h.bin"
        let history = try SearchHistory(path: path)
        try history.record("heat", at: Self.at(1))
        try history.record("alien", at: Self.at(2))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let damaged = folder.path + "/damaged.bin"
        func expectCorruption(_ file: [UInt8], _ what: String) throws {
            try Data(file).write(to: URL(fileURLWithPath: damaged))
            do {
                _ = try SearchHistory(path: damaged)
                Issue.record("\(what) opened")
            } catch {
                #expect(error.code == .corruption, "\(what): \(error)")
                #expect(error.context.file == damaged, "\(what): \(error)")
            }
        }
        for length in 0..<bytes.count { try expectCorruption(Array(bytes[..<length]), "truncated to \(length)") }
        for offset in bytes.indices {
            for change: UInt8 in [0x01, 0x80, 0xFF] {
                var copy = bytes
                copy[offset] ^= change
                try expectCorruption(copy, "byte \(offset) ^ \(change)")
            }
        }
        try expectCorruption(bytes + [0], "a trailing byte")
    }

    /// An intact file of a newer format version is `.incompatibleFormat`, not corruption.
    @Test func newerVersionIsIncompatible() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/h.bin"
        try SearchHistory(path: path).record("heat")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count - 12] = 2
        let crc = CRC32.checksum(Array(bytes[..<(bytes.count - 8)]))
        for i in 0..<4 { bytes[bytes.count - 8 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect {
            try SearchHistory(path: path)
        } throws: { error in
            (error as! IndexError).code == .incompatibleFormat
        }
    }

    @Test func truncationReportsByteOffset() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/h.bin"
        try Data([0x01, 0x02]).write(to: URL(fileURLWithPath: path))
        #expect {
            try SearchHistory(path: path)
        } throws: { error in
            let e = error as! IndexError
            return e.code == .corruption && e.context.byteOffset == 0 && e.context.file == path
        }
    }

    @Test func unreadablePathIsTypedError() throws {
        let folder = TemporaryDirectory()
        #expect {
            try SearchHistory(path: folder.path)
        } throws: { error in
            (error as! IndexError).code == .io
        }
        let file = folder.path + "/file"
        try Data([1]).write(to: URL(fileURLWithPath: file))
        #expect {
            try SearchHistory(path: file + "/h.bin")
        } throws: { error in
            let e = error as! IndexError
            return e.code == .io && e.context.file == file + "/h.bin"
        }
        // A folder that goes away: the write fails and the history stays as it was.
        let sub = folder.path + "/sub"
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let history = try SearchHistory(path: sub + "/h.bin")
        try FileManager.default.removeItem(atPath: sub)
        #expect {
            try history.record("heat")
        } throws: { error in
            let e = error as! IndexError
            return e.code == .io && e.context.file == sub + "/h.bin"
        }
        #expect(history.count == 0)
        #expect(throws: IndexError.self) { try SearchHistory(path: folder.path + "/h.bin", capacity: 0) }
    }

    @Test func concurrentRecords() async throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/h.bin"
        let history = try SearchHistory(path: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<20 {
                        try history.record(i % 2 == 0 ? "shared" : "SHARED")
                        try history.record("task \(task)")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(history.count == 9)
        let counts = Dictionary(
            uniqueKeysWithValues: history.recent(limit: 20).map { ($0.query.lowercased(), $0.count) })
        #expect(counts["shared"] == 160)
        for task in 0..<8 { #expect(counts["task \(task)"] == 20) }
        let reopened = try SearchHistory(path: path)
        #expect(reopened.recent(limit: 20) == history.recent(limit: 20))
    }
}
