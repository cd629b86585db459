import Foundation
import Loupe
import TestSupport
import Testing

/// Every system call of a commit, a merge, an optimize and a garbage collection, failed in turn on a real folder:
/// for every n, the n-th `open`, `write`, `fsync`, `rename`, `mmap` or `unlink` of the operation fails with EIO or
/// ENOSPC (`SystemCallFaults`). The call then throws an `IndexError` or carries on (a clean-up is best effort);
/// the folder opens, passes every check and holds exactly the documents before or after the operation; and the
/// writer, after `rollback()`, adds and commits again.
@Suite(.serialized) struct SystemCallFaultTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("body", stored: true)
        .addU64Field("n", fast: true)
        .build(defaultFields: ["body"], idField: "id")

    static func document(_ id: String) -> Document {
        ["id": DocumentValue(.text(id)), "body": DocumentValue(.text("text of \(id)")), "n": 1]
    }

    /// Three commits (6, then 4 documents, then a delete of d1): two segments, one with deletes.
    static func prepare(_ path: String) throws {
        let index = try Index(path: path, schema: schema)
        let writer = try index.writer()
        writer.mergePolicy = .never
        for i in 0..<6 { try writer.addDocument(document("d\(i)")) }
        try writer.commit()
        for i in 6..<10 { try writer.addDocument(document("d\(i)")) }
        try writer.commit()
        try writer.deleteDocuments(field: "id", equals: "d1")
        try writer.commit()
        try writer.close()
    }

    enum Operation: String, CaseIterable, CustomTestStringConvertible {
        case commit, merge, optimize, gc
        var testDescription: String { rawValue }

        /// Runs the operation on `index` in `folder`, through `writer` except for `optimize`, which opens its own. A
        /// garbage collection first finds the leftovers of a crashed flush: a segment's files and a temporary file.
        func run(_ index: Index, _ writer: IndexWriter?, in folder: String) throws(IndexError) {
            switch self {
            case .commit:
                for i in 0..<3 { try writer!.addDocument(SystemCallFaultTests.document("n\(i)")) }
                try writer!.deleteDocuments(field: "id", equals: "d2")
                try writer!.commit()
            case .merge: try writer!.merge()
            case .optimize: try index.optimize()
            case .gc:
                for name in ["terms", "postings", "store", "fast.tmp"] {
                    FileManager.default.createFile(
                        atPath: folder + "/0123456789abcdef0123456789abcdef." + name, contents: Data(count: 100))
                }
                _ = try writer!.garbageCollect()
            }
        }

        /// The documents after the operation, given those before.
        func after(_ before: Set<String>) -> Set<String> {
            self == .commit ? before.subtracting(["d2"]).union(["n0", "n1", "n2"]) : before
        }
    }

    static func ids(_ index: Index) throws -> Set<String> {
        Set(try index.search(.matchAll, limit: 100).hits.compactMap { $0.string("id") })
    }

    /// One trial: prepares a folder, arms the n-th `call` (nil: none, to count), runs the operation, and checks the
    /// folder and the writer. Returns how many calls of each kind the operation made.
    static func trial(
        _ operation: Operation, failing call: SystemCallFaults.Call?, at n: Int, errno: Int32
    ) throws -> [SystemCallFaults.Call: Int] {
        let folder = TemporaryDirectory()
        try prepare(folder.path)
        let before = try ids(Index(path: folder.path))
        let faults = SystemCallFaults()
        let index = try Index(
            directory: MmapDirectory(path: folder.path, create: false, faults: faults), schema: nil,
            verifyChecksums: false)
        let writer = operation == .optimize ? nil : try index.writer()
        writer?.mergePolicy = .never
        let start = Dictionary(uniqueKeysWithValues: SystemCallFaults.Call.allCases.map { ($0, faults.count($0)) })
        if let call { faults.fail(call, at: n, errno: errno) }
        let trialName = "\(operation) with \(call.map { "\($0) #\(n)" } ?? "no failure")"
        var failed = false
        do throws(IndexError) {
            try operation.run(index, writer, in: folder.path)
        } catch {
            failed = true
            #expect(error.code == .io, "\(trialName): \(error)")
        }
        let counts = Dictionary(
            uniqueKeysWithValues: SystemCallFaults.Call.allCases.map { ($0, faults.count($0) - start[$0]!) })
        let happened = faults.disarm()
        if call == nil { #expect(!failed, "\(trialName) failed") }

        let reopened = try Index(path: folder.path, verifyChecksums: true)
        #expect(reopened.verify { Issue.record("\(trialName): \($0)") } == 0)
        let found = try ids(reopened)
        #expect(found == before || found == operation.after(before), "\(trialName): \(found.sorted())")
        if !happened { #expect(found == operation.after(before), "\(trialName): no failure, so the operation stands") }

        let next = try writer ?? index.writer()
        try next.rollback()
        try next.addDocument(document("z"))
        try next.commit()
        try next.close()
        #expect(try ids(Index(path: folder.path, verifyChecksums: true)) == found.union(["z"]), "\(trialName): writer")
        return counts
    }

    @Test(arguments: Operation.allCases)
    func everySystemCallOfTheOperationFailsInTurn(_ operation: Operation) throws {
        let counts = try Self.trial(operation, failing: nil, at: 0, errno: 0)
        var trials = 0
        for call in SystemCallFaults.Call.allCases {
            let errnos: [Int32] = call == .write ? [ENOSPC, EIO] : [EIO]
            for n in stride(from: 1, through: counts[call] ?? 0, by: 1) {
                for errno in errnos {
                    _ = try Self.trial(operation, failing: call, at: n, errno: errno)
                    trials += 1
                }
            }
        }
        let calls = SystemCallFaults.Call.allCases.compactMap { call in counts[call].map { "\(call) \($0)" } }
        print(
            "SystemCallFaultTests \(operation): \(trials) trials; calls: \(calls.joined(separator: ", "))")
        #expect(trials >= 10, "the operation makes system calls to fail")
    }
}
