/// An optimal alignment of a misspelling with the word intended, under the optimal-string-alignment distance
/// (Damerau–Levenshtein where a transposition of two adjacent characters costs one edit and no substring is edited
/// twice): what the user had typed when they had meant to type the first characters of the word.
///
/// hlnce / hence: h=h, l→e, n=n, c=c, e=e, so after "hen" the user had typed "hln". flopesr / flowers: after
/// "flowe", "flope"; after "flower", "flopes" (the transposition rs→sr is cut in half).
enum EditAlignment {
    /// One step of the alignment: how many characters of the misspelling and of the intended word it consumes.
    struct Step: Equatable {
        var typed: Int
        var intended: Int

        /// A character typed for one of the word: the same (a match) or another (a substitution).
        static let pair = Step(typed: 1, intended: 1)
        static let transposition = Step(typed: 2, intended: 2)
        /// A character typed that the word does not have.
        static let extra = Step(typed: 1, intended: 0)
        /// A character of the word not typed.
        static let missing = Step(typed: 0, intended: 1)
    }

    /// The steps of one optimal alignment, first to last. Where several are optimal, the backtrace (from the end)
    /// prefers a match or substitution, then a transposition, then an extra character, then a missing one.
    ///
    /// - Complexity: O(`typed.count` × `intended.count`).
    static func steps(typed a: [Character], intended b: [Character]) -> [Step] {
        let d = table(a, b)
        let width = b.count + 1
        var steps: [Step] = []
        var (i, j) = (a.count, b.count)
        while i > 0 || j > 0 {
            let here = d[i * width + j]
            if i > 0, j > 0, here == d[(i - 1) * width + j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1) {
                steps.append(.pair)
            } else if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1], here == d[(i - 2) * width + j - 2] + 1 {
                steps.append(.transposition)
            } else if i > 0, here == d[(i - 1) * width + j] + 1 {
                steps.append(.extra)
            } else {
                steps.append(.missing)
            }
            i -= steps[steps.count - 1].typed
            j -= steps[steps.count - 1].intended
        }
        return steps.reversed()
    }

    /// The optimal-string-alignment distance between `typed` and `intended`.
    static func distance(_ typed: String, _ intended: String) -> Int {
        let (a, b) = (Array(typed), Array(intended))
        return table(a, b)[a.count * (b.count + 1) + b.count]
    }

    /// d[i × (b.count + 1) + j]: the distance between `a[..<i]` and `b[..<j]`.
    private static func table(_ a: [Character], _ b: [Character]) -> [Int] {
        let width = b.count + 1
        var d = [Int](repeating: 0, count: (a.count + 1) * width)
        for i in 0...a.count { d[i * width] = i }
        for j in 0...b.count { d[j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                var best = min(d[(i - 1) * width + j] + 1, d[i * width + j - 1] + 1)
                best = min(best, d[(i - 1) * width + j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, d[(i - 2) * width + j - 2] + 1)
                }
                d[i * width + j] = best
            }
        }
        return d
    }

    /// What the user had typed of `misspelling` once they were `count` characters into `intended`: the misspelling's
    /// characters aligned with `intended[..<count]`, extra characters before the last of them included and those
    /// after it left out; a transposition across the cut keeps its first typed character.
    static func typedPrefix(of misspelling: String, intended: String, count: Int) -> String {
        let a = Array(misspelling)
        var typed = 0
        var consumed = 0
        for step in steps(typed: a, intended: Array(intended)) {
            guard consumed < count else { break }
            if consumed + step.intended > count { // a transposition cut in half
                typed += 1
                break
            }
            typed += step.typed
            consumed += step.intended
        }
        return String(a[..<typed])
    }
}
