/// A set of Unicode scalar values, kept as sorted, disjoint, non-adjacent closed ranges: the label of one
/// NFA edge (a literal is a one-scalar set, `.` or `[^a]` a few large ranges).
///
/// Values are `UInt32` rather than `Unicode.Scalar` so ranges can be split and shifted freely; surrogates
/// (U+D800...U+DFFF) are never members of a set built through `complement` or `all`, and the determinizer
/// clips them away in any case because no valid UTF-8 encodes them.
struct ScalarSet: Hashable, Sendable {
    /// Sorted, disjoint and non-adjacent (`a...b` and `b+1...c` are merged).
    private(set) var ranges: [ClosedRange<UInt32>]

    /// The largest Unicode scalar value.
    static let maximum: UInt32 = 0x10FFFF
    /// Surrogate code points, which are not scalars.
    static let surrogates: ClosedRange<UInt32> = 0xD800...0xDFFF

    /// The empty set.
    init() {
        ranges = []
    }

    /// A one-scalar set.
    init(_ scalar: UInt32) {
        ranges = [scalar...scalar]
    }

    /// The union of `ranges`, which may be unsorted and overlap.
    init(ranges unsorted: some Sequence<ClosedRange<UInt32>>) {
        let sorted = unsorted.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        merged.reserveCapacity(sorted.count)
        for range in sorted {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        ranges = merged
    }

    /// Every Unicode scalar.
    static let all = ScalarSet(ranges: [0...0xD7FF, 0xE000...maximum])

    /// Whether the set has no member.
    var isEmpty: Bool { ranges.isEmpty }

    /// Whether `scalar` is a member.
    ///
    /// - Complexity: O(log *r*) for *r* ranges.
    func contains(_ scalar: UInt32) -> Bool {
        let index = firstRange(endingAtOrAfter: scalar)
        return index < ranges.count && ranges[index].lowerBound <= scalar
    }

    /// Index of the first range whose upper bound is at least `scalar` (`ranges.count` if none).
    func firstRange(endingAtOrAfter scalar: UInt32) -> Int {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < scalar { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Members of either set.
    func union(_ other: ScalarSet) -> ScalarSet {
        ScalarSet(ranges: ranges + other.ranges)
    }

    /// Every scalar (surrogates excluded) that is not a member.
    func complement() -> ScalarSet {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            if range.upperBound >= Self.maximum { return ScalarSet(ranges: result).subtractingSurrogates() }
            next = range.upperBound + 1
        }
        result.append(next...Self.maximum)
        return ScalarSet(ranges: result).subtractingSurrogates()
    }

    /// Members of both sets.
    func intersection(_ other: ScalarSet) -> ScalarSet {
        var result: [ClosedRange<UInt32>] = []
        var left = 0
        var right = 0
        while left < ranges.count, right < other.ranges.count {
            let a = ranges[left]
            let b = other.ranges[right]
            let low = max(a.lowerBound, b.lowerBound)
            let high = min(a.upperBound, b.upperBound)
            if low <= high { result.append(low...high) }
            if a.upperBound < b.upperBound { left += 1 } else { right += 1 }
        }
        return ScalarSet(ranges: result)
    }

    /// Members of `self` that are not in `other`.
    func subtracting(_ other: ScalarSet) -> ScalarSet {
        intersection(other.complement())
    }

    /// Members of exactly one of the two sets.
    func symmetricDifference(_ other: ScalarSet) -> ScalarSet {
        union(other).subtracting(intersection(other))
    }

    private func subtractingSurrogates() -> ScalarSet {
        var result: [ClosedRange<UInt32>] = []
        for range in ranges {
            if range.upperBound < Self.surrogates.lowerBound || range.lowerBound > Self.surrogates.upperBound {
                result.append(range)
                continue
            }
            if range.lowerBound < Self.surrogates.lowerBound {
                result.append(range.lowerBound...(Self.surrogates.lowerBound - 1))
            }
            if range.upperBound > Self.surrogates.upperBound {
                result.append((Self.surrogates.upperBound + 1)...range.upperBound)
            }
        }
        return ScalarSet(ranges: result)
    }
}
