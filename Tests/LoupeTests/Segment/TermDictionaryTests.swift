import Loupe
import LoupeAutomata
import LoupeCodec
import TestSupport
import Testing

/// The term dictionary against a sorted array: lookups, cursors from any key and automaton walks, on seeded random
/// term sets of every shape the format has a special case for.
@Suite struct TermDictionaryTests {
    /// Random sorted unique keys over a small alphabet, so prefixes are shared and front coding is exercised.
    private static func randomKeys(
        _ rng: inout SplitMix64, count: Int, alphabet: ClosedRange<UInt8> = 97...100, maxLength: Int = 12
    )
        -> [[UInt8]]
    {
        var keys = Set<[UInt8]>()
        while keys.count < count {
            let length = Int.random(in: 0...maxLength, using: &rng)
            keys.insert((0..<length).map { _ in UInt8.random(in: alphabet, using: &rng) })
        }
        return keys.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// The info the tests store for the i-th key: docFreq, postings and positions offsets all vary, the offsets
    /// increasing as a serializer's do, with gaps of very different sizes now and then.
    private static func info(_ i: Int) -> TermInfo {
        let jumps = UInt64((i + 4) / 7) << 20
        return TermInfo(
            docFreq: UInt32(i % 5 == 0 ? 100_000 + i : i % 3 + 1), postingsOffset: UInt64(i * 13) + jumps,
            positionsOffset: UInt64(i * 29) + 3 * jumps)
    }

    private static func build(
        _ fields: [(Int, [[UInt8]])], blockSize: Int = TermDictionaryFormat.blockSize
    )
        -> FileSlice
    {
        let bytes = try! writtenFile { directory, name in
            var writer = TermDictionaryWriter(try directory.createFile(name), blockSize: blockSize)
            for (field, keys) in fields {
                writer.startField(field)
                for (i, key) in keys.enumerated() {
                    key.withUnsafeBufferPointer { writer.add($0, info(i)) }
                }
                writer.finishField(documentCount: 0)
            }
            try writer.finish()
        }
        return HeapBytes(bytes).slice
    }

    /// Every term from `cursor` on.
    private static func drain(_ cursor: inout FieldTermDictionary.TermCursor) throws -> [[UInt8]] {
        var seen: [[UInt8]] = []
        while cursor.isValid {
            seen.append(cursor.keyBytes)
            _ = try cursor.next()
        }
        return seen
    }

    /// Lookups of every key and of probes around them, and a scan from each probe, against the sorted keys.
    private static func expectAgreement(
        _ keys: [[UInt8]], _ probes: [[UInt8]], blockSize: Int, _ comment: Comment
    )
        throws
    {
        let reader = try TermDictionaryReader(
            file: build([(3, keys), (7, [[1], [2]])], blockSize: blockSize), verifyChecksum: true, postingsLength: .max,
            positionsLength: .max)
        let dictionary = try #require(reader.field(3))
        #expect(dictionary.termCount == keys.count, comment)
        for (i, key) in keys.enumerated() {
            #expect(try dictionary.get(key) == info(i), comment)
        }
        var cursor = try dictionary.cursorAtFirst()
        #expect(try drain(&cursor) == keys, comment)
        for probe in probes {
            let expected = keys.firstIndex(of: probe).map(info)
            #expect(try dictionary.get(probe) == expected, "\(comment) probe \(probe)")
            var from = try dictionary.cursor(from: probe)
            #expect(
                try drain(&from) == keys.filter { !$0.lexicographicallyPrecedes(probe) }, "\(comment) probe \(probe)")
        }
        #expect(reader.field(7)?.termCount == 2)
        #expect(reader.field(4) == nil)
    }

    @Test(arguments: 0..<60 as Range<UInt64>)
    func lookupAndIterationAgreeWithSortedKeys(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let blockSize = [1, 2, 3, 32, 64, 200][Int(seed % 6)]
        let keys = Self.randomKeys(&rng, count: Int.random(in: 0...300, using: &rng))
        let probes = (0..<20).map { _ in
            (0..<Int.random(in: 0...5, using: &rng)).map { _ in UInt8.random(in: 96...101, using: &rng) }
        }
        try Self.expectAgreement(keys, probes + [[0x7A, 0x7A], []], blockSize: blockSize, "seed \(seed)")
    }

    /// The docFreq sum of a key range (what counts a range on a single-valued field) equals summing the keys in it.
    @Test(arguments: 0..<30 as Range<UInt64>)
    func docFreqSumsAgreeWithTheKeys(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let blockSize = [1, 2, 3, 32, 64][Int(seed % 5)]
        let keys = Self.randomKeys(&rng, count: Int.random(in: 0...400, using: &rng))
        let reader = try TermDictionaryReader(
            file: Self.build([(0, keys)], blockSize: blockSize), verifyChecksum: true, postingsLength: .max,
            positionsLength: .max)
        let dictionary = try #require(reader.field(0))
        for _ in 0..<40 {
            var bounds = (0..<2).map { _ in
                (0..<Int.random(in: 0...4, using: &rng)).map { _ in UInt8.random(in: 96...101, using: &rng) }
            }
            if Bool.random(using: &rng), !keys.isEmpty { bounds[0] = keys.randomElement(using: &rng)! }
            bounds.sort { $0.lexicographicallyPrecedes($1) }
            let expected = keys.enumerated().filter { _, key in
                !key.lexicographicallyPrecedes(bounds[0]) && !bounds[1].lexicographicallyPrecedes(key)
            }.reduce(UInt64(0)) { $0 + UInt64(Self.info($1.offset).docFreq) }
            #expect(
                try dictionary.docFreqSum(from: bounds[0], through: bounds[1]).docFreqs == expected,
                "seed \(seed) \(bounds)")
        }
        withExtendedLifetime(reader) {}
    }

    @Test(arguments: [1, 2, 32, 4096])
    func edgeShapesRoundTrip(blockSize: Int) throws {
        let everyByte = (0...255).map { [UInt8($0)] }
        let longPrefix = [UInt8](repeating: 0x61, count: 300)
        let sharedLong = (0..<50).map { longPrefix + [UInt8($0)] + [UInt8](repeating: 0x62, count: $0) }
        let huge = [[UInt8](repeating: 0x7A, count: 70_000), [UInt8](repeating: 0x7A, count: 70_000) + [0]]
        let mixedLengths = (0..<40).map { [UInt8](repeating: 0x6D, count: $0 * 3) }
        for (name, keys) in [
            ("empty", []), ("one", [[0x61]]), ("empty key", [[]]), ("every byte", everyByte),
            ("long shared prefixes", sharedLong),
            ("huge", huge), ("escaped lengths", mixedLengths),
        ] as [(String, [[UInt8]])] {
            let probes = [
                [], [0x00], [0xFF], [0xFF, 0xFF], longPrefix, longPrefix + [7], [UInt8](repeating: 0x7A, count: 69_999),
            ]
            try Self.expectAgreement(keys, probes, blockSize: blockSize, "\(name), block size \(blockSize)")
        }
    }

    /// A walk finds exactly the keys the DFA accepts, in order, with their infos and tags.
    @Test(arguments: 0..<40 as Range<UInt64>)
    func automatonWalksAgreeWithFilteringEveryKey(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let blockSize = [1, 3, 32, 64][Int(seed % 4)]
        let keys = Self.randomKeys(&rng, count: Int.random(in: 0...400, using: &rng), alphabet: 97...102, maxLength: 9)
        let reader = try TermDictionaryReader(
            file: Self.build([(0, keys)], blockSize: blockSize), verifyChecksum: true, postingsLength: .max,
            positionsLength: .max)
        let dictionary = try #require(reader.field(0))
        let word = String(
            decoding: (0..<Int.random(in: 1...6, using: &rng)).map { _ in UInt8.random(in: 97...102, using: &rng) },
            as: UTF8.self)
        let patterns: [(String, ScalarNFA)] = [
            ("fuzzy \(word)~1", Levenshtein.automaton(word, distance: 1, transpositions: true, prefix: false)),
            ("fuzzy \(word)~2 prefix", Levenshtein.automaton(word, distance: 2, transpositions: false, prefix: true)),
            ("wildcard \(word)*", Wildcard.automaton(word + "*")),
            ("wildcard *\(word)?", Wildcard.automaton("*" + word + "?")),
            ("regex (a|c)(.)*f", try Regex.compile("(a|c).*f")),
            ("regex [b-e]{2,4}", try Regex.compile("[b-e]{2,4}")),
        ]
        for (name, nfa) in patterns {
            let dfa = ByteDFA(nfa)
            var matches = TermMatches(keepingKeys: true)
            try dictionary.matches(of: dfa, into: &matches)
            let expected = keys.enumerated().compactMap { i, key in dfa.match(key).map { (key, Self.info(i), $0) } }
            #expect(matches.count == expected.count, "seed \(seed) \(name)")
            for (i, (key, info, tag)) in expected.enumerated() where i < matches.count {
                #expect(
                    Array(matches.key(i)) == key && matches.infos[i] == info && matches.tags[i] == tag,
                    "seed \(seed) \(name) match \(i)")
            }
        }
    }

    /// Terms outside ASCII: a walk's dead-state seeks must land on lead and continuation bytes alike.
    @Test func automatonWalksHandleMultibyteTerms() throws {
        let words = ["café", "cafe", "cafés", "naïve", "naive", "日本", "日本語", "東京", "über", "uber", "ünïcödé", "zürich"]
        let keys = words.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        let reader = try TermDictionaryReader(
            file: Self.build([(0, keys)], blockSize: 2), verifyChecksum: true, postingsLength: .max,
            positionsLength: .max)
        let dictionary = try #require(reader.field(0))
        for (name, nfa) in [
            ("fuzzy", Levenshtein.automaton("cafe", distance: 1, transpositions: true, prefix: false)),
            ("fuzzy cjk", Levenshtein.automaton("日本", distance: 1, transpositions: false, prefix: true)),
            ("regex", try Regex.compile("(?i)[nu].*")), ("wildcard", Wildcard.automaton("?ber")),
        ] as [(String, ScalarNFA)] {
            let dfa = ByteDFA(nfa)
            var matches = TermMatches(keepingKeys: true)
            try dictionary.matches(of: dfa, into: &matches)
            #expect(
                (0..<matches.count).map { Array(matches.key($0)) } == keys.filter { dfa.match($0) != nil }, "\(name)")
        }
    }

    @Test func everyTruncationIsAnErrorNotACrash() {
        let file = Self.build([(0, [Array("alpha".utf8), Array("beta".utf8)])])
        for length in 0..<file.count {
            let cut = HeapBytes(Array(file.bytes[..<length])).slice
            #expect(throws: FormatError.self) {
                try TermDictionaryReader(file: cut, verifyChecksum: true, postingsLength: .max, positionsLength: .max)
            }
        }
    }
}
