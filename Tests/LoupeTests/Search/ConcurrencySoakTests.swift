import Foundation
import Loupe
import Synchronization
import TestSupport
import Testing

/// Eight searching threads on an index folder while a writer adds, deletes, commits, merges and optimizes, the
/// index reloading itself at each commit (`.onCommit`): every searcher a thread takes must be one whole commit,
/// its counts those of that commit and no other. Two seconds by default; `LOUPE_SOAK_SECONDS=N` runs N seconds.
/// CI also runs it under ThreadSanitizer (.ci/run).
@Suite struct ConcurrencySoakTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("body")
        .addU64Field("commit", stored: true, indexed: true, fast: true)
        .build(defaultFields: ["body"], idField: "id")

    /// Commit k adds `perCommit` documents tagged k; it also deletes the even-numbered half of commit k − 2's.
    static let perCommit = 20

    /// Live documents once commit `k` is in: the last two commits whole, the earlier ones half.
    static func liveCount(after k: Int) -> Int { k <= 2 ? k * perCommit : 2 * perCommit + (k - 2) * perCommit / 2 }

    static var seconds: Double {
        ProcessInfo.processInfo.environment["LOUPE_SOAK_SECONDS"].flatMap(Double.init) ?? 2
    }

    /// Checks one searcher: the latest commit it holds fixes every count. Returns that commit and what did not
    /// match it (recorded by the test's own thread: an expectation failed on another thread names no test).
    static func check(_ searcher: Searcher) throws(IndexError) -> (commit: Int, problems: [String]) {
        let top = try searcher.search(.matchAll, limit: 1, orderBy: .descending("commit")).hits.first
        let latest = Int(top?.uint("commit") ?? 0)
        var problems: [String] = []
        let total = try searcher.count(.matchAll)
        if total != liveCount(after: latest) {
            problems.append("a searcher of commit \(latest) holds \(total) documents, not \(liveCount(after: latest))")
        }
        for k in Set([1, latest / 2, latest - 2, latest - 1, latest]) where k >= 1 && k <= latest {
            let expected = k >= latest - 1 ? perCommit : perCommit / 2
            let found = try searcher.count(.term("commit", .u64(UInt64(k))))
            if found != expected {
                problems.append(
                    "a searcher of commit \(latest) holds \(found) documents of commit \(k), not \(expected)")
            }
        }
        return (latest, problems)
    }

    /// What the searching threads share with the test.
    final class Shared: Sendable {
        let stop = Atomic<Bool>(false)
        let searches = Atomic<Int>(0)
        let highest = Atomic<Int>(0)
        let failures = Mutex<[String]>([])

        /// Raises `highest` to `commit` if it is higher.
        func saw(_ commit: Int) {
            var current = highest.load(ordering: .relaxed)
            while commit > current {
                let (exchanged, original) = highest.compareExchange(
                    expected: current, desired: commit, ordering: .relaxed)
                if exchanged { return }
                current = original
            }
        }
    }

    @Test func searchesSeeWholeCommitsWhileTheWriterChangesTheIndex() throws {
        let folder = TemporaryDirectory()
        let index = try Index(path: folder.path, schema: Self.schema, reloadPolicy: .onCommit)
        let shared = Shared()
        let finished = DispatchGroup()
        for t in 0..<8 {
            finished.enter()
            Thread {
                defer { finished.leave() }
                while !shared.stop.load(ordering: .acquiring) {
                    do throws(IndexError) {
                        let (commit, problems) = try Self.check(index.searcher())
                        shared.saw(commit)
                        if !problems.isEmpty { shared.failures.withLock { $0 += problems } }
                        if t % 2 == 0 { _ = try index.search("text", limit: 10).hits.map { $0.string("id") } }
                        shared.searches.add(1, ordering: .relaxed)
                    } catch {
                        shared.failures.withLock { $0.append("thread \(t): \(error)") }
                    }
                }
            }.start()
        }

        let writer = try index.writer()
        let clock = ContinuousClock()
        let end = clock.now + .seconds(Self.seconds)
        var commit = 0
        while clock.now < end {
            commit += 1
            for i in 0..<Self.perCommit {
                try writer.addDocument([
                    "id": DocumentValue(.text("c\(commit)-\(i)")), "body": "text of the document",
                    "commit": DocumentValue(.u64(UInt64(commit))),
                ])
            }
            if commit > 2 {
                let ids = stride(from: 0, to: Self.perCommit, by: 2).map { FieldValue.text("c\(commit - 2)-\($0)") }
                try writer.deleteDocuments(field: "id", equalsAnyOf: ids)
            }
            try writer.commit()
            if commit % 25 == 0 { try writer.merge() }
        }
        try writer.close()
        try index.reload()
        shared.stop.store(true, ordering: .releasing)
        finished.wait()

        let failures = shared.failures.withLock { $0 }
        #expect(failures.count == 0, "the first failures: \(failures.prefix(3))")
        let last = try Self.check(index.searcher())
        #expect(last.commit == commit && last.problems.isEmpty, "\(last.problems)")
        let searches = shared.searches.load(ordering: .relaxed)
        let highest = shared.highest.load(ordering: .relaxed)
        print(
            "ConcurrencySoakTests: \(Self.seconds) s, \(commit) commits, \(searches) checked searches, highest "
                + "commit a search saw \(highest)")
        #expect(searches > 0 && highest > 1)
    }
}
