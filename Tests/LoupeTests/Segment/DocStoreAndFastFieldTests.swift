import Foundation
import Loupe
import LoupeCodec
import TestSupport
import Testing

@Suite struct DocStoreAndFastFieldTests {
    static let schema = try! SchemaBuilder()
        .addTextField("body", stored: true)
        .addU64Field("n", stored: true, fast: true)
        .addI64Field("i", stored: true, fast: true)
        .addF64Field("f", stored: true, fast: true)
        .addBoolField("b", stored: true, fast: true)
        .addDateField("d", stored: true, fast: true)
        .build()

    private func randomDocument(_ rng: inout SplitMix64) throws -> PreparedDocument {
        var doc = Document()
        let words = ["alpha", "beta", "gamma", "ünïcödé", "東京", ""]
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            doc.add(
                "body",
                .text(
                    (0..<Int.random(in: 0...400, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(
                        separator: " ")))
        }
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            doc.add("n", .u64(rng.next(bits: Int.random(in: 0...64, using: &rng))))
        }
        if Bool.random(using: &rng) { doc.add("i", .i64(Int64(bitPattern: rng.next()))) }
        if Bool.random(using: &rng) {
            doc.add("f", .f64(Double(Int64.random(in: -1_000_000...1_000_000, using: &rng)) / 7))
        }
        if Bool.random(using: &rng) { doc.add("b", .bool(Bool.random(using: &rng))) }
        if Bool.random(using: &rng) {
            doc.add(
                "d",
                .date(Date(timeIntervalSince1970: Double(Int.random(in: -10_000_000...2_000_000_000, using: &rng)))))
        }
        return try Self.schema.prepare(doc)
    }

    @Test(arguments: 0..<20 as Range<UInt64>)
    func storeAndColumnsRoundTrip(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let docs = try (0..<Int.random(in: 1...600, using: &rng)).map { _ in try randomDocument(&rng) }
        var store = DocStoreWriter()
        var fast = ColumnarWriter(schema: Self.schema)
        for (i, d) in docs.enumerated() {
            store.add(d, schema: Self.schema)
            fast.add(d, doc: DocID(i))
        }
        let storeReader = try DocStoreReader(
            file: HeapBytes(try writtenFile { d, name in try store.finish(to: d.createFile(name)) }).slice,
            verifyChecksum: true, cache: DocStoreCache())
        let fastFile = try writtenFile { d, name in try fast.write(maxDoc: docs.count, to: d.createFile(name)) }
        let fastReader = try ColumnarReader(
            file: HeapBytes(fastFile).slice, maxDoc: docs.count, schema: Self.schema,
            verifyChecksum: true)
        for (i, d) in docs.enumerated() {
            let stored = try storeReader.document(DocID(i), schema: Self.schema)
            #expect(stored.map { $0.field } == d.standaloneValues().map { $0.field }, "seed \(seed) doc \(i)")
            #expect(stored.map { $0.value } == d.standaloneValues().map { $0.value }, "seed \(seed) doc \(i)")
            for field in 1...5 {
                let column = try #require(fastReader.column(field))
                let expected = d.standaloneValues().filter { $0.field == field }.map { v -> UInt64 in
                    guard case .mapped(let m) = v.value else { return 0 }
                    return m
                }
                #expect(column.values(DocID(i)) == expected, "seed \(seed) doc \(i) field \(field)")
            }
        }
    }

    @Test func damagedStoreIsAnErrorNotACrash() throws {
        var rng = SplitMix64(seed: 7)
        var store = DocStoreWriter()
        for _ in 0..<50 { store.add(try randomDocument(&rng), schema: Self.schema) }
        let bytes = try writtenFile { d, name in try store.finish(to: d.createFile(name)) }
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 200)) {
            #expect(throws: FormatError.self) {
                try DocStoreReader(
                    file: HeapBytes(Array(bytes[..<length])).slice, verifyChecksum: true, cache: DocStoreCache())
            }
        }
        for _ in 0..<100 {
            var flipped = bytes
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            flipped[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            #expect(throws: FormatError.self) {
                try DocStoreReader(file: HeapBytes(flipped).slice, verifyChecksum: true, cache: DocStoreCache())
            }
        }
    }

    @Test func numericMappingPreservesOrder() {
        let doubles: [Double] = [-.infinity, -1e300, -2.5, -0.0, 0.0, 1e-300, 3.25, 1e300, .infinity]
        let mapped = doubles.map(NumericMapping.fromF64)
        #expect(mapped == mapped.sorted())
        #expect(NumericMapping.fromF64(-0.0) == NumericMapping.fromF64(0.0))
        for d in doubles where d != 0 { #expect(NumericMapping.toF64(NumericMapping.fromF64(d)) == d) }
        let ints: [Int64] = [.min, -5, -1, 0, 1, .max]
        #expect(ints.map(NumericMapping.fromI64) == ints.map(NumericMapping.fromI64).sorted())
        for i in ints { #expect(NumericMapping.toI64(NumericMapping.fromI64(i)) == i) }
    }

    @Test func rfc3339ParsesAndFormats() {
        #expect(RFC3339.parseMicros("1970-01-01T00:00:00Z".utf8) == 0)
        #expect(RFC3339.parseMicros("2009-01-19T00:00:00Z".utf8) == 1_232_323_200_000_000)
        #expect(RFC3339.parseMicros("2009-01-19T01:00:00+01:00".utf8) == 1_232_323_200_000_000)
        #expect(RFC3339.parseMicros("1969-12-31T23:59:59.5Z".utf8) == -500_000)
        #expect(RFC3339.parseMicros("2023-02-29T00:00:00Z".utf8) == nil)
        #expect(RFC3339.parseMicros("2009-01-19".utf8) == nil)
        #expect(RFC3339.parseMicros("2009-01-19T00:00:00".utf8) == nil)
        #expect(RFC3339.format(micros: 1_232_323_200_000_000) == "2009-01-19T00:00:00Z")
        #expect(RFC3339.format(micros: -500_000) == "1969-12-31T23:59:59.500000Z")
    }
}
