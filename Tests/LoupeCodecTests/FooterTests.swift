import LoupeCodec
import Testing

@Suite struct FooterTests {
    static let kind = Footer.fourCC("TERM")

    static func sampleFile(version: UInt32 = 2) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeBytes(Array("hello, segment".utf8))
        writer.writeU64(42)
        Footer.append(kind: kind, version: version, to: &writer)
        return writer.bytes
    }

    func validate(_ file: [UInt8], kind: UInt32 = kind, supported: UInt32 = 3) throws -> [UInt8] {
        try file.withUnsafeBytes { buffer in
            Array(try Footer.validate(buffer, kind: kind, supportedVersion: supported))
        }
    }

    @Test func appendThenValidateReturnsTheBody() throws {
        let file = Self.sampleFile()
        #expect(try validate(file) == Array(file[..<(file.count - Footer.size)]))
        #expect(Array(file.suffix(4)) == Array("LUPE".utf8))
        #expect(Footer.fourCC("LUPE") == Footer.magic)
        #expect(Footer.fourCC("TERM") == 0x4D52_4554)
        let footer = try file.withUnsafeBytes { try Footer.read($0) }
        #expect(
            footer == Footer(fileKind: Self.kind, formatVersion: 2, checksum: CRC32.checksum(Array(file.dropLast(8)))))
    }

    @Test func emptyBodyIsValid() throws {
        var writer = ByteWriter()
        Footer.append(kind: Self.kind, version: 1, to: &writer)
        #expect(try validate(writer.bytes) == [])
    }

    @Test func shortFileIsTruncated() {
        let file = Self.sampleFile()
        for length in 0..<Footer.size {
            #expect(throws: FormatError.truncated(offset: 0, needed: 16, available: length)) {
                try validate(Array(file.prefix(length)))
            }
        }
    }

    @Test func everyTruncationFails() {
        let file = Self.sampleFile()
        for length in 0..<file.count {
            #expect(throws: FormatError.self, "length \(length)") { try validate(Array(file.prefix(length))) }
        }
    }

    @Test func badMagic() {
        var file = Self.sampleFile()
        file[file.count - 1] = 0
        #expect(throws: FormatError.badMagic(found: 0x0050_554C)) { try validate(file) }
    }

    @Test func wrongKind() {
        let other = Footer.fourCC("POST")
        #expect(throws: FormatError.wrongFileKind(found: Self.kind, expected: other)) {
            try validate(Self.sampleFile(), kind: other)
        }
    }

    @Test func newerAndZeroVersionsAreUnsupported() {
        #expect(throws: FormatError.unsupportedVersion(found: 4, supported: 3)) {
            try validate(Self.sampleFile(version: 4))
        }
        #expect(throws: FormatError.unsupportedVersion(found: 0, supported: 3)) {
            try validate(Self.sampleFile(version: 0))
        }
        #expect(throws: Never.self) { try validate(Self.sampleFile(version: 1)) }
    }

    @Test func everyFlippedBodyBitIsAChecksumMismatch() {
        let file = Self.sampleFile()
        for bit in 0..<((file.count - Footer.size) * 8) {
            var corrupt = file
            corrupt[bit / 8] ^= 1 << (bit % 8)
            let error = #expect(throws: FormatError.self, "bit \(bit)") { try validate(corrupt) }
            guard case .checksumMismatch = error else {
                Issue.record("bit \(bit): expected .checksumMismatch, got \(String(describing: error))")
                continue
            }
        }
    }

    /// The CRC covers the footer's kind and version too, so a flip that turns one accepted version into another
    /// (here 2 → 3, both supported) still fails.
    @Test func everyFlippedFooterBitFails() {
        let file = Self.sampleFile(version: 2)
        for bit in ((file.count - Footer.size) * 8)..<(file.count * 8) {
            var corrupt = file
            corrupt[bit / 8] ^= 1 << (bit % 8)
            #expect(throws: FormatError.self, "bit \(bit)") { try validate(corrupt, supported: 3) }
        }
    }

    @Test func checksumCanBeSkipped() throws {
        var file = Self.sampleFile()
        file[0] ^= 1
        let body = try file.withUnsafeBytes {
            Array(try Footer.validate($0, kind: Self.kind, supportedVersion: 3, verifyChecksum: false))
        }
        #expect(body.count == file.count - Footer.size)
    }

    @Test func errorsDescribeThemselves() {
        #expect(FormatError.badMagic(found: 0x1234).description.contains("0x00001234"))
        #expect(FormatError.wrongFileKind(found: Self.kind, expected: 1).description.contains("\"TERM\""))
        #expect(FormatError.truncated(offset: 4, needed: 8, available: 2).description.contains("byte 4"))
    }
}
