extension ScalarSet {
    /// The set closed under simple case folding, for `(?i)`: every member brings the scalars that fold
    /// to the same key (`k` brings `K` and U+212A KELVIN SIGN, `s` brings `S` and U+017F LONG S).
    ///
    /// - Complexity: O(*r* log *c* + *m*) for *r* ranges, *c* ≈ 2,900 cased scalars and *m* cased members.
    func caseFolded() -> ScalarSet {
        let table = CaseFoldingTable.shared
        var added: [ClosedRange<UInt32>] = []
        for range in ranges {
            var index = table.firstMember(atOrAfter: range.lowerBound)
            while index < table.members.count, table.members[index] <= range.upperBound {
                for scalar in table.orbit(ofMemberAt: index) { added.append(scalar...scalar) }
                index += 1
            }
        }
        return added.isEmpty ? self : ScalarSet(ranges: ranges + added)
    }
}

/// Simple case-folding orbits, derived once from the standard library's single-scalar case mappings
/// (no Foundation, no Unicode data files): two scalars share an orbit when lowercasing their uppercase
/// gives the same single scalar.
struct CaseFoldingTable: Sendable {
    /// Every scalar whose orbit has two or more members, ascending.
    let members: [UInt32]
    /// `orbitIndex[i]` is the orbit of `members[i]` in `orbits`.
    private let orbitIndex: [Int32]
    private let orbits: [[UInt32]]

    /// Built on first use; a few milliseconds.
    static let shared = CaseFoldingTable()

    /// Every scalar with a case mapping lies below this bound (Unicode 16: the last is U+1E943).
    private static let casedScalarBound: UInt32 = 0x20000

    private init() {
        var orbitOfKey: [UInt32: Int] = [:]
        var orbits: [[UInt32]] = []
        for value in 0..<Self.casedScalarBound {
            guard let scalar = Unicode.Scalar(value), scalar.properties.changesWhenCaseMapped else { continue }
            let key = Self.foldKey(scalar)
            for member in [value, key] {
                if let orbit = orbitOfKey[key] {
                    if !orbits[orbit].contains(member) { orbits[orbit].append(member) }
                } else {
                    orbitOfKey[key] = orbits.count
                    orbits.append([member])
                }
            }
        }
        var pairs: [(member: UInt32, orbit: Int32)] = []
        for (index, orbit) in orbits.enumerated() where orbit.count > 1 {
            for member in orbit { pairs.append((member, Int32(index))) }
        }
        pairs.sort { $0.member < $1.member }
        members = pairs.map(\.member)
        orbitIndex = pairs.map(\.orbit)
        self.orbits = orbits
    }

    /// Index of the first member ≥ `scalar`.
    func firstMember(atOrAfter scalar: UInt32) -> Int {
        var low = 0
        var high = members.count
        while low < high {
            let middle = (low + high) / 2
            if members[middle] < scalar { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The scalars that fold together with `members[index]`, itself included.
    func orbit(ofMemberAt index: Int) -> [UInt32] {
        orbits[Int(orbitIndex[index])]
    }

    /// Lowercase of uppercase, when each mapping is a single scalar (multi-scalar mappings such as
    /// `ß` → `SS` are full, not simple, folding and are ignored). This matches Unicode's simple case
    /// folding (CaseFolding.txt, status C and S) except for U+0131 DOTLESS I, which uppercases to `I` but
    /// folds to itself outside Turkic locales.
    private static func foldKey(_ scalar: Unicode.Scalar) -> UInt32 {
        if scalar.value == 0x131 { return scalar.value }
        let upper = single(scalar.properties.uppercaseMapping) ?? scalar
        let lower = single(upper.properties.lowercaseMapping) ?? upper
        return lower.value
    }

    private static func single(_ mapping: String) -> Unicode.Scalar? {
        let scalars = mapping.unicodeScalars
        guard let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex else {
            return nil
        }
        return first
    }
}
