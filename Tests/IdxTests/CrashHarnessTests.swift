import Foundation
import Loupe
import LoupeCodec
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// kill -9 at random moments (issue #14). Each trial runs, as child processes of the built `idx`, the life of an
/// index over the first movies of `Benchmarks/corpora/movies`: `idx index --commit-every 40` (a flush and a commit
/// every 40 lines), `idx delete`, `idx optimize`, a second `idx index` (merging in the background), `idx gc`.
/// It SIGKILLs one of them after a random delay, then checks that `idx check` is clean, that the index holds
/// exactly the documents of a commit that had completed (the first k·N lines of an import, deletes applied) with
/// every stored field equal, byte for byte, to its input line's, and that a new `idx index` continues it.
///
/// A few trials by default; `LOUPE_CRASH_TRIALS=1000` for more (`Tools/crash-harness.sh` runs both harnesses).
/// The summary line (`CrashHarnessTests: …`) gives trials and kills landed per command, and failures.
@Suite(.serialized) struct CrashHarnessTests {
    /// The commands of a trial, in order. The first import makes 6 commits, the delete takes 40% of its documents,
    /// `optimize` merges its 6 segments without them, and the second import's 8 commits start a background merge
    /// of 8 segments (`MergePolicy.logarithmic`) while it goes on.
    enum Step: String, CaseIterable {
        case index, delete, optimize
        case indexMore = "index more"
        case gc

        /// Lines between the commits of an import.
        var commitEvery: Int { self == .index ? 40 : 20 }
    }

    /// The input: one movie a line, its bytes as read, and its JSON parsed.
    struct Corpus {
        let lines: [[UInt8]]
        let objects: [[String: Any]]

        init(count: Int) throws {
            let reader = try LineReader(
                path: IdxExecutable.packageRoot.path + "/Benchmarks/corpora/movies/movies.jsonl.gz")
            var lines: [[UInt8]] = []
            while lines.count < count, let line = try reader.nextLine() { lines.append(Array(line)) }
            self.lines = lines
            objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]) }
        }

        func id(_ line: Int) -> String { objects[line]["id"] as? String ?? "" }

        func genres(_ line: Int) -> [String] { objects[line]["genres"] as? [String] ?? [] }
    }

    /// The files of a run: the schema, the two imports and the continuation, and the index folder.
    struct Layout {
        let folder: String
        var index: String { folder + "/index" }
        var schema: String { IdxExecutable.packageRoot.path + "/Benchmarks/corpora/movies/schema.json" }
        var first: String { folder + "/first.jsonl" }
        var second: String { folder + "/second.jsonl" }
        var continuation: String { folder + "/continuation.jsonl" }

        func arguments(_ step: Step) -> [String] {
            let every = ["--commit-every", String(step.commitEvery)]
            switch step {
            case .index: return ["index", index, first, "--schema", schema] + every
            case .delete: return ["delete", index, "genres:Comedy"]
            case .indexMore: return ["index", index, second] + every
            case .optimize: return ["optimize", index]
            case .gc: return ["gc", index]
            }
        }
    }

    static let firstLines = 0..<240
    static let secondLines = 240..<400
    static let continuationLines = 400..<440

    /// The line sets the index may hold when `step` is killed: one per commit it makes, the last when it completes.
    static func candidates(killing step: Step, corpus: Corpus) -> [Set<Int>] {
        func commits(of lines: Range<Int>, onto base: Set<Int>) -> [Set<Int>] {
            stride(from: lines.lowerBound, to: lines.upperBound, by: step.commitEvery).map {
                base.union(lines.lowerBound..<$0)
            }
                + [base.union(lines)]
        }
        let first = Set(firstLines)
        let afterDelete = first.filter { !corpus.genres($0).contains("Comedy") }
        switch step {
        case .index: return commits(of: firstLines, onto: [])
        case .delete: return [first, afterDelete]
        case .optimize: return [afterDelete]
        case .indexMore: return commits(of: secondLines, onto: afterDelete)
        case .gc: return [afterDelete.union(secondLines)]
        }
    }

    /// What one child did.
    struct ChildRun {
        var killed: Bool
        var status: Int32
        var output: String
        var duration: Duration
    }

    /// Runs `idx arguments`, SIGKILLing it after `killAfter` if it still runs then.
    static func idx(_ arguments: [String], killAfter: Duration? = nil) throws -> ChildRun {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try #require(IdxExecutable.path, "run swift build first"))
        child.arguments = arguments
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        let clock = ContinuousClock()
        let start = clock.now
        try child.run()
        if let killAfter {
            let deadline = start + killAfter
            while child.isRunning, clock.now < deadline { usleep(200) }
            if child.isRunning { kill(child.processIdentifier, SIGKILL) }
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        return ChildRun(
            killed: child.terminationReason == .uncaughtSignal, status: child.terminationStatus, output: text,
            duration: clock.now - start)
    }

    /// What differs between a stored document and its input line, field by field; nil when nothing does.
    static func difference(_ stored: StoredDocument, _ object: [String: Any], schema: Schema) -> String? {
        for field in schema.fields where field.stored {
            let given: [Any] =
                switch object[field.name] {
                case nil, is NSNull: []
                case let array as [Any]: array
                case let value?: [value]
                }
            let values = stored[field.name]
            guard values.count == given.count, zip(values, given).allSatisfy(Self.equal) else {
                return "\(field.name): stored \(values), given \(given)"
            }
        }
        return nil
    }

    /// Whether a stored value is the input's: strings byte for byte, numbers and dates exactly.
    static func equal(_ value: FieldValue, _ given: Any) -> Bool {
        switch value {
        case .text(let s): return (given as? String).map { Array($0.utf8) == Array(s.utf8) } ?? false
        case .u64(let u): return (given as? NSNumber)?.uint64Value == u
        case .i64(let i): return (given as? NSNumber)?.int64Value == i
        case .f64(let d): return (given as? NSNumber)?.doubleValue == d
        case .bool(let b): return (given as? Bool) == b
        case .date(let date):
            return (given as? String).flatMap { try? Date($0, strategy: .iso8601) } == date
        }
    }

    /// The lines the index holds, after checking each stored document against its line; problems go to `problems`.
    static func lines(in path: String, corpus: Corpus, problems: inout [String]) throws -> Set<Int> {
        let lineOfID = Dictionary(uniqueKeysWithValues: corpus.lines.indices.map { (corpus.id($0), $0) })
        let index = try Index(path: path)
        var found: [Int] = []
        for hit in try index.search(.matchAll, limit: index.documentCount + 1).hits {
            guard let line = hit.document.string("id").flatMap({ lineOfID[$0] }) else {
                problems.append("a document that is no input line: \(hit.document.entries)")
                continue
            }
            if let difference = difference(hit.document, corpus.objects[line], schema: index.schema) {
                problems.append("line \(line + 1) reads back differently: \(difference)")
            }
            found.append(line)
        }
        if Set(found).count != found.count { problems.append("a document appears twice") }
        return Set(found)
    }

    /// `idx check` on the index; a problem when it is not clean.
    static func check(_ layout: Layout, problems: inout [String]) throws {
        let run = try idx(["check", layout.index])
        if run.status != 0 || !run.output.hasPrefix("ok:") { problems.append("idx check: \(run.output)") }
    }

    /// Kills `step` after `delay` in a fresh index, the steps before it completing: whether the kill landed before
    /// the command ended, and the problems found.
    static func trial(
        killing step: Step, after delay: Duration, corpus: Corpus, layout: Layout
    ) throws -> (killed: Bool, problems: [String]) {
        try? FileManager.default.removeItem(atPath: layout.index)
        for earlier in Step.allCases.prefix(while: { $0 != step }) {
            let run = try idx(layout.arguments(earlier))
            if run.status != 0 { return (false, ["\(earlier) failed: \(run.output)"]) }
        }
        let killed = try idx(layout.arguments(step), killAfter: delay).killed
        return (killed, try problems(killing: step, corpus: corpus, layout: layout))
    }

    /// What is wrong with the index after `step` was killed, and after a new `idx index` on it.
    static func problems(killing step: Step, corpus: Corpus, layout: Layout) throws -> [String] {
        var problems: [String] = []
        var held = Set<Int>()
        if FileManager.default.fileExists(atPath: layout.index + "/meta.json") {
            try check(layout, problems: &problems)
            held = try lines(in: layout.index, corpus: corpus, problems: &problems)
        } else if step != .index {
            problems.append("no meta.json after killing \(step)")
        }
        let candidates = candidates(killing: step, corpus: corpus)
        if !candidates.contains(held) {
            let complete = candidates.last ?? []
            problems.append(
                "holds \(held.count) documents, expected one of \(candidates.map(\.count)) "
                    + "(missing lines \(complete.subtracting(held).sorted().prefix(5)), "
                    + "extra \(held.subtracting(complete).sorted().prefix(5)))")
        }
        let continued = try idx([
            "index", layout.index, layout.continuation, "--schema", layout.schema, "--commit-every", "10",
        ])
        if continued.status != 0 { return problems + ["the next idx index failed: \(continued.output)"] }
        try check(layout, problems: &problems)
        let after = try lines(in: layout.index, corpus: corpus, problems: &problems)
        if after != held.union(continuationLines) {
            problems.append(
                "after the next idx index: \(after.count) documents, expected \(held.count + continuationLines.count)")
        }
        return problems
    }

    @Test(.enabled(if: IdxExecutable.path != nil, "needs the idx executable: run swift build"))
    func killedCommandsLeaveACompletedCommit() throws {
        // A SIGKILL loses no byte written (the page cache outlives the process), so a RAM file system, where fsync
        // costs nothing, tests the same; what a power loss loses is PowerLossTests' part.
        let shm = URL(fileURLWithPath: "/dev/shm")
        let folder = try TemporaryFolder(
            in: FileManager.default.fileExists(atPath: shm.path) ? shm : .temporaryDirectory)
        let layout = Layout(folder: folder.path)
        let corpus = try Corpus(count: Self.continuationLines.upperBound)
        for (file, lines) in [
            (layout.first, Self.firstLines), (layout.second, Self.secondLines),
            (layout.continuation, Self.continuationLines),
        ] {
            try Data(lines.flatMap { corpus.lines[$0] + [UInt8(ascii: "\n")] }).write(to: URL(fileURLWithPath: file))
        }

        // A run without a kill: every command completes, and its durations bound the random delays.
        var durations: [Step: Duration] = [:]
        for step in Step.allCases {
            let run = try Self.idx(layout.arguments(step))
            try #require(run.status == 0, "\(step): \(run.output)")
            durations[step] = run.duration
        }
        var problems: [String] = []
        #expect(
            try Self.lines(in: layout.index, corpus: corpus, problems: &problems)
                == Self.candidates(
                    killing: .gc, corpus: corpus
                ).last)
        #expect(problems.isEmpty, "\(problems)")

        let count = ProcessInfo.processInfo.environment["LOUPE_CRASH_TRIALS"].flatMap { Int($0) } ?? 5
        var rng = SplitMix64(seed: 14)
        // Per command: trials, and those whose kill landed before the command ended (the others check its result).
        var kills: [Step: (trials: Int, killed: Int)] = [:]
        var failures = 0
        for trial in 0..<count {
            // Each command in turn, so that even the default few trials kill every one.
            let step = Step.allCases[trial % Step.allCases.count]
            let limit = durations[step, default: .zero] / .microseconds(1)
            let delay = Duration.microseconds(Int64.random(in: 0...Int64(max(limit, 1)), using: &rng))
            kills[step, default: (0, 0)].trials += 1
            var (killed, problems) = (true, [String]())
            do {
                (killed, problems) = try Self.trial(killing: step, after: delay, corpus: corpus, layout: layout)
            } catch {
                problems = ["\(error)"]
            }
            if killed { kills[step, default: (0, 0)].killed += 1 }
            if !problems.isEmpty {
                failures += 1
                Issue.record("trial \(trial): killing \(step) after \(delay): \(problems.joined(separator: "; "))")
            }
        }
        let perStep = Step.allCases.map { step in
            let (trials, killed) = kills[step, default: (0, 0)]
            return "\(step.rawValue) \(trials), \(killed) killed mid-command"
        }
        print("CrashHarnessTests: \(count) trials (\(perStep.joined(separator: "; "))), \(failures) failures")
    }
}
