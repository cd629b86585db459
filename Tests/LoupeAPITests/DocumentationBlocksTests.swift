import Foundation
import Testing

/// Every ```swift block of README.md, Docs/ and the DocC catalogue appears, line for line, in this target's example
/// files, where it compiles and runs: a block edited in the prose without its test (or the reverse) fails here.
/// Blocks that are not Swift to run — a `Package.swift` excerpt, which opens with `// Package.swift` or
/// `dependencies:` — are skipped, and `import` lines are left out of the comparison.
@Suite struct DocumentationBlocksTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The documents whose blocks are checked, relative to the package root.
    static func documents() throws -> [String] {
        let fm = FileManager.default
        var paths = ["README.md"]
        for folder in ["Docs", "Sources/Loupe/Loupe.docc"] {
            let names = try fm.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            paths += names.filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
        }
        return paths
    }

    /// The ```swift blocks of `text`, each as its lines.
    static func swiftBlocks(_ text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current!)
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Lines compared without indentation, blank lines and imports.
    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }

    @Test func everyBlockIsExercised() throws {
        let examples = try ["DocumentationExampleTests.swift", "BindingsREADMETests.swift"].map { name in
            Self.normalized(
                try String(contentsOf: Self.root.appendingPathComponent("Tests/LoupeAPITests/\(name)"), encoding: .utf8)
                    .components(separatedBy: "\n"))
        }
        var checked = 0
        for path in try Self.documents() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            for block in Self.swiftBlocks(text) {
                let lines = Self.normalized(block)
                guard let first = lines.first, first != "// Package.swift", !first.hasPrefix("dependencies:") else {
                    continue
                }
                let found = examples.contains { file in
                    file.indices.contains { start in
                        start + lines.count <= file.count && Array(file[start..<start + lines.count]) == lines
                    }
                }
                #expect(found, "\(path): this block is not in Tests/LoupeAPITests:\n\(block.joined(separator: "\n"))")
                checked += 1
            }
        }
        #expect(checked >= 12)
    }
}
