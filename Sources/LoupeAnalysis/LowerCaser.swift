/// tantivy's `LowerCaser`: lowercases every term.
///
/// Each scalar is mapped on its own by its full Unicode lowercase mapping, as Rust's `char::to_lowercase`
/// (so `İ` becomes `i̇`, two scalars) and without the final-sigma rule (`Σ` always becomes `σ`). ASCII is
/// mapped from the byte; only other scalars consult the stdlib's Unicode tables.
public struct LowerCaser: TokenFilter {
    /// Creates the filter.
    public init() {}

    /// Lowercases every term in place.
    public func filter(_ tokens: inout TokenBuffer) {
        tokens.transformTerms { term, builder in
            Lowercasing.append(lowercaseOf: term, to: &builder.bytes)
        }
    }
}

/// The lowercasing kernels shared by ``LowerCaser`` and the fused built-in analyzers.
enum Lowercasing {
    /// The ASCII lowercase of `byte`.
    @inline(__always)
    static func lowercaseASCII(_ byte: UInt8) -> UInt8 {
        UTF8Scanning.isASCIIUppercase(byte) ? byte | 0x20 : byte
    }

    /// Appends the lowercase of an all-ASCII `term` to `output`.
    ///
    /// - Precondition: every byte of `term` is ASCII.
    static func append(lowercaseOfASCII term: Span<UInt8>, to output: inout ContiguousArray<UInt8>) {
        for index in term.indices {
            output.append(lowercaseASCII(term[index]))
        }
    }

    /// Appends the lowercase of `term` to `output`; invalid UTF-8 bytes are copied unchanged.
    static func append(lowercaseOf term: Span<UInt8>, to output: inout ContiguousArray<UInt8>) {
        let count = term.count
        var index = 0
        while index < count {
            let byte = term[index]
            if byte < 0x80 {
                output.append(lowercaseASCII(byte))
                index += 1
                continue
            }
            let (scalar, length) = UTF8Scanning.decodeNonASCII(term, at: index)
            if let scalar, scalar.properties.changesWhenLowercased {
                output.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            } else {
                for offset in index..<index + length {
                    output.append(term[offset])
                }
            }
            index += length
        }
    }
}
