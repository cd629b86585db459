import IdxKit
import Loupe
import Testing

@Suite struct BrowseStateTests {
    private static func suggestion(_ text: String, _ source: Suggestion.Source = .index) -> Suggestion {
        Suggestion(text: text, count: 1, source: source, matchedRange: text.startIndex..<text.endIndex, typos: 0)
    }

    private let suggestions = [suggestion("heat wave", .history), suggestion("heat")]

    @Test func editingSearchesAgain() {
        var state = BrowseState()
        #expect(state.handle(.text("he"), suggestions: []) == .search)
        #expect(state.handle(.text("é"), suggestions: []) == .search)
        #expect(state.input == "heé")
        #expect(state.handle(.backspace, suggestions: []) == .search)
        #expect(state.input == "he")
        #expect(state.handle(.clearLine, suggestions: []) == .search)
        #expect(state.input.isEmpty)
        #expect(state.handle(.backspace, suggestions: []) == .none)
        #expect(state.handle(.clearLine, suggestions: []) == .none)
    }

    @Test func arrowsMoveThroughTheSuggestions() {
        var state = BrowseState(input: "he")
        #expect(state.handle(.up, suggestions: suggestions) == .none)
        #expect(state.handle(.down, suggestions: suggestions) == .redraw)
        #expect(state.selection == 0)
        #expect(state.handle(.down, suggestions: suggestions) == .redraw)
        #expect(state.handle(.down, suggestions: suggestions) == .redraw)
        #expect(state.selection == 1, "the last one stays selected")
        #expect(state.handle(.up, suggestions: suggestions) == .redraw)
        #expect(state.handle(.up, suggestions: suggestions) == .redraw)
        #expect(state.selection == nil, "up from the first returns to the input")
        #expect(state.handle(.down, suggestions: []) == .none)
        #expect(state.handle(.down, suggestions: suggestions) == .redraw)
        #expect(state.handle(.text("a"), suggestions: suggestions) == .search)
        #expect(state.selection == nil, "typing returns to the input")
    }

    @Test func enterAcceptsTheSelectionOrRecordsTheInput() {
        var state = BrowseState(input: "he")
        _ = state.handle(.down, suggestions: suggestions)
        _ = state.handle(.down, suggestions: suggestions)
        #expect(state.handle(.enter, suggestions: suggestions) == .search)
        #expect(state.input == "heat")
        #expect(state.selection == nil)
        #expect(state.handle(.enter, suggestions: suggestions) == .record("heat"))
        state.notice = "saved"
        #expect(state.handle(.down, suggestions: suggestions) == .redraw)
        #expect(state.notice == nil, "a notice lasts until the next key")

        var blank = BrowseState(input: "  ")
        #expect(blank.handle(.enter, suggestions: []) == .none)
    }

    @Test func escapeAndControlCExit() {
        var state = BrowseState(input: "he")
        #expect(state.handle(.escape, suggestions: suggestions) == .exit)
        #expect(state.handle(.interrupt, suggestions: []) == .exit)
    }
}
