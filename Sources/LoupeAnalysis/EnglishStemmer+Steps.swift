/// The suffix-stripping steps of Porter2, in the order the algorithm runs them. Each step looks at the
/// end of the word only; R1 and R2 stay as the prelude computed them.
extension EnglishStemmer {
    /// What a rule does once it is the longest match and, for steps 2 to 4, starts in its region.
    enum Action: Sendable {
        /// Replace the suffix with this text.
        case replace(Suffix)
        /// Delete the suffix.
        case delete
        /// Leave the word alone (step 1a `ss`, `us`).
        case keep
        /// Step 1a `ied`, `ies`: `i` after two or more letters, else `ie` (`cries` → `cri`, `ties` → `tie`).
        case iesOrIed
        /// Step 1a `s`: delete if a vowel occurs before the letter preceding it (`gaps` → `gap`, `gas` kept).
        case pluralS
        /// Step 1b `eed`, `eedly`: `ee` in R1, except in `succeed`, `proceed`, `exceed`.
        case eed
        /// Step 1b `ed`, `edly`, `ingly`: delete after a vowel, then tidy the end.
        case verbSuffix
        /// Step 1b `ing`: like ``verbSuffix`` but for `dying`-like words and whole words like `inning`.
        case ing
        /// Step 2 `ogi`: replace with `og` when preceded by `l`.
        case ogi
        /// Step 2 `li`: delete when preceded by a valid li-ending (`c d e g h k m n r t`).
        case li
        /// Step 3 `ative`: delete when in R2 as well.
        case deleteInR2
        /// Step 4 `ion`: delete when preceded by `s` or `t`.
        case ion
    }

    /// Step 1a: possessive apostrophes, then plural `s` endings.
    mutating func step1a() {
        if let (length, _) = longestMatch(Self.apostropheRules) {
            chars.removeLast(length)
        }
        guard let (length, action) = longestMatch(Self.pluralRules) else { return }
        let start = chars.count - length
        switch action {
        case .replace(let replacement):
            replaceSuffix(length: length, with: replacement)
        case .iesOrIed:
            replaceSuffix(length: length, with: start >= 2 ? Self.letterI : Self.lettersIE)
        case .pluralS:
            if start >= 2, chars[..<(start - 1)].contains(where: Self.isVowel) {
                chars.removeLast()
            }
        default:
            return
        }
    }

    /// Step 1b: `eed`, `ed`, `ing` and their `-ly` forms, then tidying the exposed end.
    mutating func step1b() {
        guard let (length, action) = longestMatch(Self.verbRules) else { return }
        let stemEnd = chars.count - length
        switch action {
        case .eed:
            guard stemEnd >= r1 else { return }
            if Self.eedWholeStems.contains(where: { $0.count == stemEnd && hasStem($0, endingAt: stemEnd) }) {
                return
            }
            replaceSuffix(length: length, with: Self.lettersEE)
        case .ing:
            if stemEnd == 2, chars[1] == UInt8(ascii: "y"), !Self.isVowel(chars[0]) {
                replaceSuffix(length: 4, with: Self.lettersIE)
                return
            }
            if Self.ingWholeStems.contains(where: { $0.count == stemEnd && hasStem($0, endingAt: stemEnd) }) {
                return
            }
            deleteVerbSuffix(length: length)
        default:
            deleteVerbSuffix(length: length)
        }
    }

    /// Deletes `ed`, `edly`, `ing`, `ingly` if a vowel precedes them, then restores an `e` (`hoping` →
    /// `hope`), undoubles a final consonant (`hopping` → `hop`) or adds `e` to a short word.
    private mutating func deleteVerbSuffix(length: Int) {
        let start = chars.count - length
        guard chars[..<start].contains(where: Self.isVowel) else { return }
        chars.removeLast(length)
        if longestMatch(Self.restoreERules) != nil {
            replaceSuffix(length: 0, with: Self.letterE)
            return
        }
        if endsWithDoubleConsonant() {
            let isAeoPlusDouble = chars.count == 3 && Self.isAeo(chars[0])
            if !isAeoPlusDouble {
                chars.removeLast()
            }
            return
        }
        if chars.count == r1, endsWithShortSyllable(at: chars.count) {
            replaceSuffix(length: 0, with: Self.letterE)
        }
    }

    /// Step 1c: a final `y` after a non-vowel that is not the first letter becomes `i` (`cry` → `cri`).
    mutating func step1c() {
        let last = chars.count - 1
        guard last >= 2, chars[last] == UInt8(ascii: "y") || chars[last] == UInt8(ascii: "Y"),
            !Self.isVowel(chars[last - 1])
        else { return }
        chars[last] = UInt8(ascii: "i")
    }

    /// Step 2: derivational suffixes in R1 (`ational` → `ate`, `fulness` → `ful`…).
    mutating func step2() {
        applyRegionRule(Self.step2Rules, regionStart: r1)
    }

    /// Step 3: more derivational suffixes in R1 (`icate` → `ic`, `ness` deleted…).
    mutating func step3() {
        applyRegionRule(Self.step3Rules, regionStart: r1)
    }

    /// Step 4: suffixes deleted in R2 (`ement`, `ance`, `ion` after `s`/`t`…).
    mutating func step4() {
        applyRegionRule(Self.step4Rules, regionStart: r2)
    }

    /// Step 5: a final `e` in R2, or in R1 unless after a short syllable; a final `l` in R2 after `l`.
    mutating func step5() {
        let last = chars.count - 1
        guard last >= 0 else { return }
        if chars[last] == UInt8(ascii: "e") {
            if last >= r2 || (last >= r1 && !endsWithShortSyllable(at: last)) {
                chars.removeLast()
            }
        } else if chars[last] == UInt8(ascii: "l") {
            if last >= r2, last >= 1, chars[last - 1] == UInt8(ascii: "l") {
                chars.removeLast()
            }
        }
    }

    /// Applies the longest matching rule of `rules` if its suffix starts in the region.
    private mutating func applyRegionRule(_ table: SuffixTable, regionStart: Int) {
        guard let (length, action) = longestMatch(table) else { return }
        let start = chars.count - length
        guard start >= regionStart else { return }
        switch action {
        case .replace(let replacement):
            replaceSuffix(length: length, with: replacement)
        case .delete:
            chars.removeLast(length)
        case .ogi:
            if start >= 1, chars[start - 1] == UInt8(ascii: "l") {
                replaceSuffix(length: length, with: Self.lettersOG)
            }
        case .li:
            if start >= 1, Self.isValidLiEnding(chars[start - 1]) {
                chars.removeLast(length)
            }
        case .deleteInR2:
            if start >= r2 {
                chars.removeLast(length)
            }
        case .ion:
            if start >= 1, chars[start - 1] == UInt8(ascii: "s") || chars[start - 1] == UInt8(ascii: "t") {
                chars.removeLast(length)
            }
        case .keep, .iesOrIed, .pluralS, .eed, .verbSuffix, .ing:
            return
        }
    }

    /// Whether `chars[end - stem.count..<end]` spells `stem`.
    private func hasStem(_ stem: Suffix, endingAt end: Int) -> Bool {
        guard end >= stem.count else { return false }
        var packed = stem.packed
        for index in (end - stem.count)..<end {
            if chars[index] != UInt8(truncatingIfNeeded: packed) {
                return false
            }
            packed >>= 8
        }
        return true
    }

    /// `bb dd ff gg mm nn pp rr tt` at the end.
    private func endsWithDoubleConsonant() -> Bool {
        let count = chars.count
        guard count >= 2, chars[count - 1] == chars[count - 2] else { return false }
        switch chars[count - 1] {
        case UInt8(ascii: "b"), UInt8(ascii: "d"), UInt8(ascii: "f"), UInt8(ascii: "g"), UInt8(ascii: "m"),
            UInt8(ascii: "n"), UInt8(ascii: "p"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        default:
            return false
        }
    }

    /// `a`, `e` or `o`: before a final double consonant at the start, the double is kept (`add`, `egg`).
    private static func isAeo(_ char: UInt8) -> Bool {
        char == UInt8(ascii: "a") || char == UInt8(ascii: "e") || char == UInt8(ascii: "o")
    }

    /// Porter2's valid li-endings.
    private static func isValidLiEnding(_ char: UInt8) -> Bool {
        switch char {
        case UInt8(ascii: "c"), UInt8(ascii: "d"), UInt8(ascii: "e"), UInt8(ascii: "g"), UInt8(ascii: "h"),
            UInt8(ascii: "k"), UInt8(ascii: "m"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            true
        default:
            false
        }
    }
}
