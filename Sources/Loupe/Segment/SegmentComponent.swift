import LoupeCodec

/// The files of a segment. Each is written once by the segment serializer, named `<segment id>.<extension>`,
/// and ends with a `Footer` whose kind is the component's four-character code.
package enum SegmentComponent: CaseIterable, Sendable {
    case terms, postings, positions, fieldNorms, store, fast

    package var fileExtension: String {
        switch self {
        case .terms: "terms"
        case .postings: "postings"
        case .positions: "positions"
        case .fieldNorms: "norms"
        case .store: "store"
        case .fast: "fast"
        }
    }

    /// Four-character file kind stored in the footer, so a renamed file is caught.
    package var kind: UInt32 {
        switch self {
        case .terms: Footer.fourCC("TERM")
        case .postings: Footer.fourCC("POST")
        case .positions: Footer.fourCC("POSI")
        case .fieldNorms: Footer.fourCC("NORM")
        case .store: Footer.fourCC("STOR")
        case .fast: Footer.fourCC("FAST")
        }
    }

    /// The format version written by this build, per component; readers accept 1...version.
    package var formatVersion: UInt32 {
        switch self {
        case .terms, .fieldNorms, .store, .fast: 2
        case .postings, .positions: 1
        }
    }

    package func fileName(_ segment: SegmentID) -> String { "\(segment).\(fileExtension)" }

    /// For the files that end with `directoryOffset(u64)` before their footer (terms, norms, fast): validates the
    /// footer and returns the body up to that field, and where in it the directory starts.
    package func directory(
        _ file: FileSlice, verifyChecksum: Bool
    ) throws(FormatError)
        -> (body: UnsafeRawBufferPointer, directoryOffset: Int)
    {
        let (body, directoryOffset, _) = unsafe try versionedDirectory(file, verifyChecksum: verifyChecksum)
        return unsafe (body, directoryOffset)
    }

    /// `directory(_:verifyChecksum:)`, plus the version the file was written with (which the footer check
    /// accepted), for readers that still read older layouts.
    package func versionedDirectory(
        _ file: FileSlice, verifyChecksum: Bool
    ) throws(FormatError)
        -> (body: UnsafeRawBufferPointer, directoryOffset: Int, version: UInt32)
    {
        let body = unsafe try Footer.validate(
            file.bytes, kind: kind, supportedVersion: formatVersion, verifyChecksum: verifyChecksum)
        let version = unsafe try Footer.read(file.bytes).formatVersion
        guard body.count >= 8 else { throw .truncated(offset: 0, needed: 8, available: body.count) }
        let directoryOffset = unsafe Int(clamping: body.loadU64LE(at: body.count - 8))
        guard directoryOffset <= body.count - 8 else {
            throw .malformed(offset: body.count - 8, reason: "directory offset \(directoryOffset) past the end")
        }
        return unsafe (UnsafeRawBufferPointer(rebasing: body[..<(body.count - 8)]), directoryOffset, version)
    }
}

/// A segment's name: 128 random bits, printed as 32 lowercase hex digits.
package struct SegmentID: Hashable, Sendable, CustomStringConvertible, Comparable {
    package let high: UInt64
    package let low: UInt64

    package init() {
        var rng = SystemRandomNumberGenerator()
        high = rng.next()
        low = rng.next()
    }

    package init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 32, let h = UInt64(text.prefix(16), radix: 16), let l = UInt64(text.suffix(16), radix: 16)
        else { return nil }
        high = h
        low = l
    }

    package var description: String {
        func hex(_ v: UInt64) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }
        return hex(high) + hex(low)
    }

    package static func < (a: Self, b: Self) -> Bool { (a.high, a.low) < (b.high, b.low) }
}

/// A document's number inside one segment, from 0 to maxDoc - 1.
package typealias DocID = UInt32

/// Past-the-end sentinel: a doc set that is exhausted reports this.
package let terminatedDoc: DocID = .max

/// Damage found in one of a segment's files while reading it lazily (a postings block that does not decode, say):
/// cursors record it and stop; the search that met it throws it as an `IndexError` naming the file.
package struct SegmentDamage: Error, Sendable {
    package var component: SegmentComponent
    package var error: FormatError

    package init(_ component: SegmentComponent, _ error: FormatError) {
        self.component = component
        self.error = error
    }
}
