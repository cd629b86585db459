import Foundation
import Loupe
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `ReloadPolicy`: two `Index` objects on one folder, the second standing for another process (its writer's
/// commits reach the first only through the folder watcher), plus the watcher itself and the in-process hook.
///
/// Serialized (nested suites too): the descriptor-count test must not see other watchers come and go.
@Suite(.serialized) struct ReloadPolicyTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("body", stored: true)
        .build(defaultFields: ["body"], idField: "id")

    private func doc(_ i: Int) -> Document { ["id": "d\(i)", "body": "common text number \(i)"] }

    /// Polls `condition` with short sleeps for up to `timeout`; the time it took to hold, nil if it never did.
    private func waitUntil(timeout: Duration = .seconds(5), _ condition: () -> Bool) -> Duration? {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < timeout {
            if condition() { return clock.now - start }
            usleep(200)
        }
        return condition() ? clock.now - start : nil
    }

    private static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15
    }

    @Test func onCommitSeesAnotherProcesssCommitsWithoutReload() throws {
        let tmp = TemporaryDirectory()
        let watched = try Index(path: tmp.path, schema: Self.schema, reloadPolicy: .onCommit)
        let other = try Index(path: tmp.path)
        let writer = try other.writer()
        var delays: [Double] = []
        for i in 0..<20 {
            try writer.addDocument(doc(i))
            try writer.commit()
            let delay = waitUntil { watched.documentCount == i + 1 }
            #expect(delay != nil, "commit \(i + 1) not seen within 5 s")
            if let delay { delays.append(Self.milliseconds(delay)) }
        }
        #expect(try watched.count(.term("body", "common")) == 20)
        #expect(watched.lastReloadError == nil)
        #expect(watched.reloadPolicy == .onCommit)
        delays.sort()
        if !delays.isEmpty {
            let median = delays[delays.count / 2]
            let worst = delays[delays.count - 1]
            print("ReloadPolicyTests: commit → visible in another Index: median \(median) ms, max \(worst) ms")
        }
    }

    @Test func manualWaitsForReload() throws {
        let tmp = TemporaryDirectory()
        let index = try Index(path: tmp.path, schema: Self.schema)
        #expect(index.reloadPolicy == .manual)
        let other = try Index(path: tmp.path)
        let writer = try other.writer()
        for i in 0..<5 { try writer.addDocument(doc(i)) }
        try writer.commit()
        usleep(300_000)
        #expect(index.documentCount == 0, "a .manual index does not follow commits")
        try index.reload()
        #expect(index.documentCount == 5)
    }

    @Test func aBurstOfCommitsEndsAtTheLast() throws {
        let tmp = TemporaryDirectory()
        let watched = try Index(path: tmp.path, schema: Self.schema, reloadPolicy: .onCommit)
        let other = try Index(path: tmp.path)
        let writer = try other.writer()
        for i in 0..<50 {
            try writer.addDocument(doc(i))
            try writer.commit()
        }
        #expect(waitUntil { watched.documentCount == 50 } != nil)
        usleep(100_000)
        #expect(watched.documentCount == 50)
        #expect(try watched.count(.term("id", "d49")) == 1)
        #expect(watched.lastReloadError == nil)
    }

    #if os(Linux)
    /// Open descriptors, inotify instances among them, and the watches those instances hold on `folder` (from the
    /// kernel's /proc/self/fdinfo, one "inotify wd:… ino:<hex inode>" line per watch): other suites running
    /// alongside may watch folders of their own.
    private static func descriptors(watching folder: String) -> (all: Int, inotify: Int, watches: Int) {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let inotify = fds.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == "anon_inode:inotify"
        }
        let inode = (try? FileManager.default.attributesOfItem(atPath: folder)[.systemFileNumber] as? UInt64) ?? 0
        let tag = "ino:" + String(inode, radix: 16) + " "
        let watches = inotify.reduce(0) { total, fd in
            let info = (try? String(contentsOfFile: "/proc/self/fdinfo/" + fd, encoding: .utf8)) ?? ""
            return total + info.split(separator: "\n").filter { $0.hasPrefix("inotify wd:") && $0.contains(tag) }.count
        }
        return (fds.count, inotify.count, watches)
    }

    @Test func releasedIndexesStopWatchingAndLeakNoDescriptors() throws {
        let tmp = TemporaryDirectory()
        let other = TemporaryDirectory()
        // The first watched index starts the process's inotify instance and Dispatch's own descriptors (epoll,
        // eventfd), which stay. It lives in its own folder and stays open: creating it writes meta.json, whose
        // event its watcher answers with a reload that holds the index until done, so releasing it at once
        // would remove its watch at a moment this test cannot know.
        let first = try Index(path: other.path, schema: Self.schema, reloadPolicy: .onCommit)
        // The folder the test watches is created without a watcher, so no event is pending on it.
        _ = try Index(path: tmp.path, schema: Self.schema)
        let before = Self.descriptors(watching: tmp.path)
        #expect(before.inotify == 1, "one inotify instance for the process")
        do {
            let index = try Index(path: tmp.path, reloadPolicy: .onCommit)
            let twin = try Index(path: tmp.path, reloadPolicy: .onCommit)
            #expect(
                Self.descriptors(watching: tmp.path).watches == before.watches + 1,
                "two indexes on one folder share a watch")
            #expect(index.documentCount == 0 && twin.documentCount == 0)
        }
        #expect(
            Self.descriptors(watching: tmp.path).watches == before.watches,
            "the watch is removed when its indexes are released")
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<200 {
            let index = try Index(path: tmp.path, reloadPolicy: .onCommit)
            #expect(index.documentCount == 0)
        }
        let elapsed = clock.now - start
        let after = Self.descriptors(watching: tmp.path)
        #expect(after.inotify == before.inotify)
        #expect(after.watches == before.watches)
        // Other suites run alongside and may hold a few descriptors; 200 leaked ones would show.
        #expect(after.all <= before.all + 16, "fds before \(before.all), after \(after.all)")
        print("ReloadPolicyTests: 200 watched indexes opened and released in \(elapsed)")
        #expect(first.documentCount == 0)
    }

    @Test func aReleasedTwinLeavesTheOtherWatching() throws {
        let tmp = TemporaryDirectory()
        let watched = try Index(path: tmp.path, schema: Self.schema, reloadPolicy: .onCommit)
        var twin: Index? = try Index(path: tmp.path, reloadPolicy: .onCommit)
        #expect(twin?.documentCount == 0)
        twin = nil
        let writer = try Index(path: tmp.path).writer()
        try writer.addDocument(doc(1))
        try writer.commit()
        #expect(waitUntil { watched.documentCount == 1 } != nil)
    }
    #endif

    @Test func aDamagedCommitPointKeepsTheOldSnapshotAndIsRecorded() throws {
        let tmp = TemporaryDirectory()
        let watched = try Index(path: tmp.path, schema: Self.schema, reloadPolicy: .onCommit)
        let other = try Index(path: tmp.path)
        let writer = try other.writer()
        for i in 0..<5 { try writer.addDocument(doc(i)) }
        try writer.commit()
        #expect(waitUntil { watched.documentCount == 5 } != nil)
        let metaPath = tmp.path + "/meta.json"
        let good = try Data(contentsOf: URL(fileURLWithPath: metaPath))

        // The other side publishes a damaged commit point, by rename as a writer would.
        try Data("{\"segments\": [tru".utf8).write(to: URL(fileURLWithPath: metaPath + ".bad"))
        #expect(rename(metaPath + ".bad", metaPath) == 0)
        #expect(waitUntil { watched.lastReloadError != nil } != nil, "the failed reload is recorded")
        #expect(watched.lastReloadError?.code == .corruption, "\(String(describing: watched.lastReloadError))")
        #expect(watched.documentCount == 5)
        #expect(try watched.count(.term("body", "common")) == 5, "searches go on over the last good commit")

        // Rewritten in place (IN_CLOSE_WRITE rather than a rename): the next reload succeeds and clears the error.
        try good.write(to: URL(fileURLWithPath: metaPath))
        #expect(waitUntil { watched.lastReloadError == nil } != nil)
        #expect(watched.documentCount == 5)

        for i in 5..<10 { try writer.addDocument(doc(i)) }
        try writer.commit()
        #expect(waitUntil { watched.documentCount == 10 } != nil)
        #expect(watched.lastReloadError == nil)
    }

    /// The `idx` executable built beside this test bundle, if any (`swift build` builds it; a filtered test
    /// build may not).
    static let idxPath: String? = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let path = folder.appendingPathComponent("idx").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    @Test(.enabled(if: idxPath != nil, "needs the idx executable beside the test bundle"))
    func anotherProcesssCommitsAreFollowed() throws {
        let tmp = TemporaryDirectory()
        let watched = try Index(path: tmp.path + "/index", schema: Self.schema, reloadPolicy: .onCommit)
        let input = tmp.path + "/docs.jsonl"
        let lines = (0..<500).map { "{\"id\": \"d\($0)\", \"body\": \"common text number \($0)\"}" }
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: input))
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try #require(Self.idxPath))
        child.arguments = ["index", tmp.path + "/index", input, "--commit-every", "50"]
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        var seen: Set<Int> = []
        while child.isRunning {
            seen.insert(watched.documentCount)
            usleep(200)
        }
        #expect(child.terminationStatus == 0)
        #expect(waitUntil { watched.documentCount == 500 } != nil)
        #expect(try watched.count(.term("id", "d499")) == 1)
        #expect(waitUntil { watched.lastReloadError == nil } != nil)
        #expect(seen.allSatisfy { $0 % 50 == 0 }, "only whole commits are seen: \(seen.sorted())")
        print("ReloadPolicyTests: while idx indexed 500 documents in commits of 50, saw counts \(seen.sorted())")
    }

    @Test func ownCommitsAreVisibleWhenCommitReturns() throws {
        let index = try Index.inMemory(schema: Self.schema, reloadPolicy: .onCommit)
        let writer = try index.writer()
        for i in 0..<3 { try writer.addDocument(doc(i)) }
        try writer.commit()
        #expect(index.documentCount == 3, "the writer's didCommit() reloaded")
        try writer.deleteDocuments(field: "id", equals: "d1")
        try writer.commit()
        #expect(index.documentCount == 2)

        let manual = try Index.inMemory(schema: Self.schema)
        let manualWriter = try manual.writer()
        try manualWriter.addDocument(doc(1))
        try manualWriter.commit()
        manual.didCommit()
        #expect(manual.documentCount == 0, "a .manual index ignores the hook")
    }

    @Test func aWatchedIndexsOwnCommitsAreVisibleWhenCommitReturns() throws {
        let tmp = TemporaryDirectory()
        let index = try Index(path: tmp.path, schema: Self.schema, reloadPolicy: .onCommit)
        let writer = try index.writer()
        for i in 0..<4 {
            try writer.addDocument(doc(i))
            try writer.commit()
            #expect(index.documentCount == i + 1)
        }
        #expect(index.lastReloadError == nil)
    }

    /// The watcher alone, on a folder where the test plays the committing side.
    @Suite struct CommitWatcherTests {
        /// Publishes a new "meta.json" the way `MmapDirectory.writeAtomically` does: a temporary file, then a rename.
        private func publish(_ folder: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/meta.json.tmp"))
            #expect(rename(folder + "/meta.json.tmp", folder + "/meta.json") == 0)
        }

        private final class Calls: Sendable {
            let count = Atomic<Int>(0)
            let entered = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
        }

        @Test func burstsCoalesceWhileACallbackRuns() throws {
            let tmp = TemporaryDirectory()
            let calls = Calls()
            let watcher = try CommitWatcher(folder: tmp.path)
            watcher.start {
                if calls.count.add(1, ordering: .relaxed).newValue == 1 {
                    calls.entered.signal()
                    calls.release.wait()
                }
            }
            try publish(tmp.path, "1")
            #expect(calls.entered.wait(timeout: .now() + 5) == .success)
            // The first callback is blocked: these twenty commits are absorbed into one more callback.
            for i in 2...21 { try publish(tmp.path, "\(i)") }
            // Events are read on another queue than callbacks run on; give it time to take in the burst.
            usleep(100_000)
            calls.release.signal()
            usleep(300_000)
            // 3 only if the event reader lagged past the release and saw the burst's tail after the second
            // callback began, which is a later commit for it.
            let count = calls.count.load(ordering: .relaxed)
            #expect(count == 2 || count == 3, "\(count) callbacks for 21 commits")
        }

        @Test func renameToCallbackLatency() throws {
            let tmp = TemporaryDirectory()
            let clock = ContinuousClock()
            // `Locked`, not `Mutex`: ThreadSanitizer cannot see `Mutex`'s ordering on Linux (Storage/Locked.swift).
            let stamps = Locked<[ContinuousClock.Instant]>([])
            let watcher = try CommitWatcher(folder: tmp.path)
            watcher.start { stamps.withLock { $0.append(clock.now) } }
            var latencies: [Duration] = []
            for i in 0..<50 {
                try Data("\(i)".utf8).write(to: URL(fileURLWithPath: tmp.path + "/meta.json.tmp"))
                let renamed = clock.now
                #expect(rename(tmp.path + "/meta.json.tmp", tmp.path + "/meta.json") == 0)
                while stamps.withLock({ $0.count }) <= i && clock.now - renamed < .seconds(5) { usleep(20) }
                guard let called = stamps.withLock({ $0.count > i ? $0[i] : nil }) else {
                    Issue.record("rename \(i) not seen within 5 s")
                    return
                }
                latencies.append(called - renamed)
            }
            latencies.sort()
            print(
                "ReloadPolicyTests: rename → callback median \(latencies[25]), 90th percentile \(latencies[45]), "
                    + "max \(latencies[49])")
        }

        @Test func commitsBeforeStartAreDeliveredAndOtherFilesIgnored() throws {
            let tmp = TemporaryDirectory()
            let calls = Calls()
            let watcher = try CommitWatcher(folder: tmp.path)
            try publish(tmp.path, "made before start")
            watcher.start { calls.count.add(1, ordering: .relaxed) }
            let clock = ContinuousClock()
            let start = clock.now
            while calls.count.load(ordering: .relaxed) == 0 && clock.now - start < .seconds(5) { usleep(500) }
            #expect(calls.count.load(ordering: .relaxed) == 1)
            // Segment files come and go without a commit.
            try Data("x".utf8).write(to: URL(fileURLWithPath: tmp.path + "/0123.terms.tmp"))
            #expect(rename(tmp.path + "/0123.terms.tmp", tmp.path + "/0123.terms") == 0)
            try Data("y".utf8).write(to: URL(fileURLWithPath: tmp.path + "/0123.store"))
            usleep(200_000)
            #expect(calls.count.load(ordering: .relaxed) == 1)
        }
    }
}
