/// Picks the best window of a text for a snippet: the one holding the most distinct marked terms (then the
/// most marks, then the earliest), centred on its marks and cut at token boundaries.
struct SnippetFragmenter {
    /// A marked byte range of the text and the number of the term it stands for (distinct terms count more than
    /// repeats).
    struct Mark {
        var from: Int
        var to: Int
        var term: Int
    }

    /// The text's UTF-8.
    let bytes: ContiguousArray<UInt8>
    /// The byte range of each token, in order.
    let tokens: [Range<Int>]
    /// Marks' term numbers are below this.
    let distinctTerms: Int

    func fragment(_ allMarks: [Mark], maxChars: Int) -> Snippet {
        let utf8 = bytes
        // Scalar index of every byte offset, so windows are measured in characters, not bytes.
        var scalarAt = [Int](repeating: 0, count: utf8.count + 1)
        var scalars = 0
        for (i, byte) in utf8.enumerated() {
            scalarAt[i] = scalars
            if byte & 0xC0 != 0x80 { scalars += 1 }
        }
        scalarAt[utf8.count] = scalars
        let marks = Self.disjoint(allMarks)

        // Disjoint marks sorted by start end in order too, so a window stops at the first mark past its reach.
        var best = (score: -1.0, first: 0, last: 0)
        var seenIn = [Int](repeating: -1, count: distinctTerms)
        for i in marks.indices {
            var terms = 0
            var last = i
            for j in i..<marks.count {
                guard scalarAt[marks[j].to] - scalarAt[marks[i].from] <= maxChars else { break }
                if seenIn[marks[j].term] != i {
                    seenIn[marks[j].term] = i
                    terms += 1
                }
                last = j
            }
            let score = Double(terms) + 0.01 * Double(last - i + 1)
            if score > best.score { best = (score, i, last) }
        }
        // Centre the window on its marks, then cut at token boundaries inside it.
        let markStart = scalarAt[marks[best.first].from]
        let markEnd = scalarAt[marks[best.last].to]
        var start = max(0, markStart - max(0, maxChars - (markEnd - markStart)) / 2)
        let end = min(scalars, max(markEnd, start + maxChars))
        start = max(0, min(start, end - maxChars))
        var fromByte = marks[best.first].from
        if start > 0 {
            if let t = tokens.first(where: {
                scalarAt[$0.lowerBound] >= start && $0.lowerBound <= marks[best.first].from
            }) {
                fromByte = t.lowerBound
            }
        } else {
            fromByte = 0
        }
        var toByte = marks[best.last].to
        if end >= scalars {
            toByte = utf8.count
        } else if let t = tokens.last(where: {
            scalarAt[$0.upperBound] <= end && $0.upperBound >= marks[best.last].to
        }) {
            toByte = t.upperBound
        }
        let fragment = String(decoding: utf8[fromByte..<toByte], as: UTF8.self)
        var highlights: [Range<String.Index>] = []
        for mark in marks[best.first...best.last] {
            let lower = fragment.utf8.index(fragment.startIndex, offsetBy: mark.from - fromByte)
            let upper = fragment.utf8.index(fragment.startIndex, offsetBy: mark.to - fromByte)
            highlights.append(lower..<upper)
        }
        return Snippet(text: fragment, highlights: highlights)
    }

    /// Marks sorted by start with overlaps merged (a phrase mark swallows the term marks inside it).
    private static func disjoint(_ marks: [Mark]) -> [Mark] {
        var out: [Mark] = []
        for mark in marks.sorted(by: { $0.from < $1.from }) {
            if let last = out.last, mark.from < last.to {
                out[out.count - 1].to = max(last.to, mark.to)
            } else {
                out.append(mark)
            }
        }
        return out
    }
}
