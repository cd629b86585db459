import Foundation
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
        let meta = IndexMeta.SegmentMeta(id: writer.id, maxDoc: 40)
        let directory = RAMDirectory()
        try! SegmentSerializer.write(writer, to: directory)
        let files = SegmentComponent.allCases.map { ($0, try! directory.contents($0.fileName(meta.id))) }
        return (Dictionary(uniqueKeysWithValues: files), meta)
    }()

    /// Opens the segment in `directory` with `component` replaced by `bytes` and runs `queries` over `schema`;
    /// returns how many opens and searches threw.
    private static func openAndSearch(
        _ directory: RAMDirectory, _ meta: IndexMeta.SegmentMeta, _ component: SegmentComponent, _ bytes: [UInt8],
        schema: Schema, queries: [String], defaultFields: [String]
    ) -> Int {
        try! directory.writeAtomically(component.fileName(meta.id), bytes)
        let reader: SegmentReader
        do {
            reader = try SegmentReader(
                directory: directory, meta: meta, schema: schema, verifyChecksums: false, storeCache: DocStoreCache())
        } catch {
            #expect(error.code == .corruption || error.code == .incompatibleFormat, "\(error)")
            #expect(error.context.file == component.fileName(meta.id), "\(error)")
            return 1
        }
        let searcher = Searcher(schema: schema, segments: [reader], analyzers: .builtIn)
        var errors = 0
        for text in queries {
            do {
                let query = try searcher.parseQuery(text, defaultFields: defaultFields)
                _ = try searcher.search(query, limit: 5)
                _ = try searcher.count(query)
            } catch {
                #expect(error.code == .corruption, "\(text): \(error)")
                errors += 1
            }
        }
        return errors
    }

    /// Each damaged copy of the segment's `component` (at `offsets`) opened and searched; returns how many opens
    /// and searches threw.
    private static func damage(
        _ segment: (files: [SegmentComponent: [UInt8]], meta: IndexMeta.SegmentMeta), _ component: SegmentComponent,
        at offsets: some Sequence<Int>, schema: Schema, queries: [String], defaultFields: [String]
    ) throws -> Int {
        let directory = RAMDirectory()
        for (kind, file) in segment.files { try directory.writeAtomically(kind.fileName(segment.meta.id), file) }
        let original = try #require(segment.files[component])
        func run(_ bytes: [UInt8]) -> Int {
            openAndSearch(
                directory, segment.meta, component, bytes, schema: schema, queries: queries,
                defaultFields: defaultFields)
        }
        #expect(run(original) == 0)
        var failures = 0
        for offset in offsets {
            for damaged in [0x00, 0xFF, original[offset] ^ UInt8(1 << (offset % 8))] where damaged != original[offset] {
                var bytes = original
                bytes[offset] = damaged
                failures += run(bytes)
            }
        }
        return failures
    }

    @Test(arguments: [SegmentComponent.terms, .fieldNorms])
    func everyDamagedByteIsAnErrorOrAnAnswer(component: SegmentComponent) throws {
        let bytes = try #require(Self.segment.files[component]).count
        let failures = try Self.damage(
            Self.segment, component, at: 0..<bytes, schema: Self.schema, queries: Self.queries, defaultFields: ["title"]
        )
        // Most damage inside a block surfaces as an error: the test would pass vacuously if none did.
        #expect(failures > 0)
    }

    /// The same for a version 1 segment (the fixture's first), sampled to keep the test short: every 5th byte of
    /// its norms columns and every 97th of its 90 KB dictionary, and each of the last bytes of both (the block index,
    /// the first keys and the directories).
    @Test(arguments: [SegmentComponent.terms, .fieldNorms])
    func damagedVersion1FilesAreErrorsOrAnswers(component: SegmentComponent) throws {
        let path = FixturePaths.loupeTestFixtures + "/v1"
        let meta = IndexMeta.SegmentMeta(id: try #require(SegmentID("7b39397a1c9e5f18af3528e4b9358c57")), maxDoc: 150)
        var files: [SegmentComponent: [UInt8]] = [:]
        for kind in SegmentComponent.allCases {
            files[kind] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "/" + kind.fileName(meta.id))))
        }
        let bytes = try #require(files[component]).count
        let (stride, tail) = component == .terms ? (97, 2_500) : (5, 600)
        let offsets = Array(Swift.stride(from: 0, to: bytes - tail, by: stride)) + Array((bytes - tail)..<bytes)
        let queries = ["love", "title:lvoe~1", "people:/jo.n/", "genres:Drama"]
        let failures = try Self.damage(
            (files, meta), component, at: offsets, schema: MoviesFixture.schema, queries: queries,
            defaultFields: ["title", "people"])
        #expect(failures > 0)
    }
}
