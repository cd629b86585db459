import Foundation
import Loupe
import TestSupport
import Testing

/// Power loss at every moment of a writer's life (issue #14): a fixed workload of adds (flushing several segments),
/// deletes by term, commits, a merge and a garbage collection runs on a `PowerLossDirectory` that cuts the power at
/// its n-th file system operation. What a reboot finds must open, pass a full check, hold exactly the documents of
/// a commit that had returned (or of the one in flight, if its meta.json rename became durable), with every stored
/// field as written, and take a new writer's commit.
///
/// The default run cuts at a seeded sample of operations; `LOUPE_CRASH_TRIALS=1000` runs 1,000 trials: every
/// operation once (the worst case: all unsynced names undone, all unsynced bytes lost), then cuts at random
/// operations with the survivor scrambled (each unsynced name change kept or not, unsynced files torn). The summary
/// line (`PowerLossTests: …`) gives trials and failures.
@Suite struct PowerLossTests {
    static let schema: Schema = {
        do {
            return try SchemaBuilder()
                .addStringField("id", stored: true)
                .addTextField("body", stored: true)
                .addStringField("tag", stored: true)
                .addU64Field("n", stored: true, fast: true)
                .build(defaultFields: ["body"], idField: "id")
        } catch {
            preconditionFailure("the test schema is valid: \(error)")
        }
    }()

    static let words = ["crash", "disk", "page", "cache", "fsync", "rename", "journal", "café", "naïve", "東京"]
    static let tags = ["red", "green", "blue", "amber", "teal", "plum", "sand", "rust"]

    /// Document `i` as written and as its stored fields must read back: every field is stored, in schema order.
    static func document(_ i: Int) -> Document {
        var rng = SplitMix64(seed: UInt64(i))
        let body = (0..<Int.random(in: 1...60, using: &rng)).map { _ in
            rng.chance(1, in: 2) ? rng.pick(words) : "w\(rng.next(bits: 13))"
        }.joined(separator: " ")
        var document = Document()
        document.add("id", .text("d\(i)"))
        document.add("body", .text(body))
        document.add("tag", (0..<Int.random(in: 1...2, using: &rng)).map { _ in .text(rng.pick(tags)) })
        document.add("n", .u64(UInt64(i)))
        return document
    }

    static func tags(of i: Int) -> [FieldValue] { document(i)["tag"] }

    /// The workload and a model of the documents each of its commits holds.
    struct Workload {
        /// Documents added and not deleted, as the next commit will hold them.
        private var live: Set<Int> = []
        /// The documents of the last commit that returned; nil until the index is created.
        private(set) var committed: Set<Int>?
        /// The documents of the commit under way when the run stopped, if any.
        private(set) var inFlight: Set<Int>?
        private var writer: IndexWriter?
        /// Segments the first commit published: flushes of a full budget, and the commit's own.
        private(set) var firstCommitSegments = 0

        /// What a reboot may find: the last commit that returned, or the one in flight.
        var candidates: [Set<Int>] { [committed ?? []] + (inFlight.map { [$0] } ?? []) }

        mutating func run(on directory: PowerLossDirectory) throws(IndexError) {
            inFlight = []
            let index = try Index(directory: directory, schema: PowerLossTests.schema, verifyChecksums: false)
            (committed, inFlight) = ([], nil)
            // The budget counts buffer capacities, and an empty segment writer reserves some 550 KB: this one
            // flushes every dozen documents or so, as a 50 MB budget does on a large import.
            let writer = try index.writer(limits: .default, memoryBudget: 560_000)
            writer.mergePolicy = .never
            self.writer = writer
            try add(0..<70)
            try commit()
            try index.reload()
            firstCommitSegments = index.stats().segmentCount
            try add(70..<110)
            try delete(id: 5)
            try delete(id: 90)
            try delete(tag: "red")
            try commit()
            inFlight = live
            try writer.merge()
            (committed, inFlight) = (live, nil)
            try add(110..<140)
            try delete(id: 111)
            try delete(tag: "blue")
            try commit()
            try writer.garbageCollect()
            try add(140..<150)
            try commit()
        }

        private mutating func add(_ range: Range<Int>) throws(IndexError) {
            for i in range {
                try writer?.addDocument(PowerLossTests.document(i))
                live.insert(i)
            }
        }

        private mutating func delete(id: Int) throws(IndexError) {
            try writer?.deleteDocuments(field: "id", equals: "d\(id)")
            live.remove(id)
        }

        private mutating func delete(tag: String) throws(IndexError) {
            try writer?.deleteDocuments(field: "tag", equals: tag)
            live = live.filter { !PowerLossTests.tags(of: $0).contains(.text(tag)) }
        }

        private mutating func commit() throws(IndexError) {
            inFlight = live
            try writer?.commit()
            (committed, inFlight) = (live, nil)
        }
    }

    /// Where a trial cuts the power, and how unsynced files fare.
    struct Trial: CustomStringConvertible {
        var operation: Int
        /// Seeds which unsynced name changes persist and the prefix kept of each unsynced file; nil undoes and
        /// drops them all.
        var scrambleSeed: UInt64?

        var description: String {
            "cut at operation \(operation)" + (scrambleSeed.map { ", scrambled with seed \($0)" } ?? "")
        }
    }

    /// Every operation once, then random ones scrambled, for `count` ≥ `operations`; else a seeded sample, half
    /// scrambled.
    static func trials(count: Int, operations: Int) -> [Trial] {
        var rng = SplitMix64(seed: 14)
        if count >= operations {
            return (1...operations).map { Trial(operation: $0) }
                + (0..<count - operations).map { _ in
                    Trial(operation: Int.random(in: 1...operations, using: &rng), scrambleSeed: rng.next())
                }
        }
        return (0..<count).map { k in
            let operation = Int.random(in: 1...operations, using: &rng)
            return Trial(operation: operation, scrambleSeed: k % 2 == 1 ? rng.next() : nil)
        }
    }

    /// What is wrong with the index `survivor` holds, given the document sets it may have; empty when all is well.
    static func problems(of survivor: PowerLossDirectory, candidates: [Set<Int>]) -> [String] {
        do {
            let index = try Index(directory: survivor, schema: schema, verifyChecksums: true)
            var problems: [String] = []
            if index.verify({ problems.append("check: \($0)") }) > 0 { return problems }
            let hits = try index.search(.matchAll, limit: index.documentCount + 1).hits
            var found: [Int] = []
            for hit in hits {
                var stored = Document()
                for entry in hit.document.entries { stored.add(entry.name, entry.values) }
                guard let id = hit.document.string("id"), let i = Int(id.dropFirst()) else {
                    problems.append("a document without a valid id: \(stored)")
                    continue
                }
                if stored != document(i) { problems.append("d\(i) reads back as \(stored)") }
                found.append(i)
            }
            let ids = Set(found)
            if ids.count != found.count { problems.append("a document appears twice") }
            if !candidates.contains(ids) {
                let expected = candidates.map { "\($0.count) (\($0.sorted().prefix(3))…)" }.joined(separator: " or ")
                problems.append("holds \(ids.count) documents, expected \(expected)")
            }
            let writer = try index.writer()
            try writer.addDocument(document(1_000))
            try writer.commitAndReload()
            try writer.close()
            let reopened = try Index(directory: survivor, schema: nil, verifyChecksums: true)
            if reopened.documentCount != found.count + 1 {
                problems.append("after a new writer's commit: \(reopened.documentCount) documents")
            }
            return problems
        } catch {
            return ["\(error)"]
        }
    }

    @Test func everyPowerLossLeavesACommittedIndex() throws {
        let baseline = PowerLossDirectory()
        var complete = Workload()
        try complete.run(on: baseline)
        #expect(complete.committed?.count ?? 0 > 100 && complete.inFlight == nil)
        #expect(complete.firstCommitSegments >= 3, "the budget flushed segments before the commit")
        #expect(Self.problems(of: baseline.survivor(), candidates: complete.candidates).isEmpty)

        let count = ProcessInfo.processInfo.environment["LOUPE_CRASH_TRIALS"].flatMap { Int($0) } ?? 40
        var failures = 0
        for trial in Self.trials(count: count, operations: baseline.operations) {
            let directory = PowerLossDirectory(cuttingPowerAt: trial.operation)
            var workload = Workload()
            do {
                try workload.run(on: directory)
            } catch {
                if !directory.hasLostPower { Issue.record("\(trial): the workload failed before the cut: \(error)") }
            }
            var scrambling = trial.scrambleSeed.map(SplitMix64.init(seed:))
            let problems = Self.problems(
                of: directory.survivor(scrambling: &scrambling), candidates: workload.candidates)
            if !problems.isEmpty {
                failures += 1
                Issue.record("\(trial): \(problems.joined(separator: "; "))")
            }
        }
        print(
            "PowerLossTests: \(count) trials, power cut at \(count >= baseline.operations ? "each" : "a sample") of "
                + "\(baseline.operations) operations, \(failures) failures")
    }
}
