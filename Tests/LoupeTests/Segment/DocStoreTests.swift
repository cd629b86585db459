import Dispatch
import Foundation
import Loupe
import LoupeCodec
import Synchronization
import TestSupport
import Testing

/// The v2 document store (LZ4 blocks, byte-plane ends), its reader of v1 stores (deflate), the shared block cache,
/// and damaged files.
@Suite struct DocStoreTests {
    static let schema = DocStoreAndFastFieldTests.schema

    static func documents(seed: UInt64, count: Int, maxWords: Int = 60) throws -> [PreparedDocument] {
        var rng = SplitMix64(seed: seed)
        let words = ["alpha", "beta", "gamma", "ünïcödé", "東京", "delta", "epsilon"]
        return try (0..<count).map { i in
            var doc = Document()
            doc.add("n", .u64(UInt64(i)))
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                let text = (0..<Int.random(in: 0...maxWords, using: &rng)).map { _ in rng.pick(words) }
                doc.add("body", .text(text.joined(separator: " ")))
            }
            if rng.chance(1, in: 2) { doc.add("i", .i64(Int64(bitPattern: rng.next()))) }
            if rng.chance(1, in: 3) { doc.add("b", .bool(rng.chance(1, in: 2))) }
            return try schema.prepare(doc)
        }
    }

    /// A document's encoded stored values, as the writer lays them out.
    static func encoded(_ document: PreparedDocument, schema: Schema = schema) -> [UInt8] {
        var out = ByteWriter()
        let stored = document.standaloneValues().filter { schema.fields[$0.field].stored }
        out.writeVInt(UInt64(stored.count))
        for v in stored {
            out.writeVInt(UInt64(v.field))
            StoredValueCoding.write(v.value, type: schema.fields[v.field].type, into: &out)
        }
        return out.bytes
    }

    static func v2Store(_ documents: [PreparedDocument], blockTargetSize: Int) -> [UInt8] {
        var writer = DocStoreWriter(blockTargetSize: blockTargetSize)
        for d in documents { writer.add(d, schema: schema) }
        return try! writtenFile { directory, name in try writer.finish(to: directory.createFile(name)) }
    }

    /// A store in format v1, as the previous build wrote it: raw deflate blocks of `count(u32) ends(u32…) data`.
    static func v1Store(_ documents: [[UInt8]], blockTargetSize: Int) -> [UInt8] {
        let deflater = Deflater(level: 1)
        var out = ByteWriter()
        var index = ByteWriter()
        var data: [UInt8] = []
        var ends: [UInt32] = []
        var firstDoc = 0
        func close(_ next: Int) {
            guard !ends.isEmpty else { return }
            var raw = ByteWriter()
            raw.writeU32(UInt32(ends.count))
            for end in ends { raw.writeU32(end) }
            raw.writeBytes(data)
            let block = raw.bytes.withUnsafeBytes { deflater.compress($0) }
            index.writeU32(UInt32(firstDoc))
            index.writeU64(UInt64(out.count))
            index.writeU32(UInt32(block.count))
            index.writeU32(UInt32(raw.count))
            out.writeBytes(block)
            (data, ends, firstDoc) = ([], [], next)
        }
        for (i, document) in documents.enumerated() {
            data += document
            ends.append(UInt32(data.count))
            if data.count >= blockTargetSize { close(i + 1) }
        }
        close(documents.count)
        let indexOffset = out.count
        out.writeBytes(index.bytes)
        out.writeU32(UInt32(documents.count))
        out.writeU64(UInt64(indexOffset))
        Footer.append(kind: SegmentComponent.store.kind, version: 1, to: &out)
        return out.bytes
    }

    static func open(
        _ bytes: [UInt8], cache: DocStoreCache = DocStoreCache(), verifyChecksum: Bool = true
    ) throws(FormatError) -> DocStoreReader {
        try DocStoreReader(file: HeapBytes(bytes).slice, verifyChecksum: verifyChecksum, cache: cache)
    }

    @Test(arguments: [1, 100, 1_000, 16 * 1024, 1 << 20])
    func roundTripsInAnyFetchOrder(blockTargetSize: Int) throws {
        let docs = try Self.documents(seed: UInt64(blockTargetSize), count: 700)
        let expected = docs.map { Self.encoded($0) }
        let reader = try Self.open(Self.v2Store(docs, blockTargetSize: blockTargetSize))
        #expect(reader.codec == .lz4 && reader.docCount == docs.count)
        var rng = SplitMix64(seed: 5)
        var order = Array(0..<docs.count)
        order.shuffle(using: &rng)
        for doc in order + Array((0..<docs.count).reversed()) + Array(0..<docs.count) {
            let fetched = Array(try reader.documentBytes(DocID(doc), schema: Self.schema))
            #expect(fetched == expected[doc], "block \(blockTargetSize) doc \(doc)")
        }
        for b in 0..<reader.blockCount {
            let block = reader.entry(b)
            let documents = try reader.documents(ofBlock: b, schema: Self.schema)
            #expect(documents.map(Array.init) == Array(expected[block.firstDoc..<(block.firstDoc + block.documents)]))
        }
    }

    @Test func bigDocumentsWidenTheEnds() throws {
        // Data lengths past 2^16 and 2^24 bytes need 3- and 4-byte ends.
        let sizes = [10, 70_000, 300, 17_000_000, 5]
        let docs = try sizes.map { size in
            var doc = Document()
            doc.add("body", .text(String(repeating: "lorem ipsum ", count: size / 12 + 1)))
            return try Self.schema.prepare(doc)
        }
        let reader = try Self.open(Self.v2Store(docs, blockTargetSize: 1 << 30))
        #expect(reader.blockCount == 1)
        for i in docs.indices.reversed() {
            let d = docs[i]
            #expect(Array(try reader.documentBytes(DocID(i), schema: Self.schema)) == Self.encoded(d), "doc \(i)")
        }
        let medium = try Self.open(Self.v2Store(Array(docs.prefix(3)), blockTargetSize: 1 << 30))
        for (i, d) in docs.prefix(3).enumerated() {
            #expect(Array(try medium.documentBytes(DocID(i), schema: Self.schema)) == Self.encoded(d), "doc \(i)")
        }
    }

    @Test func v1StoresStillRead() throws {
        let docs = try Self.documents(seed: 9, count: 400)
        let expected = docs.map { Self.encoded($0) }
        let reader = try Self.open(Self.v1Store(expected, blockTargetSize: 4096))
        #expect(reader.codec == .deflate && reader.blockCount > 5)
        for doc in (0..<docs.count).reversed() {
            #expect(Array(try reader.documentBytes(DocID(doc), schema: Self.schema)) == expected[doc], "doc \(doc)")
        }
        for b in 0..<reader.blockCount { _ = try reader.documents(ofBlock: b, schema: Self.schema) }
    }

    /// The stores of the committed v1 index hold the first 300 movies, in two segments of 150.
    @Test func v1FixtureStoresHoldTheMovies() throws {
        let schema = MoviesFixture.schema
        let movies = try MoviesFixture.lines.prefix(300).map { line in
            Self.encoded(try Array(line.utf8).withUnsafeBytes { try schema.prepareJSON($0) }, schema: schema)
        }
        let directory = FixturePaths.loupeTestFixtures + "/v1"
        let stores = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".store") }
        #expect(stores.count == 2)
        var halves: Set<Int> = []
        for name in stores {
            let bytes = [UInt8](try #require(FileManager.default.contents(atPath: directory + "/" + name)))
            let reader = try Self.open(bytes)
            #expect(reader.codec == .deflate && reader.docCount == 150)
            let documents = try (0..<150).map { Array(try reader.documentBytes(DocID($0), schema: schema)) }
            let half = documents == Array(movies[..<150]) ? 0 : documents == Array(movies[150...]) ? 1 : -1
            #expect(half >= 0, "\(name) holds other documents")
            halves.insert(half)
        }
        #expect(halves == [0, 1])
    }

    @Test func cacheIsSharedBoundedAndReleasedWithItsReaders() throws {
        let cache = DocStoreCache(budgetBytes: 64 * 1024)
        let docs = try Self.documents(seed: 4, count: 3_000)
        let bytes = Self.v2Store(docs, blockTargetSize: 1_024)
        let kept = try Self.open(bytes, cache: cache)
        var dropped: DocStoreReader? = try Self.open(bytes, cache: cache)
        for doc in 0..<docs.count {
            #expect(Array(try kept.documentBytes(DocID(doc), schema: Self.schema)) == Self.encoded(docs[doc]))
            _ = try dropped?.documentBytes(DocID(doc), schema: Self.schema)
            #expect(cache.totalBytes <= cache.budgetBytes)
        }
        let both = cache.blockCount
        #expect(both > 8)
        dropped = nil
        #expect(cache.blockCount < both && cache.blockCount > 0)
        #expect(cache.totalBytes <= cache.budgetBytes)
        // A block larger than a shard's share of the budget is decoded for each fetch and never cached.
        let tiny = DocStoreCache(budgetBytes: 8 * 100)
        let uncached = try Self.open(bytes, cache: tiny)
        for doc in stride(from: 0, to: docs.count, by: 7) {
            #expect(Array(try uncached.documentBytes(DocID(doc), schema: Self.schema)) == Self.encoded(docs[doc]))
        }
        #expect(tiny.blockCount == 0 && tiny.totalBytes == 0)
    }

    @Test func concurrentFetchesAgree() throws {
        let docs = try Self.documents(seed: 8, count: 4_000)
        let expected = docs.map { Self.encoded($0) }
        let cache = DocStoreCache(budgetBytes: 256 * 1024)
        let readers = try [1_000, 16_384].map { try Self.open(Self.v2Store(docs, blockTargetSize: $0), cache: cache) }
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var rng = SplitMix64(seed: UInt64(thread))
            for _ in 0..<3_000 {
                let doc = Int.random(in: 0..<docs.count, using: &rng)
                let reader = readers[Int.random(in: 0..<readers.count, using: &rng)]
                if (try? Array(reader.documentBytes(DocID(doc), schema: Self.schema))) != expected[doc] {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(cache.totalBytes <= cache.budgetBytes)
    }

    /// Every byte of a small store of each format set to 0x00, to 0xFF and with one bit flipped: opening and fetching
    /// either throw `FormatError` or return documents that decode. Without a checksum, a changed byte of a value is
    /// still a well-formed document (only the CRC catches it), so documents are counted, not compared; with it,
    /// opening fails on every change.
    @Test(arguments: [2, 1] as [UInt32])
    func everyDamagedByteIsAnErrorOrADocument(version: UInt32) throws {
        let docs = try Self.documents(seed: 3, count: 14, maxWords: 12)
        let expected = docs.map { Self.encoded($0) }
        let bytes =
            version == 2 ? Self.v2Store(docs, blockTargetSize: 120) : Self.v1Store(expected, blockTargetSize: 120)
        let clean = try Self.open(bytes)
        #expect(clean.blockCount >= 4, "several blocks")
        var outcomes = (openFailed: 0, fetchFailed: 0, changed: 0, intact: 0)
        for position in bytes.indices {
            let damages: [UInt8] = [0x00, 0xFF, bytes[position] ^ (1 << UInt8(position % 8))]
            for damage in damages where damage != bytes[position] {
                var damaged = bytes
                damaged[position] = damage
                #expect(throws: FormatError.self, "v\(version) byte \(position) = \(damage)") { try Self.open(damaged) }
                let reader: DocStoreReader
                do {
                    reader = try Self.open(damaged, verifyChecksum: false)
                } catch {
                    outcomes.openFailed += 1
                    continue
                }
                for doc in 0..<reader.docCount {
                    do {
                        let document = Array(try reader.documentBytes(DocID(doc), schema: Self.schema))
                        _ = try StoredValueCoding.decode(document[...], schema: Self.schema)
                        if document == expected[doc] { outcomes.intact += 1 } else { outcomes.changed += 1 }
                    } catch {
                        outcomes.fetchFailed += 1
                    }
                }
                for b in 0..<reader.blockCount { _ = try? reader.documents(ofBlock: b, schema: Self.schema) }
            }
        }
        #expect(outcomes.openFailed > 0 && outcomes.fetchFailed > 0 && outcomes.intact > 0, "v\(version): \(outcomes)")
    }

    @Test func valuesComeInFieldOrderAndOneFieldIsReadAlone() throws {
        var doc = Document()
        doc.add("b", .bool(true))
        doc.add("n", .u64(7))
        doc.add("body", .text("first"))
        doc.add("n", .u64(9))
        let prepared = try Self.schema.prepare(doc)
        let bytes = Self.encoded(prepared)[...]
        try StoredValueCoding.validate(bytes, schema: Self.schema)
        #expect(try StoredValueCoding.decode(bytes, schema: Self.schema).map(\.field) == [0, 1, 1, 4])
        let ns = try StoredValueCoding.decode(bytes, schema: Self.schema, only: 1)
        #expect(ns.map(\.value) == [.mapped(7), .mapped(9)])
        // The bool's byte is damaged past the value read: reading `n` does not get there.
        let truncated = bytes.dropLast()
        #expect(try StoredValueCoding.decode(truncated, schema: Self.schema, only: 1).count == 2)
        #expect(throws: FormatError.self) { try StoredValueCoding.validate(truncated, schema: Self.schema) }
        var swapped = ByteWriter()
        swapped.writeVInt(2)
        for (field, value) in [(1, 7), (0, 0)] as [(UInt64, UInt64)] {
            swapped.writeVInt(field)
            swapped.writeVInt(value)
        }
        #expect(throws: FormatError.self) { try StoredValueCoding.validate(swapped.bytes[...], schema: Self.schema) }
    }

    @Test func indexEntriesAreValidatedAtOpen() throws {
        let docs = try Self.documents(seed: 1, count: 50)
        let bytes = Self.v2Store(docs, blockTargetSize: 300)
        let reader = try Self.open(bytes)
        let body = bytes.count - Footer.size
        let indexOffset = body - DocStoreFormat.trailerSize - reader.blockCount * DocStoreFormat.indexEntrySize
        func patched(_ entry: Int, _ field: Int, _ value: UInt32) -> [UInt8] {
            var copy = bytes
            let at = indexOffset + entry * DocStoreFormat.indexEntrySize + field
            for k in 0..<4 { copy[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) }
            return copy
        }
        let second = UInt32(reader.entry(1).firstDoc)
        let last = reader.blockCount - 1
        let entry1 = indexOffset + DocStoreFormat.indexEntrySize
        let cases: [(String, [UInt8], Int)] = [
            ("first block not at 0", patched(0, 0, 1), indexOffset),
            // Block 1 then holds no document: the error names its entry.
            ("first documents not rising", patched(2, 0, second), entry1),
            ("last block past docCount", patched(last, 0, 50), indexOffset + last * DocStoreFormat.indexEntrySize),
            ("block past the data", patched(1, DocStoreFormat.entryOffsetField, UInt32(indexOffset)), entry1 + 4),
            ("raw length too large", patched(1, DocStoreFormat.entryRawLengthField, .max), entry1 + 16),
            ("raw length below the header", patched(1, DocStoreFormat.entryRawLengthField, 1), entry1 + 16),
        ]
        for (what, damaged, offset) in cases {
            let error = #expect(throws: FormatError.self, "\(what)") { try Self.open(damaged, verifyChecksum: false) }
            guard case .malformed(let at, _) = error else {
                Issue.record("\(what): expected .malformed, got \(String(describing: error))")
                continue
            }
            #expect(at == offset, "\(what)")
        }
    }
}
