/// How many typos a word of instant search or suggestions may have, by its length (Typesense's rule): none
/// below `oneTypoFrom` characters, one from there, two from `twoTyposFrom`. A typo is one edit: a character
/// inserted, deleted or replaced, or two neighbours swapped (`jseu` → `jesus` is one typo, as in Lucene). The
/// first `exactPrefixLength` characters must be typed right (1 by default, as Lucene's spell checker and
/// Elasticsearch's suggesters assume): a typo search then reads only the terms starting with them, a tenth of
/// the dictionary or less; 0 lets a typo touch the first character too.
///
/// ```swift
/// let strict = TypoTolerance(oneTypoFrom: 5, twoTyposFrom: 10)
/// let anywhere = TypoTolerance(exactPrefixLength: 0)
/// let none: TypoTolerance = .disabled
/// ```
public struct TypoTolerance: Sendable, Hashable {
    /// The shortest word (in characters) that may have one typo.
    public var oneTypoFrom: Int
    /// The shortest word (in characters) that may have two typos.
    public var twoTyposFrom: Int
    /// Leading characters a typo may not touch.
    public var exactPrefixLength: Int

    /// A budget of one typo from `oneTypoFrom` characters and two from `twoTyposFrom` (Typesense's 4 and 8),
    /// the first `exactPrefixLength` characters typed right.
    public init(oneTypoFrom: Int = 4, twoTyposFrom: Int = 8, exactPrefixLength: Int = 1) {
        self.oneTypoFrom = oneTypoFrom
        self.twoTyposFrom = twoTyposFrom
        self.exactPrefixLength = exactPrefixLength
    }

    /// One typo from 4 characters, two from 8, the first character typed right.
    public static let `default` = TypoTolerance()

    /// Words match only as typed.
    public static let disabled = TypoTolerance(oneTypoFrom: .max, twoTyposFrom: .max)

    /// Throws unless the lengths are ≥ 1 and the exact prefix ≥ 0.
    package func check() throws(IndexError) {
        guard oneTypoFrom >= 1, twoTyposFrom >= 1, exactPrefixLength >= 0 else {
            throw IndexError(
                .invalidQuery,
                "typo tolerance: oneTypoFrom and twoTyposFrom must be ≥ 1 and exactPrefixLength ≥ 0 (got \(oneTypoFrom), \(twoTyposFrom), \(exactPrefixLength))"
            )
        }
    }

    /// The typos a word of `length` characters may have: 0, 1 or 2.
    public func maxTypos(forLength length: Int) -> Int {
        length >= twoTyposFrom ? 2 : length >= oneTypoFrom ? 1 : 0
    }
}
