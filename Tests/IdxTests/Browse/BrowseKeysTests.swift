import IdxKit
import Testing

@Suite struct BrowseKeysTests {
    private func keys(_ bytes: [UInt8]) -> [BrowseKey] {
        var decoder = BrowseKeyDecoder()
        return decoder.feed(bytes) + decoder.flush()
    }

    @Test func textEditingAndControlKeys() {
        #expect(keys(Array("heat".utf8)) == [.text("heat")], "a paste is one key")
        #expect(keys([127, 8, 13, 10, 3, 21]) == [.backspace, .backspace, .enter, .enter, .interrupt, .clearLine])
        #expect(keys([1, 2, 0x61]) == [.text("a")], "other control bytes are skipped")
        #expect(keys(Array("é↺".utf8)) == [.text("é↺")])
        #expect(keys([0xFF, 0x61]) == [.text("a")], "a byte that starts no UTF-8 character is skipped")
    }

    @Test func arrowsInBothCursorModes() {
        #expect(keys([0x1B, 0x5B, 0x41]) == [.up])
        #expect(keys([0x1B, 0x5B, 0x42]) == [.down])
        #expect(keys([0x1B, 0x4F, 0x41, 0x1B, 0x4F, 0x42]) == [.up, .down])
        #expect(keys(Array("\u{1B}[1;5A".utf8)) == [.up], "modifiers are parameters before the final byte")
        #expect(keys(Array("\u{1B}[Cx\u{1B}[3~".utf8)) == [.text("x")], "other sequences are skipped whole")
    }

    @Test func aLoneEscapeWaitsForTheNextByte() {
        var decoder = BrowseKeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.isPending)
        #expect(decoder.feed([0x5B]).isEmpty, "ESC [ is still the start of a sequence")
        #expect(decoder.feed([0x42]) == [.down])
        #expect(!decoder.isPending)

        #expect(decoder.feed([0x61, 0x1B]) == [.text("a")])
        #expect(decoder.flush() == [.escape], "no more bytes came: Esc alone")
        #expect(!decoder.isPending)
        #expect(decoder.feed([0x1B, 0x78]) == [.escape, .text("x")], "ESC then a letter is Esc, then the letter")
        #expect(decoder.feed([0x1B, 0x1B]) == [.escape])
        #expect(decoder.flush() == [.escape])
    }

    @Test func aCharacterSplitAcrossReadsIsKept() {
        var decoder = BrowseKeyDecoder()
        let bytes = Array("é".utf8)
        #expect(decoder.feed(bytes.prefix(1)).isEmpty)
        #expect(decoder.feed(bytes.dropFirst()) == [.text("é")])
        #expect(decoder.feed(bytes.prefix(1)).isEmpty)
        #expect(decoder.flush().isEmpty, "an unfinished character is dropped")
    }
}
