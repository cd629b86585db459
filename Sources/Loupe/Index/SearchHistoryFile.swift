import LoupeCodec

// Search history file (`search-history.bin` by default), format v1. Little-endian. Legend: Docs/Formats/LEGEND.md
//
// | entryCount(VInt) | entries: entryCount × entry | footer (16 bytes, kind "HIST") |
// entry: | queryLength(VInt) | query: queryLength bytes of UTF-8 | count(VInt ≥ 1) | lastUsed(i64, µs since 1970) |
//
// Entries are written least recently used first, so the order of equal timestamps survives a reopen. The footer
// carries the magic, the kind and the version; its CRC32 is checked before the kind and version, so a damaged
// version byte reads as corruption and only an intact file of a newer version as an incompatible format. The
// whole file is replaced atomically on every change (`<file>.tmp`, fsync, rename, fsync of the folder).
//
// Validation: the CRC first; then every length and count against the bytes left (an entry takes at least
// `minimumEntrySize` bytes, so `entryCount` can never ask for more entries than the body could hold); queries are
// valid, non-empty UTF-8 with no two equal ignoring case; counts are ≥ 1; the body ends exactly after the last entry.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One stored entry of a search history, with its time in microseconds since 1970.
package struct SearchHistoryRecord: Sendable, Hashable {
    /// The query as last spelled.
    package var query: String
    /// How many times it was recorded (≥ 1).
    package var count: Int
    /// When it was last recorded, in microseconds since 1970.
    package var lastUsedMicros: Int64

    /// A record with the given fields.
    package init(query: String, count: Int, lastUsedMicros: Int64) {
        self.query = query
        self.count = count
        self.lastUsedMicros = lastUsedMicros
    }
}

/// Reads, writes and validates the search history file.
package enum SearchHistoryFile {
    package static let kind = Footer.fourCC("HIST")
    package static let version: UInt32 = 1
    /// The default file name, in the index folder.
    package static let defaultFileName = "search-history.bin"
    /// The fewest bytes an entry takes: a 1-byte length, 1 byte of text, a 1-byte count and the 8-byte time.
    package static let minimumEntrySize = 11

    /// The file's bytes for `records`, given least recently used first.
    package static func serialize(_ records: [SearchHistoryRecord]) -> [UInt8] {
        var out = ByteWriter(capacity: 16 + records.count * 24)
        out.writeVInt(UInt64(records.count))
        for record in records {
            out.writeLengthPrefixed(Array(record.query.utf8))
            out.writeVInt(UInt64(record.count))
            out.writeU64(UInt64(bitPattern: record.lastUsedMicros))
        }
        Footer.append(kind: kind, version: version, to: &out)
        return out.bytes
    }

    /// The records of a whole file, in file order.
    /// - Throws: `.truncated`, `.badMagic`, `.checksumMismatch`, `.wrongFileKind`, `.unsupportedVersion` or
    ///   `.malformed`, with offsets from the start of the file.
    package static func parse(_ file: UnsafeRawBufferPointer) throws(FormatError) -> [SearchHistoryRecord] {
        let footer = unsafe try Footer.read(file)
        let covered = unsafe UnsafeRawBufferPointer(rebasing: file[..<(file.count - 8)])
        let computed = unsafe CRC32.checksum(covered)
        guard computed == footer.checksum else { throw .checksumMismatch(stored: footer.checksum, computed: computed) }
        let body = unsafe try Footer.validate(file, kind: kind, supportedVersion: version, verifyChecksum: false)
        var reader = unsafe ByteReader(body)
        let countOffset = reader.offset
        let entryCount = try reader.readVInt()
        guard entryCount <= UInt64(reader.remaining / minimumEntrySize) else {
            throw .malformed(
                offset: countOffset,
                reason: "\(entryCount) entries cannot fit in the \(reader.remaining) bytes that follow")
        }
        var records: [SearchHistoryRecord] = []
        records.reserveCapacity(Int(entryCount))
        var keys = Set<String>()
        for _ in 0..<entryCount {
            let start = reader.offset
            let text = unsafe try reader.readLengthPrefixed()
            guard let query = unsafe String(validating: text, as: UTF8.self), !query.isEmpty else {
                throw .malformed(offset: start, reason: "a query must be non-empty UTF-8")
            }
            guard keys.insert(query.lowercased()).inserted else {
                throw .malformed(offset: start, reason: "query \"\(query)\" appears twice")
            }
            let countStart = reader.offset
            let count = try reader.readVInt32()
            guard count >= 1 else { throw .malformed(offset: countStart, reason: "a query's count must be at least 1") }
            let micros = Int64(bitPattern: try reader.readU64())
            records.append(SearchHistoryRecord(query: query, count: Int(count), lastUsedMicros: micros))
        }
        guard reader.isAtEnd else {
            throw .malformed(offset: reader.offset, reason: "\(reader.remaining) bytes after the last entry")
        }
        return records
    }

    /// The records stored at `path`, or nil when there is no file there.
    /// - Throws: `IndexError` `.corruption` (naming the file and the byte offset), `.incompatibleFormat`, or `.io`.
    package static func read(path: String) throws(IndexError) -> [SearchHistoryRecord]? {
        let mapped: MappedFile
        do {
            mapped = try MappedFile(path: path)
        } catch {
            if error.errno == ENOENT { return nil }
            throw IndexError(
                .io, "cannot read the search history: \(error)", context: .init(file: path))
        }
        let slice = mapped.slice
        do {
            return unsafe try parse(slice.bytes)
        } catch {
            // The index's advice (restore it or reindex) does not fit a history: say what does.
            var failure = IndexError(format: error, file: path, segment: nil)
            failure.message =
                failure.code == .incompatibleFormat
                ? "\(path): \(error); open it with the Loupe version that wrote it, or delete it to start afresh"
                : "\(path): \(error); the search history is damaged: delete the file to start an empty one"
            throw failure
        }
    }

    /// Replaces the file at `path` by one holding `records`, durably: a temporary file beside it, fsync'd, renamed
    /// over it, then an fsync of the folder.
    /// - Throws: `IndexError` `.io`, naming the file.
    package static func write(_ records: [SearchHistoryRecord], path: String) throws(IndexError) {
        let (folder, name) = split(path)
        do {
            let directory = try MmapDirectory(path: folder, create: false)
            try directory.writeAtomically(name, serialize(records))
            try directory.syncDirectory()
        } catch {
            var failure = IndexError(storage: error, file: path)
            failure.message = "cannot write the search history: " + failure.message
            if failure.code == .notFound { failure.code = .io }
            throw failure
        }
    }

    /// The folder and the file name of `path` ("." for a bare name).
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
