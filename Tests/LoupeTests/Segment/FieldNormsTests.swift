import Loupe
import LoupeCodec
import TestSupport
import Testing

/// Norms columns round-trip at every width the format packs them at, and a damaged directory is an error.
@Suite struct FieldNormsTests {
    /// The norms file of `columns`, written at the default widths.
    private static func serialize(_ columns: [(field: Int, norms: [UInt8], totalTokens: UInt64)]) throws -> [UInt8] {
        try writtenFile { d, name in try FieldNormsSerializer.write(columns, to: d.createFile(name)) }
    }

    /// Codes spanning `range` above `low`: the column needs the smallest width holding `range`.
    private static func column(_ rng: inout SplitMix64, maxDoc: Int, low: UInt8, range: Int) -> [UInt8] {
        (0..<maxDoc).map { _ in low &+ UInt8(Int.random(in: 0...range, using: &rng)) }
    }

    @Test(arguments: 0..<20 as Range<UInt64>)
    func columnsRoundTripAtEveryWidth(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let maxDoc = [0, 1, 7, 8, 9, 1000][Int(seed % 6)] + Int.random(in: 0...3, using: &rng)
        // Ranges that need widths 0, 1, 2, 4 and 8, above a non-zero smallest code, plus the numeric constant.
        let specs: [(low: UInt8, range: Int, width: Int)] = [
            (5, 0, 0), (0, 1, 1), (40, 3, 2), (1, 15, 4), (3, 200, 8), (0, 255, 8),
        ]
        var columns = specs.enumerated().map { i, spec in
            (
                field: i * 2, norms: Self.column(&rng, maxDoc: maxDoc, low: spec.low, range: spec.range),
                totalTokens: UInt64(i * 1000 + 7)
            )
        }
        columns.append((field: 99, norms: FieldNormCode.numericColumn(count: maxDoc), totalTokens: 3))
        let file = HeapBytes(
            try writtenFile { d, name in
                try FieldNormsSerializer.write(columns, widths: FieldNormsFormat.widths, to: d.createFile(name))
            }
        ).slice
        let reader = try FieldNormsReader(file: file, maxDoc: maxDoc, verifyChecksum: true)
        for column in columns {
            let read = try #require(reader.column(column.field))
            #expect(read.totalTokens == column.totalTokens)
            #expect((0..<maxDoc).map { read.code(DocID($0)) } == column.norms, "seed \(seed) field \(column.field)")
            // The narrowest width that holds the codes drawn (a short column may need less than its spec).
            let spread = Int((column.norms.max() ?? 0) - (column.norms.min() ?? 0))
            let width = [0, 1, 2, 4].first { spread < 1 << $0 } ?? 8
            // A document past the column reads as 0, or as the constant of a constant column (which reads nothing).
            let past: UInt8 = width == 0 ? column.norms.first ?? 0 : 0
            #expect(read.code(DocID(maxDoc)) == past && read.code(.max) == past, "seed \(seed) field \(column.field)")
            #expect(read.byteCount == (maxDoc * width + 7) / 8, "seed \(seed) field \(column.field)")
        }
        #expect(reader.column(99)?.byteCount == 0)
        #expect(reader.column(1) == nil)
        // By default a column needing 4 bits is written whole.
        let written = try FieldNormsReader(
            file: HeapBytes(try Self.serialize([columns[3]])).slice, maxDoc: maxDoc, verifyChecksum: true)
        let spread = Int((columns[3].norms.max() ?? 0) - (columns[3].norms.min() ?? 0))
        if spread > 3 { #expect(written.column(columns[3].field)?.byteCount == maxDoc) }
    }

    @Test func damagedDirectoryEntriesAreErrors() throws {
        let columns = [(field: 0, norms: [UInt8](repeating: 3, count: 50) + [1], totalTokens: UInt64(151))]
        let bytes = try Self.serialize(columns)
        // The entry's width byte sits 2 bytes before the end of the directory (then baseCode, directoryOffset, footer).
        let widthAt = bytes.count - Footer.size - 8 - 2
        for width: UInt8 in [3, 5, 9, 255] {
            var damaged = bytes
            damaged[widthAt] = width
            #expect(throws: FormatError.self) {
                try FieldNormsReader(file: HeapBytes(damaged).slice, maxDoc: 51, verifyChecksum: false)
            }
        }
        #expect(throws: FormatError.self) {
            try FieldNormsReader(file: HeapBytes(bytes).slice, maxDoc: 10_000, verifyChecksum: true)
        }
    }
}
