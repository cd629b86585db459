/// The Snowball English (Porter2) stemmer, following the algorithm as Snowball 3.1.1 defines it
/// (https://snowballstem.org/algorithms/english/stemmer.html), including the 3.x additions: the `past`,
/// `univers`… region prefixes, the `even`/`cann`/`inn`/`earr`/`herr`/`out` + `ing` exceptions, `ogist`
/// and `lessli`.
///
/// The algorithm counts characters and only ever inspects ASCII letters, so every non-ASCII scalar
/// behaves as one opaque non-vowel. A word with such scalars is stemmed as a byte string where each of
/// them is one placeholder byte (0x80), and the stem is rebuilt with the original scalars in place: no
/// rule ever deletes or reorders a placeholder. Matches PyPI `snowballstemmer` 3.1.1 on the whole
/// `stems.golden.tsv` list.
///
/// The buffers are reused, so stemming allocates nothing once they have grown to the longest word.
struct EnglishStemmer: Sendable {
    /// The word being stemmed, one byte per character; non-ASCII characters are ``placeholder``.
    var chars: ContiguousArray<UInt8> = []

    /// Where a word with placeholders is rebuilt.
    var rebuilt: ContiguousArray<UInt8> = []

    /// Start of region R1: after the first non-vowel that follows a vowel (or after a special prefix).
    var r1 = 0

    /// Start of region R2: R1 computed again inside R1.
    var r2 = 0

    /// Whether the prelude marked a consonant `y` as `Y`, so the postlude must undo it.
    var markedY = false

    /// Stands for one non-ASCII character while stemming.
    static let placeholder: UInt8 = 0x80

    /// Replaces `word` (UTF-8) with its stem.
    mutating func stem(_ word: inout ContiguousArray<UInt8>) {
        var isASCII = true
        for byte in word where byte >= 0x80 {
            isASCII = false
            break
        }
        if isASCII {
            swap(&chars, &word)
            stemChars()
            swap(&chars, &word)
            return
        }
        chars.removeAll(keepingCapacity: true)
        var index = 0
        while index < word.count {
            if word[index] < 0x80 {
                chars.append(word[index])
                index += 1
            } else {
                chars.append(Self.placeholder)
                index += Self.nonASCIICharacterLength(word, at: index)
            }
        }
        stemChars()
        rebuilt.removeAll(keepingCapacity: true)
        // Placeholders keep their order and none is ever deleted, so the n-th placeholder left in `chars`
        // is the n-th non-ASCII character of `word`.
        var source = 0
        for char in chars {
            guard char == Self.placeholder else {
                rebuilt.append(char)
                continue
            }
            while source < word.count, word[source] < 0x80 {
                source += 1
            }
            let length = Self.nonASCIICharacterLength(word, at: source)
            rebuilt.append(contentsOf: word[source..<source + length])
            source += length
        }
        swap(&rebuilt, &word)
    }

    /// The bytes of the non-ASCII character starting at `index`: a lead byte and the continuation bytes
    /// after it. Invalid UTF-8 is segmented the same way, so the rebuild always finds what it replaced.
    private static func nonASCIICharacterLength(_ word: ContiguousArray<UInt8>, at index: Int) -> Int {
        guard index < word.count else { return 0 }
        var end = index + 1
        while end < word.count, UTF8Scanning.isContinuation(word[end]) {
            end += 1
        }
        return end - index
    }

    /// Runs the algorithm on `chars`.
    private mutating func stemChars() {
        if applyException() || chars.count < 3 {
            return
        }
        prelude()
        markRegions()
        step1a()
        step1b()
        step1c()
        step2()
        step3()
        step4()
        step5()
        if markedY {
            for index in chars.indices where chars[index] == UInt8(ascii: "Y") {
                chars[index] = UInt8(ascii: "y")
            }
        }
    }

    /// Words stemmed by a table instead of the rules. Returns whether `chars` was one of them.
    private mutating func applyException() -> Bool {
        // A longer exception cannot end a word equal to a shorter one, so the longest match decides.
        guard let (length, action) = longestMatch(Self.exceptions), length == chars.count else { return false }
        if case .replace(let stem) = action {
            replaceSuffix(length: length, with: stem)
        }
        return true
    }

    /// Drops a leading apostrophe and marks each consonant `y` (initial, or after a vowel) as `Y`.
    private mutating func prelude() {
        if chars.first == UInt8(ascii: "'") {
            chars.removeFirst()
        }
        markedY = false
        for index in chars.indices where chars[index] == UInt8(ascii: "y") {
            if index == 0 || Self.isVowel(chars[index - 1]) {
                chars[index] = UInt8(ascii: "Y")
                markedY = true
            }
        }
    }

    /// Computes R1 and R2; a word starting with one of ``regionPrefixes`` has R1 right after it.
    private mutating func markRegions() {
        r1 = chars.count
        r2 = chars.count
        if let prefixLength = regionPrefixLength() {
            r1 = prefixLength
        } else if let start = regionStart(from: 0) {
            r1 = start
        } else {
            return
        }
        if let start = regionStart(from: r1) {
            r2 = start
        }
    }

    /// The index after the first non-vowel that follows a vowel, searching from `index`.
    private func regionStart(from index: Int) -> Int? {
        var index = index
        while index < chars.count, !Self.isVowel(chars[index]) {
            index += 1
        }
        index += 1
        while index < chars.count, Self.isVowel(chars[index]) {
            index += 1
        }
        return index < chars.count ? index + 1 : nil
    }

    /// The length of the ``regionPrefixes`` entry the word starts with, if any.
    private func regionPrefixLength() -> Int? {
        for index in Self.regionPrefixes.indices where hasPrefix(Self.regionPrefixes[index]) {
            return Self.regionPrefixes[index].count
        }
        return nil
    }

    /// Whether `chars` starts with `prefix`.
    private func hasPrefix(_ prefix: Suffix) -> Bool {
        guard chars.count >= prefix.count else { return false }
        var packed = prefix.packed
        for index in 0..<prefix.count {
            if chars[index] != UInt8(truncatingIfNeeded: packed) {
                return false
            }
            packed >>= 8
        }
        return true
    }

    /// Whether `chars` ends with `suffix`, comparing from the end so that most mismatches cost one test.
    func hasSuffix(_ suffix: Suffix) -> Bool {
        let count = chars.count
        guard count >= suffix.count, chars[count - 1] == suffix.last else { return false }
        var packed = suffix.packed
        for index in (count - suffix.count)..<count {
            if chars[index] != UInt8(truncatingIfNeeded: packed) {
                return false
            }
            packed >>= 8
        }
        return true
    }

    /// Replaces the last `length` characters with `replacement`.
    mutating func replaceSuffix(length: Int, with replacement: Suffix) {
        chars.removeLast(length)
        var packed = replacement.packed
        for _ in 0..<replacement.count {
            chars.append(UInt8(truncatingIfNeeded: packed))
            packed >>= 8
        }
    }

    /// The first suffix of `table` that ends the word, with its action. Tables list suffixes longest
    /// first, so this is Snowball's `among`: the longest match wins, and a failed condition does not fall
    /// back to a shorter one.
    func longestMatch(_ table: SuffixTable) -> (length: Int, action: Action)? {
        guard let last = chars.last else { return nil }
        for index in table.candidates(endingIn: last) where hasSuffix(table.suffixes[index]) {
            return (table.suffixes[index].count, table.actions[index])
        }
        return nil
    }

    /// Snowball's `v`: `a e i o u y`.
    static func isVowel(_ char: UInt8) -> Bool {
        switch char {
        case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"), UInt8(ascii: "u"),
            UInt8(ascii: "y"):
            true
        default:
            false
        }
    }

    /// Snowball's `shortv` ending at `end`: a short syllable (non-vowel, vowel, non-vowel other than
    /// `w`, `x`, `Y`; or vowel, non-vowel as the whole word) or, new in 3.x, a word part ending in `past`.
    func endsWithShortSyllable(at end: Int) -> Bool {
        if end >= 3, !Self.isVowel(chars[end - 1]), !Self.isWXY(chars[end - 1]), Self.isVowel(chars[end - 2]),
            !Self.isVowel(chars[end - 3])
        {
            return true
        }
        if end == 2, !Self.isVowel(chars[1]), Self.isVowel(chars[0]) {
            return true
        }
        return end >= 4 && chars[end - 4] == UInt8(ascii: "p") && chars[end - 3] == UInt8(ascii: "a")
            && chars[end - 2] == UInt8(ascii: "s") && chars[end - 1] == UInt8(ascii: "t")
    }

    /// `w`, `x` and the marker `Y`, which cannot end a short syllable.
    private static func isWXY(_ char: UInt8) -> Bool {
        char == UInt8(ascii: "w") || char == UInt8(ascii: "x") || char == UInt8(ascii: "Y")
    }
}

/// Up to 8 ASCII characters packed into an integer, so that the rule tables hold no arrays.
struct Suffix: Sendable {
    /// Character `k` sits in bits `8k..<8k+8`.
    let packed: UInt64

    /// The number of characters.
    let count: Int

    /// The last character, checked first when matching a word's end.
    let last: UInt8

    /// Packs `text`, which rule tables spell as literals of at most 8 ASCII characters.
    init(_ text: StaticString) {
        var packed: UInt64 = 0
        var count = 0
        for byte in text.description.utf8 {
            packed |= UInt64(byte) << (8 * count)
            count += 1
        }
        precondition(count <= 8, "rule literal longer than 8 characters")
        self.packed = packed
        self.count = count
        last = UInt8(truncatingIfNeeded: packed >> (8 * max(count - 1, 0)))
    }
}

/// One step's rules, each suffix with what the step does when it is the longest match.
///
/// Rules are bucketed by their last character, longest first within a bucket, so a lookup only compares
/// the few suffixes that can end the word. Suffixes and actions sit in parallel arrays so the matching
/// loop reads only the small `Suffix` values.
struct SuffixTable: Sendable {
    /// The suffixes grouped by last character; longest first within a group.
    let suffixes: [Suffix]

    /// `actions[i]` applies when `suffixes[i]` matched.
    let actions: [EnglishStemmer.Action]

    /// `bucketStarts[c]..<bucketStarts[c + 1]` are the suffixes ending in ASCII character `c`.
    let bucketStarts: [Int]

    /// Creates a table from rules listed longest first.
    init(_ rules: [(suffix: StaticString, action: EnglishStemmer.Action)]) {
        let ordered = rules.map { (Suffix($0.suffix), $0.action) }.enumerated().sorted {
            ($0.element.0.last, $0.offset) < ($1.element.0.last, $1.offset)
        }
        suffixes = ordered.map(\.element.0)
        actions = ordered.map(\.element.1)
        var starts = [Int](repeating: suffixes.count, count: 129)
        // Not `enumerated().reversed()`: that picks EnumeratedSequence's BidirectionalCollection conformance,
        // which is macOS 26 / iOS 26 only.
        for index in suffixes.indices.reversed() {
            starts[Int(suffixes[index].last)] = index
        }
        for character in stride(from: 127, through: 0, by: -1) where starts[character] > starts[character + 1] {
            starts[character] = starts[character + 1]
        }
        bucketStarts = starts
    }

    /// The suffixes that end in `character`.
    func candidates(endingIn character: UInt8) -> Range<Int> {
        guard character < 128 else { return 0..<0 }
        return bucketStarts[Int(character)]..<bucketStarts[Int(character) + 1]
    }
}
