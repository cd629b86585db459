import Loupe
import TestSupport
import Testing

/// The postings streams of a segment being indexed: what goes in comes out, stream by stream, across the
/// arena's pages, and the arena reports what it allocated, a page at a time.
@Suite struct ByteStreamArenaTests {
    @Test func streamsReadBackWhatWasAppendedAcrossPages() {
        let arena = ByteStreamArena()
        var random = SplitMix64(seed: 7)
        var streams = (0..<500).map { _ in arena.newStream() }
        var expected = [[UInt32]](repeating: [], count: streams.count)
        // Skewed, as terms are: a few streams take most values, so slabs of every size fill pages.
        for _ in 0..<600_000 {
            let s =
                Int.random(in: 0..<100, using: &random) < 70
                ? Int.random(in: 0..<5, using: &random)
                : Int.random(in: 0..<streams.count, using: &random)
            let value = UInt32.random(in: 0...UInt32.max, using: &random) >> UInt32.random(in: 0..<32, using: &random)
            arena.appendVInt(value, to: &streams[s])
            expected[s].append(value)
        }
        let bytes = expected.joined().reduce(0) {
            $0 + ($1 < 1 << 7 ? 1 : $1 < 1 << 14 ? 2 : $1 < 1 << 21 ? 3 : $1 < 1 << 28 ? 4 : 5)
        }
        #expect(arena.memoryUsage > 2 << 20, "the values span several pages")
        #expect(arena.memoryUsage < bytes + bytes / 4 + (2 << 20), "allocated \(arena.memoryUsage) for \(bytes) bytes")
        for (s, stream) in streams.enumerated() {
            var reader = ByteStreamArena.Reader(stream)
            var read: [UInt32] = []
            while !reader.isAtEnd { read.append(reader.readVInt(arena)) }
            #expect(read == expected[s], "stream \(s)")
        }
    }

    @Test func aSmallArenaStaysSmall() {
        let arena = ByteStreamArena()
        var stream = arena.newStream()
        for i in 0..<1000 { arena.appendVInt(UInt32(i), to: &stream) }
        #expect(arena.memoryUsage < 256 << 10)
    }
}
