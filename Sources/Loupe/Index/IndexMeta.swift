import LoupeCodec

/// The commit point: which segments make up the index, the schema, and the last opstamp.
///
/// Stored as `meta.json`, replaced atomically (write temp, fsync, rename, fsync directory) at each commit.
/// Segment files not listed here belong to no commit and are removed by the next writer.
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
    package static let formatName = "loupe/1"

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
        out.append(UInt8(ascii: "\n"))
        return out
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer, location: String) throws(IndexError) -> IndexMeta {
        func corrupt(_ why: String) -> IndexError {
            IndexError(
                .corruption, "\(fileName) \(why); restore it from a backup or reindex", context: .init(file: location))
        }
        let json: JSONValue
        do { json = unsafe try JSONParser.parse(bytes) } catch {
            throw IndexError(
                .corruption, "\(fileName) is not valid JSON (\(error.message)); restore it from a backup or reindex",
                context: .init(file: location, byteOffset: error.offset))
        }
        guard json["format"]?.stringValue == formatName else {
            throw IndexError(
                .incompatibleFormat,
                "\(fileName) is not a \(formatName) index; open it with the Loupe version that wrote it",
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
}
