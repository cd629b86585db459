import Loupe

/// The size of a terminal, in character cells.
package struct TerminalSize: Equatable, Sendable {
    package var rows: Int
    package var columns: Int

    /// What a terminal that cannot tell its size is taken to be.
    package static let fallback = TerminalSize(rows: 24, columns: 80)

    package init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }
}

/// One line of the screen: runs of text, each in one style.
package struct ScreenLine: Equatable {
    /// SGR attributes of a run of text.
    package struct Style: OptionSet, Equatable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        package static let bold = Style(rawValue: 1)
        package static let dim = Style(rawValue: 2)
        package static let reverse = Style(rawValue: 4)
    }

    /// Text in one style; control characters (a stored newline, an ESC) become spaces, so no text can move the
    /// cursor or change the terminal.
    package struct Span: Equatable {
        package let text: String
        package let style: Style

        package init(_ text: some StringProtocol, _ style: Style = []) {
            var clean = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                clean.append(scalar.properties.generalCategory == .control ? " " : scalar)
            }
            self.text = String(clean)
            self.style = style
        }
    }

    package private(set) var spans: [Span]

    package init(_ spans: [Span] = []) { self.spans = spans }

    /// The text without styles, as a terminal shows it.
    package var text: String { spans.map(\.text).joined() }

    /// The text of the runs in `style` (and maybe more attributes), joined by `|`: what a test checks is bold.
    package func text(in style: Style) -> String {
        spans.filter { $0.style.isSuperset(of: style) && !$0.text.isEmpty }.map(\.text).joined(separator: "|")
    }

    /// The line cut or padded with spaces to exactly `width` characters (one cell each; wide characters are
    /// not measured).
    package func fitted(to width: Int) -> ScreenLine {
        var out: [Span] = []
        var remaining = max(0, width)
        for span in spans where remaining > 0 {
            let part = span.text.prefix(remaining)
            remaining -= part.count
            out.append(Span(part, span.style))
        }
        if remaining > 0 { out.append(Span(String(repeating: " ", count: remaining))) }
        return ScreenLine(out)
    }

    static func + (left: ScreenLine, right: ScreenLine) -> ScreenLine { ScreenLine(left.spans + right.spans) }

    /// The line with SGR escapes around each styled run.
    package var ansi: String {
        var out = ""
        for span in spans {
            guard !span.style.isEmpty else {
                out += span.text
                continue
            }
            var codes: [String] = []
            if span.style.contains(.bold) { codes.append("1") }
            if span.style.contains(.dim) { codes.append("2") }
            if span.style.contains(.reverse) { codes.append("7") }
            out += "\u{1B}[" + codes.joined(separator: ";") + "m" + span.text + "\u{1B}[0m"
        }
        return out
    }
}

/// What `idx browse` shows besides its `BrowseState`: the latest results and how to show a hit.
package struct BrowseView {
    /// The answer to the current input; nil before the first search.
    package var results: InstantResults?
    /// How long that search took.
    package var elapsed: Duration = .zero
    /// The field each hit's first line shows (with its matches marked): the first field searched.
    package var titleField: String
    /// A second field searched, shown as a snippet under the title; nil when only one field is searched.
    package var detailField: String?
    /// The schema's id field, shown dimmed after the title.
    package var idField: String?
    /// The facet fields of the sidebar, in order.
    package var facets: [String] = []

    package init(titleField: String, detailField: String? = nil, idField: String? = nil, facets: [String] = []) {
        self.titleField = titleField
        self.detailField = detailField
        self.idField = idField
        self.facets = facets
    }

    /// Lines each hit takes.
    package var linesPerHit: Int { detailField == nil ? 1 : 2 }
}

/// The screen of `idx browse` as a pure function of its state, results and terminal size, so it is tested
/// without a terminal: the input line, up to five suggestions, a status line, the hits, and a facet sidebar.
package enum BrowseScreen {
    /// What the input line starts with.
    package static let prompt = "> "
    /// The most suggestions shown.
    package static let suggestionRows = 5
    /// How history suggestions are marked.
    package static let historyMark = "↺"

    /// How many hits fit under the input, the suggestions and the status line.
    package static func hitLimit(_ view: BrowseView, size: TerminalSize) -> Int {
        max(1, (size.rows - 2 - suggestionRows) / view.linesPerHit)
    }

    /// Exactly `size.rows` lines of exactly `size.columns` characters.
    package static func lines(_ state: BrowseState, _ view: BrowseView, size: TerminalSize) -> [ScreenLine] {
        let sidebarWidth = view.facets.isEmpty ? 0 : min(30, max(12, size.columns / 4))
        let separator = ScreenLine([ScreenLine.Span(" │ ", .dim)])
        let mainWidth = max(1, size.columns - (sidebarWidth == 0 ? 0 : sidebarWidth + 3))
        let main = mainLines(state, view, width: mainWidth)
        let sidebar = sidebarLines(view, width: sidebarWidth)
        return (0..<max(0, size.rows)).map { row in
            let left = (row < main.count ? main[row] : ScreenLine()).fitted(to: mainWidth)
            guard sidebarWidth > 0 else { return left.fitted(to: size.columns) }
            let right = (row < sidebar.count ? sidebar[row] : ScreenLine()).fitted(to: sidebarWidth)
            return (left + separator + right).fitted(to: size.columns)
        }
    }

    /// The bytes that draw `lines` over the whole screen and leave the cursor after the input.
    package static func frame(_ lines: [ScreenLine], _ state: BrowseState, size: TerminalSize) -> String {
        let column = min(prompt.count + state.input.count + 1, max(1, size.columns))
        return "\u{1B}[H" + lines.map(\.ansi).joined(separator: "\r\n") + "\u{1B}[1;\(column)H"
    }

    private static func mainLines(_ state: BrowseState, _ view: BrowseView, width: Int) -> [ScreenLine] {
        var lines = [ScreenLine([ScreenLine.Span(prompt, .bold), ScreenLine.Span(state.input)])]
        let results = view.results
        for (i, suggestion) in (results?.suggestions ?? []).prefix(suggestionRows).enumerated() {
            lines.append(line(suggestion, selected: state.selection == i))
        }
        lines.append(status(state, view))
        guard let results, !state.input.isEmpty else { return lines }
        for hit in results.hits {
            var title = spans(hit.snippet(view.titleField, maxChars: width))
            if title.isEmpty { title = [ScreenLine.Span("(no \(view.titleField))", .dim)] }
            if let id = view.idField.flatMap({ field in hit.document[field].first.map(FacetsCommand.text) }) {
                title.append(ScreenLine.Span("  " + id, .dim))
            }
            lines.append(ScreenLine(title))
            if let field = view.detailField {
                lines.append(ScreenLine([ScreenLine.Span("    ")] + spans(hit.snippet(field, maxChars: width - 4))))
            }
        }
        return lines
    }

    /// `▸ ↺ heat wave  2`: the selected one reversed, the typed part bold, history entries marked.
    private static func line(_ suggestion: Suggestion, selected: Bool) -> ScreenLine {
        let base: ScreenLine.Style = selected ? .reverse : []
        let text = suggestion.text
        let range = suggestion.matchedRange.clamped(to: text.startIndex..<text.endIndex)
        let mark = suggestion.source == .history ? historyMark + " " : "  "
        return ScreenLine([
            ScreenLine.Span((selected ? "▸ " : "  ") + mark, base),
            ScreenLine.Span(text[..<range.lowerBound], base),
            ScreenLine.Span(text[range], base.union(.bold)),
            ScreenLine.Span(text[range.upperBound...], base),
            ScreenLine.Span("  \(suggestion.count)", selected ? base : .dim),
        ])
    }

    private static func status(_ state: BrowseState, _ view: BrowseView) -> ScreenLine {
        if let notice = state.notice { return ScreenLine([ScreenLine.Span(notice, .bold)]) }
        guard let results = view.results, !state.input.isEmpty else {
            return ScreenLine([
                ScreenLine.Span(
                    "Type to search. ↑↓ pick a suggestion, Enter accepts it or saves the search, Esc quits.", .dim)
            ])
        }
        let count = results.totalCount
        return ScreenLine([
            ScreenLine.Span("\(count) match\(count == 1 ? "" : "es") (\(Format.milliseconds(view.elapsed)))", .dim)
        ])
    }

    /// Per facet: its name in bold, then its values with their counts right-aligned, then a blank line.
    private static func sidebarLines(_ view: BrowseView, width: Int) -> [ScreenLine] {
        var lines: [ScreenLine] = []
        for field in view.facets {
            lines.append(ScreenLine([ScreenLine.Span(field, .bold)]))
            for facet in view.results?.facets[field] ?? [] {
                let count = String(facet.count)
                let name = String(FacetsCommand.text(facet.value).prefix(max(0, width - count.count - 1)))
                let gap = String(repeating: " ", count: max(1, width - name.count - count.count))
                lines.append(ScreenLine([ScreenLine.Span(name + gap), ScreenLine.Span(count, .dim)]))
            }
            lines.append(ScreenLine())
        }
        return lines
    }

    /// A snippet as runs: its highlights bold, the rest in `style`.
    private static func spans(_ snippet: Snippet?, style: ScreenLine.Style = []) -> [ScreenLine.Span] {
        guard let snippet else { return [] }
        var spans: [ScreenLine.Span] = []
        var at = snippet.text.startIndex
        for range in snippet.highlights {
            spans.append(ScreenLine.Span(snippet.text[at..<range.lowerBound], style))
            spans.append(ScreenLine.Span(snippet.text[range], style.union(.bold)))
            at = range.upperBound
        }
        spans.append(ScreenLine.Span(snippet.text[at...], style))
        return spans.filter { !$0.text.isEmpty }
    }
}
