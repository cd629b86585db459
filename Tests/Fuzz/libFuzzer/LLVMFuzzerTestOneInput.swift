// The libFuzzer entry points of issue #14's fuzz targets, outside every package target: `Tools/fuzz.sh` compiles
// this file with `-sanitize=fuzzer` against the LoupeFuzzing module it builds, and libFuzzer supplies `main`.
import Foundation
import LoupeFuzzing

/// The target this process fuzzes, named by LOUPE_FUZZ_TARGET (`FuzzTarget`'s raw values).
let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["LOUPE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        fatalError("set LOUPE_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return target
}()

/// Builds the target's index before the first input, and writes its seeds into the folder LOUPE_FUZZ_SEEDS names
/// (the script passes that folder as a corpus).
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>>>
) -> CInt {
    let seeds = target.seeds
    if let folder = ProcessInfo.processInfo.environment["LOUPE_FUZZ_SEEDS"] {
        for (i, seed) in seeds.enumerated() {
            _ = FileManager.default.createFile(atPath: "\(folder)/seed-\(i)", contents: Data(seed))
        }
    }
    return 0
}

/// One input: a trap or sanitizer report is libFuzzer's to catch; a broken property is turned into one here.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = unsafe count == 0 ? [] : Array(UnsafeRawBufferPointer(start: start, count: count))
    if case .failed(let problem) = target.run(input) {
        fatalError("\(target.rawValue): \(problem)")
    }
    return 0
}
