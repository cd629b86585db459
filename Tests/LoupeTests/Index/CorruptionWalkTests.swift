import Foundation
import Loupe
import Synchronization
import TestSupport
import Testing

/// Damaged bytes never crash, hang or silently corrupt a search: every byte offset of every component file of a
/// small two-segment index (with deletes) is set to 0x00, to 0xFF and bit-flipped, one at a time; after each, the
/// index is opened with the default `Index(path:)` (no checksum pass) and searched with term, phrase, prefix, OR,
/// range, fuzzy and fetching queries, term counts, a sort by a string column and a range over one. Each must either answer or throw `IndexError`; a search that stops making
/// progress fails the test with the file and offset.
///
/// The default suite walks every 31st offset of each file (a different residue per file and value); set
/// `LOUPE_CORRUPTION_WALK=1` for every offset.
@Suite(.serialized) struct CorruptionWalkTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("title", stored: true)
        .addTextField("body", stored: true)
        .addTextField("tags", record: .freq)
        .addU64Field("year", stored: true, fast: true)
        .addF64Field("rating", fast: true)
        .addDateField("released", stored: true)
        .addBoolField("classic", stored: true)
        .addStringField("genre", fast: true)
        .addStringField("kind", indexed: false, fast: true)
        .build(defaultFields: ["title", "body"], idField: "id")

    static let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]

    /// 200 documents (so the commonest word fills full 128-document postings blocks), committed in two segments, and
    /// a delete in the first.
    static func build(at path: String) throws {
        let index = try Index(path: path, schema: schema)
        let writer = try index.writer()
        var rng = SplitMix64(seed: 9)
        for i in 0..<200 {
            let body = (0..<Int.random(in: 3...30, using: &rng)).map { _ in
                words[
                    min(
                        words.count - 1,
                        Int(Double.random(in: 0..<1, using: &rng) * Double.random(in: 0..<1, using: &rng) * 8))]
            }.joined(separator: " ")
            try writer.addDocument([
                "id": "d\(i)", "title": DocumentValue(.text("alpha \(words[i % words.count]) title \(i)")),
                "body": DocumentValue(.text(body)), "tags": DocumentValue(.text(words[i % 3])),
                "year": DocumentValue(.u64(UInt64(1990 + i % 30))), "rating": DocumentValue(.f64(Double(i % 10) / 2)),
                "released": DocumentValue(.date(Date(timeIntervalSince1970: Double(i) * 86_400))),
                "classic": DocumentValue(.bool(i % 4 == 0)),
                "genre": DocumentValue((0..<(i % 3)).map { .text(words[(i + $0) % 5]) }),
                "kind": DocumentValue(i % 5 == 0 ? [] : [.text("k\(i % 7)")]),
            ])
            if i == 119 { try writer.commit() }
        }
        try writer.commit()
        try writer.deleteDocuments(field: "id", equals: "d7")
        try writer.commit()
    }

    static let queries: [Query] = [
        .term("body", .text("alpha")), .phrase("body", ["alpha", "beta"]), .prefix("body", "ga"),
        .parsed("alpha gamma"), .parsed("+alpha +beta -delta"), .range("year", 1995...2005),
        .fuzzy("title", "alpah", distance: 1),
        .parsed("title:\"alpha be\"*"), .regex("tags", "be.*"),
    ]

    /// Opens the index and runs every query, reading the stored fields of every hit: nil when all of it answered or
    /// threw an `IndexError` that says what is wrong (the API throws nothing else), otherwise the problem.
    static func exercise(_ path: String) -> String? {
        do throws(IndexError) {
            let index = try Index(path: path)
            for query in queries {
                for counting in [CountPolicy.exact, .hitsOnly] {
                    let results = try index.search(query, limit: 20, counting: counting)
                    for hit in results.hits { _ = hit.document.entries }
                }
                _ = try index.count(query)
            }
            for field in ["genre", "kind", "year"] { _ = try index.termCounts(field, limit: 5) }
            _ = try index.search(.matchAll, limit: 5, orderBy: .ascending("kind"))
            _ = try index.count(.exists("kind"))
            _ = try index.count(.range(field: "kind", lower: .included("k2"), upper: .excluded("k5")))
            return nil
        } catch {
            return error.message.isEmpty ? "an IndexError without a message" : nil
        }
    }

    /// Which offsets of a file of `count` bytes the walk damages with mutation `value` of file number `file`.
    static func offsets(count: Int, file: Int, value: Int, everyOffset: Bool) -> StrideTo<Int> {
        everyOffset ? stride(from: 0, to: count, by: 1) : stride(from: (file * 7 + value * 11) % 31, to: count, by: 31)
    }

    @Test func everyDamagedByteAnswersOrThrows() throws {
        let folder = TemporaryDirectory()
        try Self.build(at: folder.path)
        #expect(Self.exercise(folder.path) == nil, "the undamaged index answers")
        let everyOffset = ProcessInfo.processInfo.environment["LOUPE_CORRUPTION_WALK"] == "1"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { !$0.hasPrefix(".") && $0 != "meta.json" }
        #expect(files.count >= 13, "two segments' files and a deleted-documents file: \(files)")

        // A worker walks the damage while this thread watches that it keeps moving.
        let progress = Mutex<(done: Int, at: String, finished: Bool, problems: [String])>((0, "", false, []))
        let worker = Thread {
            for (f, name) in files.enumerated() {
                let path = folder.path + "/" + name
                guard var bytes = FileManager.default.contents(atPath: path).map(Array.init) else { continue }
                let mutations: [(UInt8) -> UInt8] = [{ _ in 0x00 }, { _ in 0xFF }, { $0 ^ 0x01 }]
                for (v, mutate) in mutations.enumerated() {
                    for offset in Self.offsets(count: bytes.count, file: f, value: v, everyOffset: everyOffset) {
                        let original = bytes[offset]
                        let damaged = mutate(original)
                        guard damaged != original else { continue }
                        progress.withLock { $0.at = "\(name) byte \(offset) = 0x\(String(damaged, radix: 16))" }
                        bytes[offset] = damaged
                        FileManager.default.createFile(atPath: path, contents: Data(bytes))
                        let problem = Self.exercise(folder.path)
                        bytes[offset] = original
                        FileManager.default.createFile(atPath: path, contents: Data(bytes))
                        progress.withLock {
                            $0.done += 1
                            if let problem { $0.problems.append("\($0.at): \(problem)") }
                        }
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
            if stalled >= 60 {
                Issue.record("no progress for 30 s at \(now.at): a damaged file makes a search hang")
                return
            }
        }
        let result = progress.withLock { $0 }
        #expect(result.done > 1_000, "damaged copies tried: \(result.done)")
        #expect(result.problems.isEmpty, "\(result.problems.count) problems, first: \(result.problems.prefix(10))")
    }
}
