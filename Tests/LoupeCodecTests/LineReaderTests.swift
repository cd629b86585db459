import CZlib
import LoupeCodec
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct LineReaderTests {
    /// A file in /tmp holding `bytes`, plain or gzip-compressed; removed by `remove()`.
    struct TemporaryFile {
        let path: String

        init(_ bytes: [UInt8], gzip: Bool) throws {
            var template = Array("/tmp/loupe-linereader-XXXXXX".utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            try #require(descriptor >= 0)
            path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if gzip {
                let file = try #require(gzdopen(descriptor, "wb"))
                let written = bytes.withUnsafeBytes { gzwrite(file, $0.baseAddress, UInt32($0.count)) }
                #expect(Int(written) == bytes.count)
                #expect(gzclose(file) == Z_OK)
            } else {
                let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                #expect(written == bytes.count)
                close(descriptor)
            }
        }

        func remove() { unlink(path) }
    }

    func readLines(_ reader: LineReader) throws(FormatError) -> [String] {
        var lines: [String] = []
        while let line = try reader.nextLine() {
            lines.append(String(decoding: line, as: UTF8.self))
        }
        return lines
    }

    func readLines(_ text: String, gzip: Bool) throws -> [String] {
        let file = try TemporaryFile(Array(text.utf8), gzip: gzip)
        defer { file.remove() }
        let reader = try LineReader(path: file.path)
        let lines = try readLines(reader)
        #expect(reader.lineNumber == lines.count)
        #expect(reader.bytesRead == text.utf8.count)
        return lines
    }

    @Test(arguments: [false, true])
    func splitsLines(gzip: Bool) throws {
        #expect(try readLines("a\nbb\n\nccc\n", gzip: gzip) == ["a", "bb", "", "ccc"])
        #expect(try readLines("a\r\nb\r\n\r\nc", gzip: gzip) == ["a", "b", "", "c"])
        #expect(try readLines("no trailing newline", gzip: gzip) == ["no trailing newline"])
        #expect(try readLines("", gzip: gzip) == [])
        #expect(try readLines("\n", gzip: gzip) == [""])
        #expect(try readLines("\r\r\n", gzip: gzip) == ["\r"])
    }

    @Test(arguments: [false, true])
    func longLinesSpanManyBuffers(gzip: Bool) throws {
        var rng = SplitMix64(seed: 11)
        let long = String((0..<1_000_000).map { _ in Character(Unicode.Scalar(UInt8(97 + rng.next() % 26))) })
        let short = (0..<5_000).map { "line \($0)" }
        let text = short.joined(separator: "\n") + "\n" + long + "\r\n" + "tail"
        #expect(try readLines(text, gzip: gzip) == short + [long, "tail"])
    }

    @Test func missingFileFailsToOpen() {
        #expect(
            throws: FormatError.malformed(
                offset: 0, reason: "cannot open /nonexistent/x.jsonl: No such file or directory")
        ) {
            try LineReader(path: "/nonexistent/x.jsonl")
        }
    }

    @Test func readsFromADescriptorWithoutClosingIt() throws {
        let file = try TemporaryFile(Array("one\ntwo\n".utf8), gzip: true)
        defer { file.remove() }
        let descriptor = open(file.path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        do {
            let reader = LineReader(fileDescriptor: descriptor)
            #expect(try readLines(reader) == ["one", "two"])
        }
        #expect(fcntl(descriptor, F_GETFD) >= 0)
    }

    @Test func invalidDescriptorFailsOnRead() {
        let reader = LineReader(fileDescriptor: -1)
        #expect(throws: FormatError.self) { try reader.nextLine() }
    }

    @Test func truncatedGzipIsADecompressionError() throws {
        var rng = SplitMix64(seed: 3)
        let text = (0..<20_000).map { _ in String(rng.next() % 1_000_000) }.joined(separator: "\n")
        let full = try TemporaryFile(Array(text.utf8), gzip: true)
        defer { full.remove() }
        var compressed = [UInt8](repeating: 0, count: 1 << 20)
        let descriptor = open(full.path, O_RDONLY)
        let size = compressed.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        try #require(size > 100)
        let truncated = try TemporaryFile(Array(compressed[..<(size / 2)]), gzip: false)
        defer { truncated.remove() }
        let reader = try LineReader(path: truncated.path)
        let error = #expect(throws: FormatError.self) { try readLines(reader) }
        guard case .decompression = error else {
            Issue.record("expected .decompression, got \(String(describing: error))")
            return
        }
    }
}
