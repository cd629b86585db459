#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The quantile sketch tantivy's `percentiles` uses: `sketches-ddsketch`'s `DDSketch` with its default
/// configuration — relative accuracy α = 0.01, at most 2,048 bins per sign, values within ±10⁻⁹ of zero counted
/// as zero — computing what it computes, bin for bin, so percentiles agree with tantivy's to the last bit.
///
/// A value v > 0 goes to bin k = ⌈ln v / ln γ⌉ with γ = 1 + 2α / (1 − α), which holds (γᵏ⁻¹, γᵏ]; a
/// quantile is the rank ⌊q × (count − 1)⌋ found by walking the bins, answered by the bin's representative
/// γᵏ⁻¹ × (1 + α), within α of every value in the bin (computed as `exp((k − 1) × ln γ) × (1 + α)`, the
/// crate's expression, which tantivy 0.27's answers match bit for bit). Quantile 0 and 1 are the exact minimum
/// and maximum. When one sign's bins
/// would span more than 2,048 keys (values more than about 4 × 10¹⁷ apart), the lowest collapse into the lowest
/// kept bin, as the crate's collapsing store does.
struct DDSketch: Sendable {
    static let relativeAccuracy = 0.01
    static let minValue = 1e-9
    static let gamma = 1 + 2 * relativeAccuracy / (1 - relativeAccuracy)
    static let gammaLn = log(gamma)

    private var positive = DDSketchStore()
    private var negative = DDSketchStore()
    private var zeroCount: UInt64 = 0
    private(set) var min = Double.infinity
    private(set) var max = -Double.infinity

    static func key(_ value: Double) -> Int32 {
        let k = (log(value) / gammaLn).rounded(.up)
        if k.isNaN { return 0 }
        return k >= 2_147_483_647 ? .max : k <= -2_147_483_648 ? .min : Int32(k)
    }

    static func value(_ key: Int32) -> Double { exp(Double(key - 1) * gammaLn) * (1 + relativeAccuracy) }

    var count: UInt64 { positive.count + zeroCount + negative.count }

    mutating func add(_ value: Double) {
        if value > Self.minValue {
            positive.add(Self.key(value), count: 1)
        } else if value < -Self.minValue {
            negative.add(Self.key(-value), count: 1)
        } else {
            zeroCount += 1
        }
        if value < min { min = value }
        if max < value { max = value }
    }

    /// The `q`-quantile, `q` in 0…1; nil when the sketch is empty.
    func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        if q == 0 { return min }
        if q == 1 { return max }
        let rank = RustCast.u64(q * (Double(count) - 1))
        if rank < negative.count { return -Self.value(negative.key(atRank: negative.count - rank - 1)) }
        if rank < zeroCount + negative.count { return 0 }
        return Self.value(positive.key(atRank: rank - zeroCount - negative.count))
    }

    /// The crate's `merge`: bins add up; min and max come from `other` only when it has positive values (or
    /// replace them when this sketch had none) — a quirk kept so merged sketches answer as tantivy's do.
    mutating func merge(_ other: DDSketch) {
        let wasEmpty = positive.count == 0
        positive.merge(other.positive)
        negative.merge(other.negative)
        zeroCount += other.zeroCount
        if wasEmpty {
            min = other.min
            max = other.max
        } else if other.positive.count > 0 {
            if other.min < min { min = other.min }
            if other.max > max { max = other.max }
        }
    }

    var memoryBytes: Int { 64 + (positive.binCount + negative.binCount) * 8 }
}

/// One sign's bins: counts for keys `offset ..< offset + bins.count`, never more than `binLimit` of them; keys
/// below the window count in its first bin.
private struct DDSketchStore: Sendable {
    static let binLimit = 2048

    private var bins: [UInt64] = []
    private var offset: Int32 = 0
    private(set) var count: UInt64 = 0

    var binCount: Int { bins.count }

    private var maxKey: Int32 { offset &+ Int32(bins.count) &- 1 }

    mutating func add(_ key: Int32, count n: UInt64) {
        count += n
        guard !bins.isEmpty else {
            bins = [n]
            offset = key
            return
        }
        if key < offset {
            let span = Int(maxKey) - Int(key) + 1
            if span <= Self.binLimit {
                bins = Array(repeating: 0, count: Int(offset) - Int(key)) + bins
                offset = key
            } else if bins.count < Self.binLimit {
                let grow = Self.binLimit - bins.count
                bins = Array(repeating: 0, count: grow) + bins
                offset -= Int32(grow)
            }
            bins[0] += n
        } else if key > maxKey {
            let span = Int(key) - Int(offset) + 1
            if span > Self.binLimit {
                let newOffset = Int(key) - Self.binLimit + 1
                let drop = newOffset - Int(offset)
                if drop >= bins.count {
                    let total = bins.reduce(0, +)
                    bins = Array(repeating: 0, count: Self.binLimit)
                    bins[0] = total
                } else {
                    let collapsed = bins[..<drop].reduce(0, +)
                    bins.removeFirst(drop)
                    bins[0] += collapsed
                }
                offset = Int32(newOffset)
            }
            bins += Array(repeating: 0, count: Int(key) - Int(maxKey))
            bins[bins.count - 1] += n
        } else {
            bins[Int(key - offset)] += n
        }
    }

    func key(atRank rank: UInt64) -> Int32 {
        var seen: UInt64 = 0
        for (i, bin) in bins.enumerated() {
            seen += bin
            if seen > rank { return offset + Int32(i) }
        }
        return maxKey
    }

    mutating func merge(_ other: DDSketchStore) {
        guard other.count > 0 else { return }
        guard count > 0 else {
            self = other
            return
        }
        for (i, bin) in other.bins.enumerated() where bin > 0 { add(other.offset + Int32(i), count: bin) }
    }
}
