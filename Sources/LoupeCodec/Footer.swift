/// The 16-byte footer that ends every Loupe file (after tantivy's `footer.rs`):
///
/// ```
/// | fileKind(u32) | formatVersion(u32) | crc32(u32) | magic(u32) = 0x4550_554C |
/// ```
///
/// - `fileKind`: a four-character code naming the structure (`fourCC("TERM")`), so a file opened as the
///   wrong structure fails cleanly instead of being misparsed.
/// - `formatVersion`: 1 or more; readers accept every version up to the one they were built for.
/// - `crc32`: `CRC32` over every byte before it: the body, then the footer's kind and version.
/// - `magic`: "LUPE" read as a little-endian `u32`; last, so a truncated file fails on it first.
package struct Footer: Sendable, Equatable {
    /// Bytes of the footer.
    package static let size = 16
    /// "LUPE" as a little-endian `u32`.
    package static let magic: UInt32 = 0x4550_554C
    /// The checksum's distance from the end of the file: it covers the body and the footer's kind and version.
    private static let checksumOffset = 8

    /// Which structure the file holds, as a `fourCC` code.
    package var fileKind: UInt32
    /// The format version the file was written with (≥ 1).
    package var formatVersion: UInt32
    /// CRC32 of the body and the footer's kind and version (every byte before this field).
    package var checksum: UInt32

    /// A footer with the given fields.
    package init(fileKind: UInt32, formatVersion: UInt32, checksum: UInt32) {
        self.fileKind = fileKind
        self.formatVersion = formatVersion
        self.checksum = checksum
    }

    /// Appends the footer for `out.bytes` as written so far; the file is complete afterwards.
    /// - Complexity: O(n) for the checksum.
    package static func append(kind: UInt32, version: UInt32, to out: inout ByteWriter) {
        out.writeU32(kind)
        out.writeU32(version)
        out.writeU32(CRC32.checksum(out.bytes))
        out.writeU32(magic)
    }

    /// Reads the last 16 bytes of `file` without checking them against anything but its length.
    /// - Throws: `.truncated` if `file` is shorter than a footer; `.badMagic` if the magic is wrong.
    package static func read(_ file: UnsafeRawBufferPointer) throws(FormatError) -> Footer {
        guard file.count >= size else { throw .truncated(offset: 0, needed: size, available: file.count) }
        var reader = unsafe ByteReader(file, offset: file.count - size)
        let kind = try reader.readU32()
        let version = try reader.readU32()
        let checksum = try reader.readU32()
        let found = try reader.readU32()
        guard found == magic else { throw .badMagic(found: found) }
        return Footer(fileKind: kind, formatVersion: version, checksum: checksum)
    }

    /// Checks length, magic, kind, version (must be in `1...supportedVersion`) and — if `verifyChecksum` — the
    /// CRC, in that order; returns the body (the bytes before the footer).
    ///
    /// Skip the checksum only where the cost of hashing the whole file matters more than detecting corruption
    /// at open (large mapped files whose integrity a separate full check verifies).
    /// - Throws: `.truncated`, `.badMagic`, `.wrongFileKind`, `.unsupportedVersion`, `.checksumMismatch`.
    package static func validate(
        _ file: UnsafeRawBufferPointer, kind: UInt32, supportedVersion: UInt32, verifyChecksum: Bool = true
    ) throws(FormatError) -> UnsafeRawBufferPointer {
        let footer = unsafe try read(file)
        guard footer.fileKind == kind else { throw .wrongFileKind(found: footer.fileKind, expected: kind) }
        guard footer.formatVersion >= 1 && footer.formatVersion <= supportedVersion else {
            throw .unsupportedVersion(found: footer.formatVersion, supported: supportedVersion)
        }
        let body = unsafe UnsafeRawBufferPointer(rebasing: file[..<(file.count - size)])
        if verifyChecksum {
            let covered = unsafe UnsafeRawBufferPointer(rebasing: file[..<(file.count - checksumOffset)])
            let computed = unsafe CRC32.checksum(covered)
            guard computed == footer.checksum else {
                throw .checksumMismatch(stored: footer.checksum, computed: computed)
            }
        }
        return unsafe body
    }

    /// The four ASCII characters of `s` as a little-endian `u32` (first character in the low byte), the way
    /// they read in a hex dump of the file.
    /// - Precondition: `s` is exactly 4 bytes of UTF-8.
    package static func fourCC(_ s: StaticString) -> UInt32 {
        precondition(s.utf8CodeUnitCount == 4, "fourCC needs exactly 4 bytes, got \"\(s)\"")
        return s.withUTF8Buffer { unsafe UnsafeRawBufferPointer($0).loadU32LE(at: 0) }
    }
}
