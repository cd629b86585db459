import Foundation
import Loupe
import Synchronization
import TestSupport
import Testing

/// Damage sampled on a large index: the whole movies corpus (17,472 documents) in three segments with deletes,
/// where DamageDetectionTests and CorruptionWalkTests walk a small one. For every file, `LOUPE_CORRUPTION_LARGE`
/// (a count) random byte offsets are set to 0x00, to 0xFF or bit-flipped, one at a time, in place. After each, the
/// index opened the default way (no checksum pass) answers a set of searches or throws `IndexError`, and either
/// the open fails naming the file or `Index.verify` (what `idx check` runs) reports it with the file named. A
/// search that stops making progress for 60 s fails the test. Off by default: it takes minutes.
@Suite struct LargeIndexDamageTests {
    static let samples = ProcessInfo.processInfo.environment["LOUPE_CORRUPTION_LARGE"].flatMap { Int($0) }

    static let queries: [Query] = [
        .parsed("love story"), .parsed("+war -peace"), .phrase("title", ["the", "dark"]), .prefix("title", "lov"),
        .fuzzy("title", "lvoe", distance: 1), .range("year", 1990...2000), .regex("title", "sta.*"),
        .parsed("title:\"star wa\"*"),
    ]

    /// The movies corpus committed in three parts, a delete between them.
    static func build(at path: String) throws {
        let index = try Index(path: path, schema: MoviesFixture.schema)
        let writer = try index.writer(memoryBudget: 100_000_000)
        for (i, line) in MoviesFixture.lines.enumerated() {
            try writer.addJSON(line)
            if i == 6_000 || i == 12_000 {
                try writer.commit()
                _ = try writer.deleteDocuments(field: "genres", equals: i == 6_000 ? "Western" : "Musical")
            }
        }
        try writer.commit()
    }

    /// Opens the index, runs every search reading each hit's stored fields, and checks every byte. Returns what
    /// went wrong: nil when the searches answered or threw an `IndexError` with a message, and the damage was
    /// reported naming `name`.
    static func exercise(_ path: String, damaged name: String) -> String? {
        var named = false
        do throws(IndexError) {
            let index = try Index(path: path)
            for query in queries {
                do throws(IndexError) {
                    for hit in try index.search(query, limit: 20).hits { _ = hit.document.entries }
                    _ = try index.count(query)
                } catch {
                    if error.message.isEmpty { return "an IndexError without a message" }
                }
            }
            do throws(IndexError) {
                _ = try index.termCounts("genres", limit: 5)
                _ = try index.search(.matchAll, limit: 5, orderBy: .descending("year"))
            } catch {
                if error.message.isEmpty { return "an IndexError without a message" }
            }
            _ = index.verify { named = named || $0.context.file?.hasSuffix(name) == true }
        } catch {
            if error.message.isEmpty { return "an IndexError without a message" }
            named = error.context.file?.hasSuffix(name) == true
        }
        return named ? nil : "not reported with the file named"
    }

    @Test(.enabled(if: samples != nil, "set LOUPE_CORRUPTION_LARGE to a number of offsets per file"))
    func sampledDamageOfALargeIndexIsCaught() throws {
        let samples = try #require(Self.samples)
        let folder = TemporaryDirectory()
        try Self.build(at: folder.path)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { !$0.hasPrefix(".") && $0 != "meta.json" }
        let size = try files.reduce(0) {
            try $0 + (FileManager.default.attributesOfItem(atPath: folder.path + "/" + $1)[.size] as! Int)
        }
        #expect(try Index(path: folder.path).verify { _ in } == 0, "the undamaged index is sound")

        let progress = Mutex<(done: Int, at: String, finished: Bool, problems: [String])>((0, "", false, []))
        let worker = Thread {
            var rng = SplitMix64(seed: 14)
            for name in files {
                let path = folder.path + "/" + name
                guard let handle = FileHandle(forUpdatingAtPath: path) else { continue }
                defer { try? handle.close() }
                let count = Int((try? handle.seekToEnd()) ?? 0)
                for _ in 0..<samples where count > 0 {
                    let offset = UInt64(Int.random(in: 0..<count, using: &rng))
                    try? handle.seek(toOffset: offset)
                    guard let original = try? handle.read(upToCount: 1)?.first else { continue }
                    let damaged: UInt8 = [0x00, 0xFF, original ^ 0x01].randomElement(using: &rng)!
                    guard damaged != original else { continue }
                    progress.withLock { $0.at = "\(name) byte \(offset) = 0x\(String(damaged, radix: 16))" }
                    try? handle.seek(toOffset: offset)
                    try? handle.write(contentsOf: [damaged])
                    let problem = Self.exercise(folder.path, damaged: name)
                    try? handle.seek(toOffset: offset)
                    try? handle.write(contentsOf: [original])
                    progress.withLock {
                        $0.done += 1
                        if let problem { $0.problems.append("\($0.at): \(problem)") }
                    }
                }
            }
            progress.withLock { $0.finished = true }
        }
        worker.stackSize = 8 << 20
        worker.start()
        var last = -1
        var stalled = 0
        while true {
            Thread.sleep(forTimeInterval: 0.5)
            let now = progress.withLock { $0 }
            if now.finished { break }
            stalled = now.done == last ? stalled + 1 : 0
            last = now.done
            if stalled >= 120 {
                Issue.record("no progress for 60 s at \(now.at): a damaged file makes a search hang")
                return
            }
        }
        let result = progress.withLock { $0 }
        print(
            "LargeIndexDamageTests: \(result.done) damaged copies of \(files.count) files (\(size) bytes), "
                + "\(result.problems.count) problems")
        #expect(result.done >= files.count * samples / 2, "damaged copies tried: \(result.done)")
        #expect(result.problems.isEmpty, "\(result.problems.count) problems, first: \(result.problems.prefix(10))")
    }
}
