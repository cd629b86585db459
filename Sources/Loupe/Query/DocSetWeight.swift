/// A constant-score query resolved to the documents it matches in each segment: a union of term postings
/// (expanded prefix, regex, wildcard and term-range queries, exists on fields without fast values), a range
/// or exists test on a fast column, or a test on a text field's norms.
package enum DocSetWeight: Sendable {
    /// Documents holding any of the terms; `infos[i]` are the terms found in segment i.
    case terms(field: Int, hasFreqs: Bool, infos: [[TermInfo]])
    /// Documents with a fast value in `lower...upper` (mapped values).
    case fastRange(field: Int, lower: UInt64, upper: UInt64)
    /// Documents with at least one fast value.
    case fastExists(field: Int)
    /// Documents with at least one token in a text field.
    case normsExist(field: Int)

    /// The set's documents in one segment.
    package func bits(_ segment: SegmentReader, ordinal: Int) -> DocBitSet {
        var bits = DocBitSet(maxDoc: segment.maxDoc)
        switch self {
        case .terms(_, let hasFreqs, let infos):
            for info in infos[ordinal] {
                bits.insert(unsafe PostingsCursor(file: segment.postings.bytes, info: info, hasFreqs: hasFreqs))
            }
        case .fastRange(let field, let lower, let upper):
            guard let column = segment.fast.column(field) else { break }
            for doc in 0..<DocID(segment.maxDoc) {
                for i in column.range(doc) {
                    let v = column.value(at: i)
                    if v >= lower && v <= upper {
                        bits.insert(doc)
                        break
                    }
                }
            }
        case .fastExists(let field):
            guard let column = segment.fast.column(field) else { break }
            for doc in 0..<DocID(segment.maxDoc) where !column.range(doc).isEmpty { bits.insert(doc) }
        case .normsExist(let field):
            guard let norms = segment.norms.column(field) else { break }
            for doc in 0..<DocID(segment.maxDoc) where norms.code(doc) != 0 { bits.insert(doc) }
        }
        return bits
    }
}
