// swift-tools-version: 6.2
import PackageDescription

/// Every unsafe construct is marked `unsafe` (auditable) and no warning survives a build.
let strict: [SwiftSetting] = [.strictMemorySafety(), .treatAllWarnings(as: .error)]

let package = Package(
    name: "Loupe",
    products: [
        .library(name: "Loupe", targets: ["Loupe"]),
        .executable(name: "idx", targets: ["idx"]),
        .executable(name: "loupe-bench", targets: ["LoupeBench"]),
    ],
    targets: [
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
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
        .testTarget(name: "LoupeCodecTests", dependencies: ["LoupeCodec", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(
            name: "LoupeAnalysisTests", dependencies: ["LoupeAnalysis", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "LoupeQueryGrammarTests", dependencies: ["LoupeQueryGrammar", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "LoupeAutomataTests", dependencies: ["LoupeAutomata", "TestSupport"]),
        .testTarget(
            name: "LoupeTests", dependencies: ["Loupe", "LoupeCodec", "LoupeAnalysis", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "IdxTests", dependencies: ["IdxKit", "TestSupport"]),
    ]
)
