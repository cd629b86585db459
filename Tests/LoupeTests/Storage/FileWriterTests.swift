import Loupe
import LoupeCodec
import TestSupport
import Testing

/// `FileWriter` against both directories: the bytes and the CRC are those of the same writes into a `ByteWriter`,
/// whatever the buffer size, and a file that is not finished leaves nothing behind.
@Suite struct FileWriterTests {
    /// The same random writes into a `FileWriter` and into a `ByteWriter`, including runs larger than the buffer.
    private static func randomWrites(seed: UInt64, into file: inout FileWriter) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        var expected = ByteWriter()
        for _ in 0..<Int.random(in: 0...3_000, using: &rng) {
            let v = rng.next()
            switch Int.random(in: 0..<6, using: &rng) {
            case 0:
                file.writeU8(UInt8(truncatingIfNeeded: v))
                expected.writeU8(UInt8(truncatingIfNeeded: v))
            case 1:
                file.writeU32(UInt32(truncatingIfNeeded: v))
                expected.writeU32(UInt32(truncatingIfNeeded: v))
            case 2:
                file.writeU64(v)
                expected.writeU64(v)
            case 3:
                file.writeVInt(v >> (v & 63))
                expected.writeVInt(v >> (v & 63))
            case 4:
                let run = (0..<Int.random(in: 0...(FaultyDirectory.bufferSize * 3), using: &rng)).map {
                    UInt8(truncatingIfNeeded: $0 &* 31)
                }
                file.writeBytes(run)
                expected.writeBytes(run)
            default:
                let n = Int(v % 200)
                file.appending { $0.writeBytes(repeatElement(7, count: n)) }
                expected.writeBytes(repeatElement(7, count: n))
            }
            #expect(file.count == expected.count, "seed \(seed)")
        }
        return expected.bytes
    }

    @Test(arguments: 0..<12 as Range<UInt64>)
    func roundTripsWithTheChecksumOfTheWholeFile(seed: UInt64) throws {
        let disk = TemporaryDirectory()
        let directories: [any Directory] = [
            RAMDirectory(), try MmapDirectory(path: disk.path, create: true),
            FaultyDirectory(wrapping: try MmapDirectory(path: disk.path + "/small-buffer", create: true)),
        ]
        for directory in directories {
            var file = try directory.createFile("f.bin")
            let expected = Self.randomWrites(seed: seed, into: &file)
            #expect(file.checksum == CRC32.checksum(expected), "seed \(seed) \(directory.location)")
            #expect(!directory.exists("f.bin"), "the file has no name before finish()")
            try file.finish()
            #expect(try directory.contents("f.bin") == expected, "seed \(seed) \(directory.location)")
            #expect(try directory.list().filter { $0.hasSuffix(".tmp") }.isEmpty)
        }
    }

    @Test func theFooterIsTheOneFooterAppendWrites() throws {
        let body = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var expected = ByteWriter()
        expected.writeBytes(body)
        Footer.append(kind: Footer.fourCC("TEST"), version: 3, to: &expected)
        let directory = FaultyDirectory()
        var file = try directory.createFile("f")
        file.writeBytes(body[..<50_000].map { $0 })
        for byte in body[50_000...] { file.writeU8(byte) }
        file.writeFooter(kind: Footer.fourCC("TEST"), version: 3)
        try file.finish()
        let written = try directory.contents("f")
        #expect(written == expected.bytes)
        #expect(throws: Never.self) {
            try written.withUnsafeBytes {
                _ = try Footer.validate($0, kind: Footer.fourCC("TEST"), supportedVersion: 3)
            }
        }
    }

    @Test func anUnfinishedFileLeavesNothingBehind() throws {
        let disk = TemporaryDirectory()
        let directory = try MmapDirectory(path: disk.path, create: true)
        do {
            var file = try directory.createFile("dropped")
            file.writeBytes([UInt8](repeating: 1, count: FileWriter.defaultBufferSize * 2 + 5))
            #expect(directory.exists("dropped.tmp"), "the bytes went to a temporary file")
        }
        #expect(try directory.list().isEmpty, "dropping the writer removed its temporary file")
    }

    @Test func aWriteFailingMidFileKeepsTheOldFileAndRemovesTheTemporaryOne() throws {
        let disk = TemporaryDirectory()
        let mmap = try MmapDirectory(path: disk.path, create: true)
        let directory = FaultyDirectory(wrapping: mmap)
        try directory.writeAtomically("f", [1, 2, 3])
        directory.fail(filesEndingWith: "f", afterBytes: 10_000)
        var file = try directory.createFile("f")
        file.writeBytes([UInt8](repeating: 9, count: 50_000))
        file.writeFooter(kind: Footer.fourCC("TEST"), version: 1)
        #expect(file.count == 50_000 + Footer.size, "offsets advance past the failure")
        do {
            try file.finish()
            Issue.record("finish() must report the failed write")
        } catch {
            guard case .system(let e) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(e.errno == 28 && e.path.hasSuffix("f"))
        }
        #expect(directory.midFileFailures == 1 && directory.abortedFiles == 1)
        #expect(try directory.contents("f") == [1, 2, 3], "the file of that name is untouched")
        #expect(try mmap.list() == ["f"], "no temporary file is left")
    }
}
