/// tantivy's `AsciiFoldingFilter` (a port of Lucene's `ASCIIFoldingFilter`): replaces letters, digits and
/// symbols outside ASCII by their ASCII look-alikes, `é` → `e`, `ß` → `ss`, `æ` → `ae`, `①` → `1`, `«` → `"`.
///
/// Scalars without an equivalent (CJK, Greek, Cyrillic…) are kept. The table is tantivy's, extracted from
/// the tantivy Python package scalar by scalar (see `AsciiFoldingTable.swift`).
public struct AsciiFoldingFilter: TokenFilter {
    /// Creates the filter.
    public init() {}

    /// Folds every term that is not already ASCII.
    public func filter(_ tokens: inout TokenBuffer) {
        tokens.transformTerms { term, builder in
            AsciiFolding.append(foldingOf: term, to: &builder.bytes)
        }
    }
}

/// The folding table and kernel behind ``AsciiFoldingFilter``.
enum AsciiFolding {
    /// The table in lookup form: sorted scalars, each with a range of replacement bytes.
    struct Table: Sendable {
        /// Folded scalar values, ascending.
        var scalars: [UInt32] = []

        /// `starts[i]..<starts[i + 1]` is the replacement of `scalars[i]` in `bytes`.
        var starts: [Int] = [0]

        /// All replacements, back to back.
        var bytes: [UInt8] = []

        /// The index of `value` in `scalars`, if it folds.
        func index(of value: UInt32) -> Int? {
            var low = 0
            var high = scalars.count
            while low < high {
                let middle = (low + high) / 2
                if scalars[middle] < value {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            return low < scalars.count && scalars[low] == value ? low : nil
        }
    }

    /// Parsed once, on first use, from ``tableSource``.
    static let table: Table = {
        var table = Table()
        for line in tableSource.utf8.split(whereSeparator: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") }) {
            guard let space = line.firstIndex(of: UInt8(ascii: " ")),
                let value = UInt32(String(decoding: line[..<space], as: UTF8.self), radix: 16)
            else { continue }
            table.scalars.append(value)
            table.bytes.append(contentsOf: line[line.index(after: space)...])
            table.starts.append(table.bytes.count)
        }
        return table
    }()

    /// Appends `term` to `output` with every foldable scalar replaced; an all-ASCII term is copied as is,
    /// and invalid UTF-8 bytes are copied unchanged.
    static func append(foldingOf term: Span<UInt8>, to output: inout ContiguousArray<UInt8>) {
        let table = table
        let count = term.count
        var index = 0
        while index < count {
            let byte = term[index]
            if byte < 0x80 {
                output.append(byte)
                index += 1
                continue
            }
            let (scalar, length) = UTF8Scanning.decodeNonASCII(term, at: index)
            if let scalar, let entry = table.index(of: scalar.value) {
                output.append(contentsOf: table.bytes[table.starts[entry]..<table.starts[entry + 1]])
            } else {
                for offset in index..<index + length {
                    output.append(term[offset])
                }
            }
            index += length
        }
    }
}
