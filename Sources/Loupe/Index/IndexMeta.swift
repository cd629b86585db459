import LoupeCodec

/// The commit point: which segments make up the index, the schema, and the last opstamp.
///
/// Stored as `meta.json`, replaced atomically (write temp, fsync, rename, fsync directory) at each commit, after the
/// commit it replaces is copied to `meta.previous.json`. Both end with a CRC32 of the bytes before it (Docs/FORMAT.md
/// §5), so damage to a commit point is an error, never a silently different index. Segment files listed by neither
/// belong to no commit and are removed by the next writer.
package struct IndexMeta: Sendable, Equatable {
    package struct SegmentMeta: Sendable, Equatable {
        package var id: SegmentID
        package var maxDoc: Int
        /// The deleted-documents file in force, nil while no document of the segment is deleted.
        package var deletes: Deletes? = nil

        package init(id: SegmentID, maxDoc: Int, deletes: Deletes? = nil) {
            self.id = id
            self.maxDoc = maxDoc
            self.deletes = deletes
        }

        /// Documents not deleted.
        package var liveCount: Int { maxDoc - (deletes?.count ?? 0) }
    }

    /// Which deleted-documents file a segment reads, and how many documents it deletes.
    package struct Deletes: Sendable, Equatable {
        package var generation: UInt64
        package var count: Int
    }

    package static let fileName = "meta.json"
    /// The commit point before the last, whose segment files are kept so that it can be restored
    /// (`Index.restorePreviousCommit(path:)`).
    package static let previousFileName = "meta.previous.json"
    package static let formatName = "loupe/2"
    /// The format before commit points carried a checksum: read, never written.
    package static let uncheckedFormatName = "loupe/1"

    package var schema: Schema
    package var segments: [SegmentMeta]
    package var opstamp: UInt64

    package init(schema: Schema, segments: [SegmentMeta] = [], opstamp: UInt64 = 0) {
        self.schema = schema
        self.segments = segments
        self.opstamp = opstamp
    }

    /// Documents in the index's segments, deleted ones not yet merged away included.
    /// - Complexity: O(segments).
    package var maxDoc: Int { segments.reduce(0) { $0 + $1.maxDoc } }

    package func encode() -> [UInt8] {
        let segmentValues: [JSONValue] = segments.map {
            JSONValue.object([
                JSONMember("id", .string(Array($0.id.description.utf8))),
                JSONMember("max_doc", .number(JSONNumber(Int64($0.maxDoc)))),
                JSONMember(
                    "deletes",
                    $0.deletes.map {
                        .object([
                            JSONMember("generation", .number(JSONNumber($0.generation))),
                            JSONMember("count", .number(JSONNumber(Int64($0.count)))),
                        ])
                    } ?? .null),
            ])
        }
        let value = JSONValue.object([
            JSONMember("format", .string(Array(Self.formatName.utf8))),
            JSONMember("opstamp", .number(JSONNumber(opstamp))),
            JSONMember("segments", .array(segmentValues)),
            JSONMember("schema", schema.encode()),
        ])
        var out: [UInt8] = []
        JSONWriter.write(value, into: &out, pretty: true)
        // The object's closing "\n}" gives way to the checksum member, the last thing in the file.
        out.removeLast(2)
        let checksum = CRC32.checksum(out)
        out += Self.checksumPrefix + Array(Self.hex(checksum).utf8) + Self.checksumSuffix
        return out
    }

    /// What comes between the covered bytes and the checksum's eight hex digits, and after them.
    private static let checksumPrefix = Array(",\n  \"checksum\": \"crc32:".utf8)
    private static let checksumSuffix = Array("\"\n}\n".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)
    private static var checksumTailCount: Int { checksumPrefix.count + 8 + checksumSuffix.count }

    /// The checksum a commit point ends with, and how many bytes before it the checksum covers; nil when the file
    /// does not end the way `encode()` ends it.
    private static func storedChecksum(_ bytes: UnsafeRawBufferPointer) -> (value: UInt32, covered: Int)? {
        let covered = bytes.count - checksumTailCount
        guard covered >= 0 else { return nil }
        var at = covered
        for byte in checksumPrefix {
            guard unsafe bytes[at] == byte else { return nil }
            at += 1
        }
        var value: UInt32 = 0
        for _ in 0..<8 {
            guard let digit = hexDigits.firstIndex(of: unsafe bytes[at]) else { return nil }
            value = value << 4 | UInt32(digit)
            at += 1
        }
        for byte in checksumSuffix {
            guard unsafe bytes[at] == byte else { return nil }
            at += 1
        }
        return (value, covered)
    }

    /// Reads a commit point, checking its checksum first.
    /// - Parameters:
    ///   - name: the file's name, for messages: `fileName` or `previousFileName`.
    ///   - location: its path, for the error's context.
    /// - Throws: `IndexError` `.corruption` (with what to do) when the checksum fails or is missing, or the JSON is
    ///   not a commit point; `.incompatibleFormat` for another format.
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, name: String = fileName, location: String
    ) throws(IndexError) -> IndexMeta {
        let remedy =
            name == fileName
            ? "restore the previous commit (Index.restorePreviousCommit(path:), idx recover), a backup, or reindex"
            : "the latest commit (\(fileName)) does not need it; the next commit replaces it"
        func corrupt(_ why: String, at offset: Int? = nil) -> IndexError {
            IndexError(.corruption, "\(name) \(why); \(remedy)", context: .init(file: location, byteOffset: offset))
        }
        let checksum = unsafe storedChecksum(bytes)
        if let checksum {
            let actual = unsafe CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<checksum.covered]))
            guard actual == checksum.value else {
                throw corrupt(
                    "fails its checksum (stored \(hex(checksum.value)), computed \(hex(actual))): it is damaged",
                    at: checksum.covered)
            }
        }
        let json: JSONValue
        do { json = unsafe try JSONParser.parse(bytes) } catch {
            throw corrupt("is not valid JSON (\(error.message))", at: error.offset)
        }
        switch json["format"]?.stringValue {
        case formatName?:
            guard checksum != nil else { throw corrupt("does not end with its checksum: it is damaged") }
        case uncheckedFormatName?:
            break
        default:
            throw IndexError(
                .incompatibleFormat,
                "\(name) is not a \(formatName) index; open it with the Loupe version that wrote it",
                context: .init(file: location))
        }
        guard let schemaValue = json["schema"] else { throw corrupt("has no schema") }
        let schema = try Schema.decode(json: schemaValue)
        guard case .number(let op)? = json["opstamp"], let opstamp = op.uint64 else { throw corrupt("has no opstamp") }
        guard case .array(let items)? = json["segments"] else { throw corrupt("has no segment list") }
        var segments: [SegmentMeta] = []
        for item in items {
            guard let idText = item["id"]?.stringValue, let id = SegmentID(idText),
                case .number(let n)? = item["max_doc"], let maxDoc = n.int64, maxDoc >= 0, maxDoc <= Int64(UInt32.max)
            else { throw corrupt("has a malformed segment entry") }
            var deletes: Deletes?
            if let value = item["deletes"], value != .null {
                guard case .number(let g)? = value["generation"], let generation = g.uint64,
                    case .number(let c)? = value["count"], let count = c.int64, count >= 0, count <= maxDoc
                else { throw corrupt("has a malformed deletes entry for segment \(idText)") }
                deletes = Deletes(generation: generation, count: Int(count))
            }
            segments.append(SegmentMeta(id: id, maxDoc: Int(maxDoc), deletes: deletes))
        }
        return IndexMeta(schema: schema, segments: segments, opstamp: opstamp)
    }

    /// Eight lowercase hex digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
