import Foundation

/// The `idx` executable built with these tests, for the tests that run it as a child process.
enum IdxExecutable {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `idx` beside the test bundle, or in the package's `.build/debug`; nil when neither was built.
    static let path: String? = {
        let bundles = Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
        let candidates =
            bundles.map { $0.deletingLastPathComponent().appendingPathComponent("idx").path }
            + [Bundle.main.bundleURL.appendingPathComponent("idx").path, packageRoot.path + "/.build/debug/idx"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()
}
