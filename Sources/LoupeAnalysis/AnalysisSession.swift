/// Runs one ``TextAnalyzer`` over many values, reusing its buffers: the engine's per-document hot path.
///
/// Keep one session per analyzer and indexing thread. After the buffers have grown to the largest
/// value seen, analyzing allocates nothing: terms are handed to the sink as borrowed spans, either of
/// the input itself (already-lowercase ASCII words) or of a reused scratch array.
///
/// ```swift
/// var session = AnalysisSession(analyzer)
/// var position = 0
/// for value in values {
///     let summary = session.analyze(value, startPosition: position) { term, position in
///         postings.add(term, at: position)
///     }
///     position = summary.endPosition + 1  // tantivy's POSITION_GAP between values
/// }
/// ```
public struct AnalysisSession: Sendable {
    /// The analyzer this session runs.
    public let analyzer: TextAnalyzer

    /// The generic pipeline's token buffer; its workspace also serves the fused loops.
    var tokens = TokenBuffer()

    /// Creates a session for `analyzer`.
    public init(_ analyzer: TextAnalyzer) {
        self.analyzer = analyzer
    }

    /// Analyzes one value and hands each indexable term to `sink` with its absolute position.
    ///
    /// Positions are `startPosition` plus the token's ordinal in the value; a token dropped by a filter
    /// leaves its position unused. Terms longer than tantivy's `MAX_TOKEN_LEN` (65,530 bytes) are not
    /// handed out, as tantivy's indexer drops them.
    ///
    /// - Parameters:
    ///   - text: the value's UTF-8 bytes.
    ///   - startPosition: the position of the value's first token within its field.
    ///   - sink: receives each term, valid only during the call, and its position. It cannot stop the
    ///     analysis: a sink that fails records the failure for its caller to check afterwards.
    /// - Returns: the number of terms handed out and the end position, for field norms and the next value.
    /// - Complexity: O(`text.count`), plus O(word length) per stemmed word.
    public mutating func analyze(
        _ text: Span<UInt8>,
        startPosition: Int = 0,
        _ sink: (_ term: Span<UInt8>, _ position: Int) -> Void
    ) -> AnalysisSummary {
        var tokenCount = 0
        var endPosition = startPosition
        run(text) { term, position, _, _ in
            guard term.count <= AnalysisLimits.maxIndexedTokenByteCount else { return }
            let absolute = startPosition + position
            sink(term, absolute)
            tokenCount += 1
            endPosition = max(endPosition, absolute + 1)
        }
        return AnalysisSummary(tokenCount: tokenCount, endPosition: endPosition)
    }

    /// Analyzes one string value, exactly as the `Span` overload does with its UTF-8.
    public mutating func analyze(
        _ text: String,
        startPosition: Int = 0,
        _ sink: (_ term: Span<UInt8>, _ position: Int) -> Void
    ) -> AnalysisSummary {
        // A copy: `String.UTF8View.span` needs macOS 26 / iOS 26, a `ContiguousArray`'s span does not.
        let bytes = ContiguousArray(text.utf8)
        return analyze(bytes.span, startPosition: startPosition, sink)
    }

    /// Runs the pipeline, handing every token (with its value-relative position and byte offsets) to
    /// `emit`, in order. Always inlined so that `emit` is a known closure the loops can inline.
    @inline(__always)
    package mutating func run(
        _ text: Span<UInt8>,
        _ emit: (_ term: Span<UInt8>, _ position: Int, _ offsetFrom: Int, _ offsetTo: Int) -> Void
    ) {
        switch analyzer.pipeline {
        case .words(let stemmed):
            runWords(text, stemmed: stemmed, emit)
        case .raw(let lowercased):
            if lowercased {
                tokens.workspace.term.removeAll(keepingCapacity: true)
                Lowercasing.append(lowercaseOf: text, to: &tokens.workspace.term)
                emit(tokens.workspace.term.span, 0, 0, text.count)
            } else {
                emit(text, 0, 0, text.count)
            }
        case .whitespace:
            var position = 0
            WhitespaceTokenizer.forEachRun(in: text) { start, end in
                emit(text.extracting(start..<end), position, start, end)
                position += 1
            }
        case .custom(let tokenizer, let filters):
            tokens.removeAll()
            tokenizer.tokenize(text, into: &tokens)
            for filter in filters {
                filter.filter(&tokens)
            }
            for entry in tokens.entries {
                emit(
                    tokens.storage.span.extracting(entry.termStart..<entry.termEnd),
                    entry.position,
                    entry.offsetFrom,
                    entry.offsetTo
                )
            }
        }
    }

    /// The fused `default` / `en_stem` loop: one pass over the text, no token buffer.
    ///
    /// An ASCII word without capitals needs no lowercasing, so unless it is stemmed it is handed out
    /// as a slice of the input; other words are lowercased into the workspace term.
    @inline(__always)
    private mutating func runWords(
        _ text: Span<UInt8>,
        stemmed: Bool,
        _ emit: (_ term: Span<UInt8>, _ position: Int, _ offsetFrom: Int, _ offsetTo: Int) -> Void
    ) {
        var position = -1
        SimpleTokenizer.forEachWord(in: text) { start, end, shape in
            position += 1
            guard end - start < AnalysisLimits.defaultTokenByteLimit else { return }
            let word = text.extracting(start..<end)
            if !stemmed, !shape.hasUppercaseASCII, !shape.hasNonASCII {
                emit(word, position, start, end)
                return
            }
            tokens.workspace.term.removeAll(keepingCapacity: true)
            if shape.hasNonASCII {
                Lowercasing.append(lowercaseOf: word, to: &tokens.workspace.term)
            } else {
                Lowercasing.append(lowercaseOfASCII: word, to: &tokens.workspace.term)
            }
            if stemmed {
                tokens.workspace.stemmer.stem(&tokens.workspace.term)
            }
            emit(tokens.workspace.term.span, position, start, end)
        }
    }
}
