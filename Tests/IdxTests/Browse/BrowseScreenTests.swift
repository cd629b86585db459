import IdxKit
import Loupe
import Testing

/// The screen of `idx browse`, drawn from state and results without a terminal.
@Suite struct BrowseScreenTests {
    private static func view(
        _ folder: TemporaryFolder, _ text: String, facets: [String] = ["genres"]
    ) throws
        -> BrowseView
    {
        let index = try Index(path: folder.subpath("index"))
        var view = BrowseView(titleField: "title", idField: "id", facets: facets)
        view.results = try index.instantSearch(text, facets: facets, suggestions: 5)
        return view
    }

    @Test func inputSuggestionsStatusHitsAndSidebar() throws {
        let folder = try Fixtures.indexedFolder()
        let size = TerminalSize(rows: 10, columns: 60)
        let lines = BrowseScreen.lines(BrowseState(input: "he"), try Self.view(folder, "he"), size: size)
        #expect(lines.count == 10)
        #expect(lines.allSatisfy { $0.text.count == 60 })
        // 60 columns: 42 for the results, " │ ", 15 for the sidebar.
        let main = lines.map { String($0.text.prefix(42)).trimmingTrailingSpaces }
        let sidebar = lines.map { String($0.text.dropFirst(45)).trimmingTrailingSpaces }
        #expect(main.prefix(5) == ["> he", "    heat  2", "2 matches (0.00 ms)", "Heat  m1", "Heat Wave  m3"])
        #expect(main.dropFirst(5).allSatisfy { $0.isEmpty })
        #expect(
            sidebar.prefix(6) == [
                "genres", "Comedy        1", "Crime         1", "Drama         1", "Romance       1", "",
            ])
        #expect(lines.allSatisfy { $0.text.dropFirst(42).hasPrefix(" │ ") })

        #expect(lines[1].text(in: .bold) == "he", "the typed part of a suggestion is bold")
        #expect(lines[3].text(in: .bold) == "Heat", "snippet highlights are bold")
        #expect(lines[4].text(in: .bold) == "Heat")
        #expect(lines[0].text(in: .reverse).isEmpty)
    }

    @Test func theSelectedSuggestionIsReversedAndHistoryMarked() throws {
        let folder = try Fixtures.indexedFolder()
        let index = try Index(path: folder.subpath("index"))
        let history = try SearchHistory(beside: index)
        try history.record("heat wave")
        var view = BrowseView(titleField: "title", idField: "id")
        view.results = try index.instantSearch("he", history: history)
        var state = BrowseState(input: "he")
        _ = state.handle(.down, suggestions: view.results?.suggestions ?? [])
        _ = state.handle(.down, suggestions: view.results?.suggestions ?? [])
        let lines = BrowseScreen.lines(state, view, size: TerminalSize(rows: 6, columns: 40))
        #expect(lines[1].text.hasPrefix("  ↺ heat wave  1"))
        #expect(lines[2].text.hasPrefix("▸   heat  2"))
        #expect(lines[2].text(in: .reverse) == "▸   |he|at|  2")
        #expect(lines[1].text(in: .reverse).isEmpty)
    }

    @Test func emptyInputShowsHelpAndNoticesReplaceTheCount() throws {
        let folder = try Fixtures.indexedFolder()
        let size = TerminalSize(rows: 4, columns: 100)
        let empty = BrowseScreen.lines(BrowseState(), try Self.view(folder, "", facets: []), size: size)
        #expect(
            empty.map { $0.text.trimmingTrailingSpaces }.prefix(2) == [
                ">", "Type to search. ↑↓ pick a suggestion, Enter accepts it or saves the search, Esc quits.",
            ])
        var state = BrowseState(input: "godfathr")
        state.notice = "Saved “godfathr” in the search history."
        let lines = BrowseScreen.lines(state, try Self.view(folder, "godfathr", facets: []), size: size)
        #expect(
            lines.map { $0.text.trimmingTrailingSpaces } == [
                "> godfathr", "    godfather  1", "Saved “godfathr” in the search history.", "The Godfather  m2",
            ])
    }

    @Test func smallTerminalsAndDetailLines() throws {
        let folder = try Fixtures.indexedFolder()
        var view = try Self.view(folder, "he")
        view.detailField = "genres"
        #expect(view.linesPerHit == 2)
        #expect(BrowseScreen.hitLimit(view, size: TerminalSize(rows: 24, columns: 80)) == 8)
        #expect(BrowseScreen.hitLimit(view, size: TerminalSize(rows: 3, columns: 80)) == 1)
        let narrow = BrowseScreen.lines(BrowseState(input: "he"), view, size: TerminalSize(rows: 7, columns: 20))
        #expect(narrow.count == 7)
        #expect(narrow.allSatisfy { $0.text.count == 20 })
        let wide = BrowseScreen.lines(BrowseState(input: "he"), view, size: TerminalSize(rows: 7, columns: 80))
        #expect(wide[4].text.hasPrefix("    Crime  "), "the second field's snippet under the title")
        #expect(BrowseScreen.lines(BrowseState(), view, size: TerminalSize(rows: 0, columns: 80)).isEmpty)
    }

    @Test func framesDrawEveryLineAndPlaceTheCursorAfterTheInput() throws {
        let lines = [
            ScreenLine([ScreenLine.Span("> ", .bold), ScreenLine.Span("he")]),
            ScreenLine([ScreenLine.Span("a\nb\u{1B}[2J", [.bold, .reverse])]),
        ]
        #expect(lines[1].text == "a b [2J", "control characters cannot reach the terminal")
        let frame = BrowseScreen.frame(lines, BrowseState(input: "he"), size: TerminalSize(rows: 2, columns: 80))
        #expect(frame == "\u{1B}[H\u{1B}[1m> \u{1B}[0mhe\r\n\u{1B}[1;7ma b [2J\u{1B}[0m\u{1B}[1;5H")
        #expect(lines[0].fitted(to: 4).text == "> he")
        #expect(lines[0].fitted(to: 3).text == "> h")
        #expect(lines[0].fitted(to: 6).text == "> he  ")
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
