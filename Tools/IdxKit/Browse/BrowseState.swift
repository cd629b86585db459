import Loupe

/// What `idx browse` shows apart from the results: the input line, the highlighted suggestion and a notice.
///
/// Keys change it through `handle`, which says what the command must do next; it holds no index or terminal,
/// so its behaviour is tested key by key.
package struct BrowseState: Equatable {
    /// What the keys ask of the command.
    package enum Action: Equatable {
        /// Nothing changed.
        case none
        /// The input changed: search it again.
        case search
        /// Only the selection changed: draw again.
        case redraw
        /// Enter on the input itself: record it in the search history (then search again, for the suggestions).
        case record(String)
        /// Esc or Ctrl-C: restore the terminal and end.
        case exit
    }

    /// The text typed so far.
    package private(set) var input = ""
    /// The highlighted suggestion, nil while the input line itself is selected.
    package private(set) var selection: Int?
    /// A one-line message shown until the next key, e.g. that a search was saved.
    package var notice: String?

    package init(input: String = "") { self.input = input }

    /// Applies `key`, given the suggestions on screen.
    ///
    /// Up and Down move through the suggestions (Up from the first returns to the input); Enter accepts the
    /// selected one, replacing the input with its text, or else asks to record the input; Backspace and Ctrl-U
    /// edit, and every edit clears the selection.
    package mutating func handle(_ key: BrowseKey, suggestions: [Suggestion]) -> Action {
        notice = nil
        switch key {
        case .text(let text):
            input += text
            selection = nil
            return .search
        case .backspace:
            guard !input.isEmpty else { return .none }
            input.removeLast()
            selection = nil
            return .search
        case .clearLine:
            guard !input.isEmpty else { return .none }
            input = ""
            selection = nil
            return .search
        case .down:
            guard !suggestions.isEmpty else { return .none }
            selection = min((selection ?? -1) + 1, suggestions.count - 1)
            return .redraw
        case .up:
            guard let selected = selection else { return .none }
            selection = selected == 0 ? nil : min(selected, suggestions.count) - 1
            return .redraw
        case .enter:
            if let selected = selection, suggestions.indices.contains(selected) {
                input = suggestions[selected].text
                selection = nil
                return .search
            }
            selection = nil
            return input.allSatisfy(\.isWhitespace) ? .none : .record(input)
        case .escape, .interrupt:
            return .exit
        }
    }
}
