import Loupe
import LoupeCodec
import TestSupport
import Testing

@Suite struct PostingsTests {
    struct TermData {
        var docs: [UInt32]
        var tfs: [UInt32]
        var positions: [[UInt32]]
    }

    private func randomTerm(_ rng: inout SplitMix64, maxDoc: Int, withPositions: Bool) -> TermData {
        let density = Double.random(in: 0.001...1, using: &rng)
        var docs: [UInt32] = []
        for d in 0..<maxDoc where Double.random(in: 0...1, using: &rng) < density { docs.append(UInt32(d)) }
        if docs.isEmpty { docs = [UInt32(Int.random(in: 0..<maxDoc, using: &rng))] }
        let tfs = docs.map { _ in
            UInt32(
                Int.random(in: 0...10, using: &rng) == 0
                    ? Int.random(in: 1...400, using: &rng) : Int.random(in: 1...3, using: &rng))
        }
        let positions: [[UInt32]] =
            withPositions
            ? tfs.map { tf in
                var p: UInt32 = 0
                return (0..<tf).map { _ in
                    p += UInt32.random(in: 1...50, using: &rng)
                    return p
                }
            } : []
        return TermData(docs: docs, tfs: tfs, positions: positions)
    }

    @Test(arguments: 0..<30 as Range<UInt64>)
    func roundTripWithSeeks(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let maxDoc = Int.random(in: 1...2000, using: &rng)
        let record = [IndexRecordOption.basic, .freq, .position][Int(seed % 3)]
        let terms = (0..<5).map { _ in randomTerm(&rng, maxDoc: maxDoc, withPositions: record == .position) }
        let norms = (0..<maxDoc).map { _ in UInt8.random(in: 0...255, using: &rng) }
        var infos: [TermInfo] = []
        let files = try writtenFiles(["p", "q"]) { directory in
            var serializer = PostingsSerializer(
                recordsFreqs: record != .basic, postings: try directory.createFile("p"),
                positions: try directory.createFile("q"))
            for t in terms {
                let deltas = t.positions.flatMap { ps in zip(ps, [0] + ps.dropLast()).map { $0 - $1 } }
                infos.append(
                    t.docs.withUnsafeBufferPointer { d in
                        t.tfs.withUnsafeBufferPointer { f in
                            deltas.withUnsafeBufferPointer { p in
                                norms.withUnsafeBufferPointer { n in
                                    serializer.writeTerm(docs: d, tfs: f, positionDeltas: p, norms: n)
                                }
                            }
                        }
                    })
            }
            try serializer.finish()
        }
        let postings = HeapBytes(files[0])
        let positions = HeapBytes(files[1])
        for (t, info) in zip(terms, infos) {
            #expect(info.docFreq == UInt32(t.docs.count))
            // Full scan.
            let cursor = PostingsCursor(
                file: postings.slice.bytes, info: info, hasFreqs: record != .basic, maxDoc: maxDoc)
            let positionsCursor = PositionsCursor(file: positions.slice.bytes, offset: info.positionsOffset)
            var i = 0
            var scratch = [UInt32](repeating: 0, count: 512)
            var doc = cursor.doc
            while doc != terminatedDoc {
                #expect(doc == t.docs[i], "seed \(seed)")
                #expect(cursor.termFrequency == (record == .basic ? 1 : t.tfs[i]), "seed \(seed)")
                if record == .position {
                    let tf = Int(t.tfs[i])
                    let ok = scratch.withUnsafeMutableBufferPointer {
                        positionsCursor.read(ordinal: cursor.positionsBefore, count: tf, into: $0.baseAddress!)
                    }
                    #expect(ok)
                    #expect(Array(scratch[..<tf]) == t.positions[i], "seed \(seed) doc \(doc)")
                }
                if let bound = cursor.blockBounds(from: doc, through: doc) {
                    #expect(bound.minNorm <= norms[Int(doc)])
                    #expect(bound.maxTF >= min(cursor.termFrequency, 254))
                }
                doc = cursor.advance()
                i += 1
            }
            #expect(i == t.docs.count, "seed \(seed)")
            // Random increasing seeks land on the first document ≥ target.
            let seeker = PostingsCursor(
                file: postings.slice.bytes, info: info, hasFreqs: record != .basic, maxDoc: maxDoc)
            var target: UInt32 = 0
            while true {
                target += UInt32.random(in: 1...300, using: &rng)
                let got = seeker.seek(target)
                let expected = t.docs.first { $0 >= target } ?? terminatedDoc
                #expect(got == expected, "seed \(seed) target \(target)")
                if got == terminatedDoc { break }
            }
        }
    }

    @Test func fieldNormTableMatchesLuceneSmallFloat() {
        let table = FieldNormCode.table
        #expect(Array(table[0...40]) == (0...40).map { UInt32($0) })
        #expect(Array(table[41...48]) == [42, 44, 46, 48, 50, 52, 54, 56])
        #expect(table[49] == 60)
        #expect(table[255] == 2_013_265_944)
        #expect(FieldNormCode.encode(41) == 40)
        #expect(FieldNormCode.encode(43) == 41)
        #expect(FieldNormCode.encode(UInt32.max) == 255)
        for code in 0...255 { #expect(FieldNormCode.encode(table[code]) == UInt8(code)) }
    }
}
