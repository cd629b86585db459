// Deleted-documents file (`<segment>.<generation>.del`), format v1. Little-endian. Legend: Docs/Formats/LEGEND.md
//
// | maxDoc(u32) | deletedCount(u32) | words: ⌈maxDoc / 64⌉ × u64, bit d of word d/64 set when document d is deleted |
// | footer (16 bytes, kind "DELS") |
//
// Segments are immutable; deletes are not. Each commit that deletes documents of a segment writes a new file for
// it, named by a fresh generation (the commit's opstamp), holding every deletion so far; meta.json names the
// generation in force, so a reader opened on an older commit keeps reading the older file. A segment without
// deletions has no file. Bits past maxDoc are zero.
import LoupeCodec

/// Constants and names of the deleted-documents file.
package enum DeletedDocsFormat {
    package static let kind = Footer.fourCC("DELS")
    package static let version: UInt32 = 1
    package static let headerSize = 8

    package static func fileName(_ segment: SegmentID, generation: UInt64) -> String {
        "\(segment).\(generation).del"
    }

    /// The segment and generation of a deleted-documents file name, nil for any other name.
    package static func parse(_ name: String) -> (segment: SegmentID, generation: UInt64)? {
        let parts = name.split(separator: ".")
        guard parts.count == 3, parts[2] == "del", let id = SegmentID(String(parts[0])),
            let generation = UInt64(parts[1])
        else { return nil }
        return (id, generation)
    }
}
