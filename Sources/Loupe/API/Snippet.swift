/// A fragment of a stored text with the query's matches marked.
public struct Snippet: Sendable, Hashable {
    /// The fragment, cut at word boundaries.
    public let text: String
    /// The marked ranges of `text`, in order, not overlapping.
    public let highlights: [Range<String.Index>]

    package init(text: String, highlights: [Range<String.Index>]) {
        self.text = text
        self.highlights = highlights
    }

    /// The fragment with each highlight wrapped in `open` and `close`; with `escapingHTML`, `&`, `<`, `>` and `"`
    /// of the text itself are escaped.
    public func rendered(open: String = "<b>", close: String = "</b>", escapingHTML: Bool = true) -> String {
        var out = ""
        var at = text.startIndex
        func append(_ part: Substring) {
            guard escapingHTML else {
                out += part
                return
            }
            for c in part {
                switch c {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                default: out.append(c)
                }
            }
        }
        for range in highlights {
            append(text[at..<range.lowerBound])
            out += open
            append(text[range])
            out += close
            at = range.upperBound
        }
        append(text[at...])
        return out
    }

    /// The fragment as HTML with `<b>…</b>` around each highlight.
    public var html: String { rendered() }

    /// The start of `text`, cut at a word boundary, with no highlight.
    package static func leading(_ text: String, maxChars: Int) -> Snippet {
        var end = text.startIndex
        var lastBreak = text.startIndex
        var count = 0
        for i in text.indices {
            if count == maxChars { break }
            if text[i].isWhitespace { lastBreak = i }
            count += 1
            end = text.index(after: i)
        }
        if end < text.endIndex && lastBreak > text.startIndex { end = lastBreak }
        return Snippet(text: String(text[..<end]), highlights: [])
    }
}
