// swift-tools-version: 6.2
import PackageDescription

/// Every unsafe construct is marked `unsafe` (auditable) and no warning survives a build.
let strict: [SwiftSetting] = [.strictMemorySafety(), .treatAllWarnings(as: .error)]

let package = Package(
    name: "Loupe",
    // Apple minimums: what the code needs at run time. `.ci/check-availability.py` checks every reference the code
    // makes against the availability the standard library declares (Linux ignores it; Docs/ARCHITECTURE.md,
    // "Platforms").
    // - macOS 15 / iOS 18 / tvOS 18 / watchOS 11 / visionOS 2 is the Swift 6.0 runtime: `Synchronization.Atomic`
    //   (the engine's counters and flags), `Mutex` (the Darwin commit watcher), `Int128` and `String(validating:as:)`.
    //   Typed-throws function types and noncopyable generic types can need that runtime too (for their metadata).
    // - Below the floor, so not binding: Regex, `Duration`, `ContinuousClock` (macOS 13 / iOS 16).
    // - `Span` itself back-deploys (the toolchain links libswiftCompatibilitySpan, which Xcode embeds in apps), but
    //   `Array.span` and `String.UTF8View.span` are OS 26 only: the code takes spans from `ContiguousArray` or from a
    //   buffer pointer instead, so that the floor stays at 15/18.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Loupe", targets: ["Loupe"]),
        .executable(name: "idx", targets: ["idx"]),
        .executable(name: "loupe-bench", targets: ["LoupeBench"]),
    ],
    targets: [
        // zlib ships with every Apple SDK (usr/include/zlib.h, libz.tbd); on Linux it is Debian's zlib1g-dev.
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "LoupeCodec", dependencies: ["CZlib"], swiftSettings: strict),
        .target(name: "LoupeAnalysis", swiftSettings: strict),
        .target(name: "LoupeQueryGrammar", swiftSettings: strict),
        .target(name: "LoupeAutomata", swiftSettings: strict),
        .target(
            name: "Loupe", dependencies: ["LoupeCodec", "LoupeAnalysis", "LoupeQueryGrammar", "LoupeAutomata"],
            swiftSettings: strict),
        .target(name: "IdxKit", dependencies: ["Loupe", "LoupeCodec", "LoupeQueryGrammar"], path: "Tools/IdxKit"),
        .executableTarget(name: "idx", dependencies: ["IdxKit"], path: "Tools/idx"),
        .executableTarget(name: "LoupeBench", dependencies: ["Loupe", "LoupeCodec"], path: "Benchmarks/LoupeBench"),
        .target(name: "TestSupport", dependencies: ["Loupe", "LoupeCodec"], path: "Tests/TestSupport"),
        // The fuzz bodies (issue #14): `Tools/fuzz.sh` links them into a libFuzzer binary with the entry point in
        // Tests/Fuzz/libFuzzer (outside every target, so that no build here needs libFuzzer's `main`), and
        // LoupeTests replays the inputs committed under Fixtures/fuzz through them.
        .target(
            name: "LoupeFuzzing", dependencies: ["Loupe", "LoupeQueryGrammar"], path: "Tests/Fuzz/LoupeFuzzing",
            swiftSettings: strict),
        .testTarget(name: "LoupeCodecTests", dependencies: ["LoupeCodec", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(
            name: "LoupeAnalysisTests", dependencies: ["LoupeAnalysis", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "LoupeQueryGrammarTests", dependencies: ["LoupeQueryGrammar", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "LoupeAutomataTests", dependencies: ["LoupeAutomata", "TestSupport"]),
        .testTarget(
            name: "LoupeTests", dependencies: ["Loupe", "LoupeCodec", "LoupeAnalysis", "LoupeFuzzing", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "IdxTests", dependencies: ["IdxKit", "TestSupport"]),
        // Written against `import Loupe` alone, as our users' code is: the Tantivy-for-Swift bindings' README snippets.
        .testTarget(name: "LoupeAPITests", dependencies: ["Loupe"]),
    ]
)
