/// How many typos a word of instant search or suggestions may have, by its length (Typesense's rule): none
/// below `oneTypoFrom` characters, one from there, two from `twoTyposFrom`. A typo is one edit: a character
/// inserted, deleted or replaced, or two neighbours swapped (`jseu` → `jesus` is one typo, as in Lucene).
///
/// ```swift
/// let strict = TypoTolerance(oneTypoFrom: 5, twoTyposFrom: 10)
/// let none: TypoTolerance = .disabled
/// ```
public struct TypoTolerance: Sendable, Hashable {
    /// The shortest word (in characters) that may have one typo.
    public var oneTypoFrom: Int
    /// The shortest word (in characters) that may have two typos.
    public var twoTyposFrom: Int

    /// A budget of one typo from `oneTypoFrom` characters and two from `twoTyposFrom` (Typesense's 4 and 8).
    public init(oneTypoFrom: Int = 4, twoTyposFrom: Int = 8) {
        self.oneTypoFrom = oneTypoFrom
        self.twoTyposFrom = twoTyposFrom
    }

    /// One typo from 4 characters, two from 8.
    public static let `default` = TypoTolerance()

    /// Words match only as typed.
    public static let disabled = TypoTolerance(oneTypoFrom: .max, twoTyposFrom: .max)

    /// The typos a word of `length` characters may have: 0, 1 or 2.
    public func maxTypos(forLength length: Int) -> Int {
        length >= twoTyposFrom ? 2 : length >= oneTypoFrom ? 1 : 0
    }
}
