/// The rule tables of Porter2 as Snowball 3.1.1 defines them. Each table lists suffixes longest first,
/// which is what makes ``EnglishStemmer/longestMatch(_:)`` pick Snowball's longest match.
extension EnglishStemmer {
    /// Whole words with a fixed stem (`.keep`: the word is its own stem), checked before any rule.
    static let exceptions = SuffixTable([
        ("cosmos", .keep), ("gently", .replace(Suffix("gentl"))), ("singly", .replace(Suffix("singl"))),
        ("andes", .keep), ("atlas", .keep), ("early", .replace(Suffix("earli"))), ("skies", .replace(Suffix("sky"))),
        ("bias", .keep), ("howe", .keep), ("idly", .replace(Suffix("idl"))), ("news", .keep),
        ("only", .replace(Suffix("onli"))), ("skis", .replace(Suffix("ski"))), ("ugly", .replace(Suffix("ugli"))),
        ("sky", .keep),
    ])

    /// Word starts after which R1 begins, whatever the vowels say (`generous` keeps `gener`).
    static let regionPrefixes = [
        Suffix("arsen"), Suffix("commun"), Suffix("emerg"), Suffix("gener"), Suffix("inter"), Suffix("later"),
        Suffix("organ"), Suffix("past"), Suffix("univers"),
    ]

    /// Step 1a, first part: possessives.
    static let apostropheRules = SuffixTable([("'s'", .delete), ("'s", .delete), ("'", .delete)])

    /// Step 1a, second part: plurals.
    static let pluralRules = SuffixTable([
        ("sses", .replace(Suffix("ss"))), ("ied", .iesOrIed), ("ies", .iesOrIed),
        ("ss", .keep), ("us", .keep), ("s", .pluralS),
    ])

    /// Step 1b.
    static let verbRules = SuffixTable([
        ("eedly", .eed), ("ingly", .verbSuffix), ("edly", .verbSuffix),
        ("eed", .eed), ("ing", .ing), ("ed", .verbSuffix),
    ])

    /// Step 1b: stems that keep `eed` when they are the whole rest of the word.
    static let eedWholeStems = [Suffix("succ"), Suffix("proc"), Suffix("exc")]

    /// Step 1b: stems that keep `ing` when they are the whole rest of the word (`inning`, `outing`).
    static let ingWholeStems = [
        Suffix("even"), Suffix("cann"), Suffix("earr"), Suffix("herr"), Suffix("inn"), Suffix("out"),
    ]

    /// Step 1b: endings after which a deleted suffix leaves an `e` (`luxuriated` → `luxuriate`).
    static let restoreERules = SuffixTable([("at", .keep), ("bl", .keep), ("iz", .keep)])

    /// Step 2, in R1.
    static let step2Rules = SuffixTable([
        ("ization", .replace(Suffix("ize"))), ("ational", .replace(Suffix("ate"))),
        ("iveness", .replace(Suffix("ive"))), ("fulness", .replace(Suffix("ful"))),
        ("ousness", .replace(Suffix("ous"))), ("tional", .replace(Suffix("tion"))),
        ("biliti", .replace(Suffix("ble"))), ("lessli", .replace(Suffix("less"))),
        ("fulli", .replace(Suffix("ful"))), ("ousli", .replace(Suffix("ous"))),
        ("entli", .replace(Suffix("ent"))), ("aliti", .replace(Suffix("al"))),
        ("iviti", .replace(Suffix("ive"))), ("alism", .replace(Suffix("al"))),
        ("ation", .replace(Suffix("ate"))), ("ogist", .replace(Suffix("og"))),
        ("enci", .replace(Suffix("ence"))), ("anci", .replace(Suffix("ance"))),
        ("abli", .replace(Suffix("able"))), ("alli", .replace(Suffix("al"))),
        ("izer", .replace(Suffix("ize"))), ("ator", .replace(Suffix("ate"))),
        ("bli", .replace(Suffix("ble"))), ("ogi", .ogi), ("li", .li),
    ])

    /// Step 3, in R1.
    static let step3Rules = SuffixTable([
        ("ational", .replace(Suffix("ate"))), ("tional", .replace(Suffix("tion"))),
        ("icate", .replace(Suffix("ic"))), ("ative", .deleteInR2),
        ("alize", .replace(Suffix("al"))), ("iciti", .replace(Suffix("ic"))),
        ("ical", .replace(Suffix("ic"))), ("ness", .delete), ("ful", .delete),
    ])

    /// Step 4, in R2.
    static let step4Rules = SuffixTable([
        ("ement", .delete), ("ment", .delete), ("ance", .delete),
        ("ence", .delete), ("able", .delete), ("ible", .delete),
        ("ate", .delete), ("ive", .delete), ("ize", .delete), ("iti", .delete),
        ("ism", .delete), ("ion", .ion), ("ous", .delete), ("ant", .delete),
        ("ent", .delete), ("ic", .delete), ("al", .delete), ("er", .delete),
    ])

    /// Replacement texts used outside the tables.
    static let letterE = Suffix("e")
    static let letterI = Suffix("i")
    static let lettersIE = Suffix("ie")
    static let lettersEE = Suffix("ee")
    static let lettersOG = Suffix("og")
}
