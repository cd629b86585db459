import Foundation
import Loupe
import TestSupport
import Testing

/// Every damaged byte is found: for every file of a small two-segment index with deletes (CorruptionWalkTests'),
/// every byte offset set to 0x00, to 0xFF and bit-flipped, one at a time, either fails the open with an
/// `IndexError` naming the file, or is reported by `Index.verify` (what `idx check` runs) with the file named.
/// The default suite tries every 31st offset of each file (a different residue per file and value);
/// `LOUPE_CORRUPTION_WALK=1` tries every one.
@Suite struct DamageDetectionTests {
    @Test func everyDamagedByteIsReportedNamingItsFile() throws {
        let folder = TemporaryDirectory()
        try CorruptionWalkTests.build(at: folder.path)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { !$0.hasPrefix(".") && $0 != IndexMeta.fileName }
        let source = try MmapDirectory(path: folder.path, create: false)
        let everyOffset = ProcessInfo.processInfo.environment["LOUPE_CORRUPTION_WALK"] == "1"
        var tried = 0
        var missed: [String] = []
        for (f, name) in files.enumerated() {
            // An in-memory copy of the index, in which one file at a time is damaged.
            let directory = RAMDirectory()
            for other in files + [IndexMeta.fileName] {
                try directory.writeAtomically(other, source.contents(other))
            }
            var bytes = try source.contents(name)
            let step = everyOffset ? 1 : 31
            let mutations: [(UInt8) -> UInt8] = [{ _ in 0x00 }, { _ in 0xFF }, { $0 ^ 0x01 }]
            for (v, mutate) in mutations.enumerated() {
                for offset in stride(from: everyOffset ? 0 : (f * 7 + v * 11) % step, to: bytes.count, by: step) {
                    let original = bytes[offset]
                    let damaged = mutate(original)
                    guard damaged != original else { continue }
                    bytes[offset] = damaged
                    try directory.writeAtomically(name, bytes)
                    bytes[offset] = original
                    tried += 1
                    var named = false
                    do throws(IndexError) {
                        let index = try Index(directory: directory, schema: nil, verifyChecksums: false)
                        _ = index.verify { named = named || $0.context.file?.hasSuffix(name) == true }
                    } catch {
                        named = error.context.file?.hasSuffix(name) == true
                    }
                    if !named { missed.append("\(name) byte \(offset) = 0x\(String(damaged, radix: 16))") }
                }
            }
        }
        print("DamageDetectionTests: \(tried) damaged copies of \(files.count) files, \(missed.count) missed")
        #expect(tried > 2_000)
        #expect(missed.count == 0, "not reported with the file named: \(missed.prefix(10))")
    }
}
