import Loupe

/// `idx browse DIR`: a search bar in the terminal, searching again on every key.
struct BrowseCommand: Command {
    static let spec = CommandSpec(
        name: "browse",
        abstract: "Search an index interactively in the terminal, as you type.",
        arguments: [("DIR", "The index folder.")],
        options: [
            OptionSpec(
                name: "facet", valueName: "FIELD", help: "Show the top values of a fast field in a sidebar.",
                isRepeatable: true),
            OptionSpec(
                name: "fields", valueName: "A,B",
                help: "The fields searched (default: the default fields); hits show the first, and the second."),
            OptionSpec(name: "limit", valueName: "N", help: "Show at most N hits (default: as many as fit)."),
            OptionSpec(
                name: "popularity", valueName: "FIELD",
                help: "A fast numeric field ranking equal hits and the suggestions (larger first)."),
        ],
        discussion: """
            Type to search; every word must match, the last one as a prefix, with typos. Up and Down pick a
            suggestion and Enter takes it; Enter on the input saves it in the search history beside the index
            (search-history.bin), whose searches come first among the suggestions. Backspace and Ctrl-U edit;
            Esc or Ctrl-C quits.
              idx browse movies --facet genres --fields title,overview
            """)

    let directory: String
    let facets: [String]
    let fields: [String]
    let limit: Int?
    let popularity: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positionals[0]
        var seen: Set<String> = []
        facets = arguments.list("facet").filter { seen.insert($0).inserted }
        fields = arguments.list("fields")
        limit = try arguments.integer("limit", minimum: 1)
        popularity = arguments.value("popularity")
    }

    func run(_ console: Console) throws(CommandFailure) {
        guard console.out.isTerminal, RawTerminal.isTerminal(console.input) else {
            throw CommandFailure("needs a terminal: run it without redirecting its input or output")
        }
        let index = try openIndex(directory)
        let history = try openHistory(beside: index)
        let searched = fields.isEmpty ? index.schema.searchedByDefault : fields
        guard let titleField = searched.first else {
            throw CommandFailure("the schema has no default fields to search; name some with --fields")
        }
        var view = BrowseView(
            titleField: titleField, detailField: searched.dropFirst().first, idField: index.schema.idField,
            facets: facets)
        // Check the fields before the screen is taken over, so a mistake reads as any other command's.
        _ = try engine(
            index.instantSearch("", fields: searched, limit: 0, facets: facets, popularity: popularity, suggestions: 0))

        let terminal = try RawTerminal(input: console.input, output: 1)
        defer { terminal.restore() }
        var state = BrowseState()
        var decoder = BrowseKeyDecoder()
        var size = terminal.size
        func search() throws(CommandFailure) {
            let clock = ContinuousClock()
            let start = clock.now
            view.results = try engine(
                index.instantSearch(
                    state.input, fields: searched, limit: limit ?? BrowseScreen.hitLimit(view, size: size),
                    facets: facets, facetLimit: size.rows, popularity: popularity,
                    suggestions: BrowseScreen.suggestionRows, history: history))
            view.elapsed = clock.now - start
        }
        try search()
        var needsDrawing = true
        while true {
            if needsDrawing {
                let lines = BrowseScreen.lines(state, view, size: size)
                terminal.draw(BrowseScreen.frame(lines, state, size: size))
                needsDrawing = false
            }
            guard let bytes = terminal.bytes(waitingAtMost: 250) else {
                // Nothing typed: redraw if the window was resized.
                if terminal.size != size {
                    size = terminal.size
                    try search()
                    needsDrawing = true
                }
                continue
            }
            if bytes.isEmpty { return }
            var keys = decoder.feed(bytes)
            // A lone Esc, or the start of an arrow key's sequence: wait briefly for the rest.
            while decoder.isPending {
                guard let more = terminal.bytes(waitingAtMost: 30), !more.isEmpty else {
                    keys += decoder.flush()
                    break
                }
                keys += decoder.feed(more)
            }
            var searchesAgain = false
            for key in keys {
                switch state.handle(key, suggestions: view.results?.suggestions ?? []) {
                case .none: continue
                case .redraw: needsDrawing = true
                case .search: searchesAgain = true
                case .record(let query):
                    do {
                        try history.record(query)
                        state.notice = "Saved “\(query)” in the search history."
                    } catch {
                        state.notice = "Could not save the search: \(error.message)"
                    }
                    searchesAgain = true
                case .exit: return
                }
            }
            if searchesAgain {
                try search()
                needsDrawing = true
            }
        }
    }
}
