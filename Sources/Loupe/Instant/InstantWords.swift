import LoupeAnalysis

/// What an instant-search text asks of one field: its words as the field's analyzer makes them, each with the
/// typos its length allows, the last one a prefix unless the text ends with a separator (`"old ma"` completes
/// "ma"; `"old ma "` does not). The weight builder and the highlighter both read the text through this one type, so
/// they agree on every word.
package struct InstantWords: Sendable, Hashable {
    package struct Word: Sendable, Hashable {
        /// The analyzed term (lowercased by the default analyzer).
        package var term: String
        /// Matched as the start of a term.
        package var isPrefix: Bool
        /// Edits allowed, from the length of the word as typed.
        package var maxTypos: Int
        /// Leading characters a typo may not touch (`TypoTolerance.exactPrefixLength`).
        package var exactPrefix: Int
        /// Where the word is in the text, in UTF-8 offsets (what suggestions keep of the text before the last word).
        package var range: Range<Int>
    }

    package var words: [Word]

    /// The words of `text` for a field analyzed by `analyzer` (nil: a string field, whose one term is the whole
    /// text).
    package init(_ text: String, analyzer: TextAnalyzer?, tolerance: TypoTolerance) {
        let tokens =
            analyzer?.tokens(text)
            ?? (text.isEmpty
                ? [] : [Token(bytes: Array(text.utf8), position: 0, offsetFrom: 0, offsetTo: text.utf8.count)])
        let endsWord = tokens.last.map { $0.offsetTo == text.utf8.count } ?? false
        words = tokens.enumerated().map { i, token in
            let term = String(decoding: token.bytes, as: UTF8.self)
            return Word(
                term: term, isPrefix: endsWord && i == tokens.count - 1,
                maxTypos: tolerance.maxTypos(forLength: term.unicodeScalars.count),
                exactPrefix: tolerance.exactPrefixLength,
                range: token.offsetFrom..<token.offsetTo)
        }
    }
}
