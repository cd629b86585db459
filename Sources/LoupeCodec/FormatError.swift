/// Errors from decoding bytes. Offsets are byte offsets within the buffer being read.
///
/// Internal layers throw these; the engine converts them once into its public error, where the file and
/// segment are known.
package enum FormatError: Error, Sendable, Equatable {
    /// A read at `offset` needed `needed` bytes but only `available` remained.
    case truncated(offset: Int, needed: Int, available: Int)
    /// The footer's magic number is not `Footer.magic`: not a Loupe file, or a torn write.
    case badMagic(found: UInt32)
    /// The footer names another structure than the caller opened (e.g. a postings file opened as a term dictionary).
    case wrongFileKind(found: UInt32, expected: UInt32)
    /// The file was written by a newer (or invalid, 0) format version than this build reads.
    case unsupportedVersion(found: UInt32, supported: UInt32)
    /// The CRC32 of the body differs from the one stored in the footer: the file is corrupt.
    case checksumMismatch(stored: UInt32, computed: UInt32)
    /// Bytes are present but break an invariant of the format (e.g. an overlong varint).
    case malformed(offset: Int, reason: String)
    /// A compressed block (deflate or LZ4) is damaged, or decodes to another size than declared.
    case decompression(offset: Int, reason: String)
}

extension FormatError: CustomStringConvertible {
    /// One line a user can act on: what broke, where, and what to do about it.
    package var description: String {
        switch self {
        case .truncated(let offset, let needed, let available):
            return "truncated data at byte \(offset): needed \(needed) bytes, only \(available) available"
        case .badMagic(let found):
            return "bad magic \(hex(found)) (expected \(hex(Footer.magic))): not a Loupe file, or a corrupt one"
        case .wrongFileKind(let found, let expected):
            return "wrong file kind \(fourCCText(found)) (expected \(fourCCText(expected)))"
        case .unsupportedVersion(let found, let supported):
            return
                "unsupported format version \(found) (this build reads versions 1...\(supported)); upgrade Loupe or reindex"
        case .checksumMismatch(let stored, let computed):
            return "checksum mismatch: footer says \(hex(stored)), data hashes to \(hex(computed)); the file is corrupt"
        case .malformed(let offset, let reason):
            return "malformed data at byte \(offset): \(reason)"
        case .decompression(let offset, let reason):
            return "decompression failed at byte \(offset): \(reason)"
        }
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}

/// Shows a file kind as its four ASCII letters when printable, else as hex.
private func fourCCText(_ value: UInt32) -> String {
    let letters = (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    guard letters.allSatisfy({ (0x20...0x7E).contains($0) }) else { return hex(value) }
    return "\"" + String(decoding: letters, as: UTF8.self) + "\""
}
