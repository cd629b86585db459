import Loupe
import LoupeAnalysis
import LoupeCodec
import TestSupport
import Testing

/// Every byte of a small segment's `.terms` and `.norms` files set to 0x00, to 0xFF and with one bit flipped, then
/// the segment opened (without the checksum pass, so the damage reaches the parsers) and searched with term, prefix,
/// fuzzy, regex and wildcard queries: each open and each search either answers or throws an `IndexError`, never
/// traps and never hangs. Runs in debug and in release (`swift test -c release --filter DamagedSegmentTests`).
@Suite struct DamagedSegmentTests {
    static let schema = try! SchemaBuilder()
        .addTextField("title", stored: true)
        .addStringField("tag")
        .addU64Field("n")
        .build()

    static let queries = [
        "title:alpha", "tag:red", "n:3", "title:alp*", "title:alpah~1", "title:betta~2", "title:/b.t.*/", "title:*ta",
        "title:g?mma", "alpha beta", "title:[alpha TO beta]", "\"alpha beta\"",
    ]

    /// The files of one segment of 40 documents over 70 words sharing long prefixes: the title field spans three
    /// blocks, so the block index and seeks between blocks are damaged too.
    static let segment: (files: [SegmentComponent: [UInt8]], meta: IndexMeta.SegmentMeta) = {
        let stems = ["alpha", "alphanumeric", "beta", "gamma", "delta", "zeta", "ünïcödé"]
        let words = stems.flatMap { stem in
            ["", "s", "bet", "max", "ray", "ed", "ing", "er", "ers", "ly"].map { stem + $0 }
        }
        var writer = try! SegmentWriter(schema: schema, analyzers: .builtIn)
        for i in 0..<40 {
            var doc = Document()
            doc.add(
                "title", .text((0..<(i % 5 + 2)).map { words[(i * 11 + $0 * 17) % words.count] }.joined(separator: " "))
            )
            doc.add("tag", .text(["red", "green", "blue"][i % 3]))
            if i % 4 != 0 { doc.add("n", .u64(UInt64(i % 6))) }
            writer.add(try! schema.prepare(doc))
        }
        let meta = IndexMeta.SegmentMeta(id: SegmentID(), maxDoc: 40)
        return (SegmentSerializer.serialize(writer), meta)
    }()

    /// Opens the segment with `component` replaced by `bytes` and runs every query; returns how many opens and
    /// searches threw.
    private static func openAndSearch(_ component: SegmentComponent, _ bytes: [UInt8]) -> Int {
        let directory = RAMDirectory()
        for (kind, file) in segment.files {
            try! directory.writeAtomically(kind.fileName(segment.meta.id), kind == component ? bytes : file)
        }
        let reader: SegmentReader
        do {
            reader = try SegmentReader(directory: directory, meta: segment.meta, verifyChecksums: false)
        } catch {
            #expect(error.code == .corruption || error.code == .incompatibleFormat, "\(error)")
            #expect(error.context.file == component.fileName(segment.meta.id), "\(error)")
            return 1
        }
        let searcher = Searcher(schema: schema, segments: [reader], analyzers: .builtIn)
        var errors = 0
        for text in queries {
            do {
                let query = try searcher.parseQuery(text, defaultFields: ["title"])
                _ = try searcher.search(query, limit: 5)
                _ = try searcher.count(query)
            } catch {
                #expect(error.code == .corruption, "\(text): \(error)")
                errors += 1
            }
        }
        return errors
    }

    @Test(arguments: [SegmentComponent.terms, .fieldNorms])
    func everyDamagedByteIsAnErrorOrAnAnswer(component: SegmentComponent) throws {
        let original = try #require(Self.segment.files[component])
        #expect(Self.openAndSearch(component, original) == 0)
        var failures = 0
        for offset in original.indices {
            for damaged in [0x00, 0xFF, original[offset] ^ UInt8(1 << (offset % 8))] where damaged != original[offset] {
                var bytes = original
                bytes[offset] = damaged
                failures += Self.openAndSearch(component, bytes)
            }
        }
        // Most damage inside a block surfaces as an error: the test would pass vacuously if none did.
        #expect(failures > 0)
    }
}
