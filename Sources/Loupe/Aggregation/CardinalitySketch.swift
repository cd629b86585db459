#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A distinct-value counter: exact up to `exactLimit` distinct values (a set of 64-bit hashes), then a
/// HyperLogLog with 2¹⁴ six-bit registers (precision 14, standard error 1.04 / √16384 ≈ 0.81%), estimated
/// with Ertl's improved raw estimator (O. Ertl, "New cardinality estimation algorithms for HyperLogLog
/// sketches", 2017), which needs neither bias tables nor a switch to linear counting and stays unbiased from
/// small to very large counts.
///
/// tantivy uses Apache DataSketches' HLL with 2¹¹ registers (about 2.3%), so above the exact range the two
/// estimates differ within their errors; below it (most buckets) Loupe's count is exact.
struct CardinalitySketch: Sendable {
    static let exactLimit = 1024
    static let precision = 14
    static let registerCount = 1 << precision

    private var exact: Set<UInt64>? = []
    private var registers: [UInt8] = []

    mutating func insert(hash: UInt64) {
        if exact != nil {
            exact!.insert(hash)
            if exact!.count > Self.exactLimit { promote() }
        } else {
            record(hash)
        }
    }

    private mutating func promote() {
        registers = Array(repeating: 0, count: Self.registerCount)
        for hash in exact ?? [] { record(hash) }
        exact = nil
    }

    @inline(__always) private mutating func record(_ hash: UInt64) {
        let index = Int(hash >> UInt64(64 - Self.precision))
        let rest = hash << UInt64(Self.precision)
        let rank = UInt8(min(rest.leadingZeroBitCount, 64 - Self.precision) + 1)
        if registers[index] < rank { registers[index] = rank }
    }

    mutating func merge(_ other: CardinalitySketch) {
        if let values = other.exact {
            for hash in values { insert(hash: hash) }
            return
        }
        if exact != nil { promote() }
        for i in 0..<Self.registerCount where registers[i] < other.registers[i] { registers[i] = other.registers[i] }
    }

    /// The number of distinct values, exact while there are at most `exactLimit`.
    var estimate: Double {
        if let exact { return Double(exact.count) }
        let q = 64 - Self.precision
        var histogram = Array(repeating: 0, count: q + 2)
        for register in registers { histogram[Int(register)] += 1 }
        let m = Double(Self.registerCount)
        var z = m * Self.tau(1 - Double(histogram[q + 1]) / m)
        for k in stride(from: q, through: 1, by: -1) { z = 0.5 * (z + Double(histogram[k])) }
        z += m * Self.sigma(Double(histogram[0]) / m)
        return (m * m / (2 * M_LN2) / z).rounded(.towardZero)
    }

    private static func sigma(_ x0: Double) -> Double {
        guard x0 < 1 else { return .infinity }
        var x = x0
        var y = 1.0
        var z = x
        while true {
            x *= x
            let next = z + x * y
            if next == z { return z }
            z = next
            y += y
        }
    }

    private static func tau(_ x0: Double) -> Double {
        guard x0 > 0, x0 < 1 else { return 0 }
        var x = x0
        var y = 1.0
        var z = 1 - x
        while true {
            x = x.squareRoot()
            y *= 0.5
            let next = z - (1 - x) * (1 - x) * y
            if next == z { return z / 3 }
            z = next
        }
    }

    var memoryBytes: Int { registers.capacity + (exact?.capacity ?? 0) * 9 }

    /// A 64-bit hash of a term's bytes: FNV-1a, then MurmurHash3's finaliser for avalanche.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return mix(h)
    }

    /// A 64-bit hash of a mapped numeric value (a bijection, so distinct values never collide).
    @inline(__always) static func mix(_ value: UInt64) -> UInt64 {
        var h = value
        h ^= h >> 33
        h &*= 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h &*= 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }
}
