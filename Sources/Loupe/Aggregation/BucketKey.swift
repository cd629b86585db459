/// The key of a terms bucket as tantivy's `IntermediateKey` holds it: term bytes, a number, or a boolean.
///
/// Keys order as tantivy's final `Key` does: strings first (bytewise, which is UTF-8 code point order), then
/// signed integers, then unsigned integers (booleans among them, as 0 and 1), then doubles; within a kind, by
/// value. So the keys of an f64 field sort integral values (which tantivy normalises to integers) before
/// fractional ones: that is tantivy's order, kept on purpose.
package enum BucketKey: Sendable, Hashable, Comparable {
    case string([UInt8])
    case i64(Int64)
    case u64(UInt64)
    case bool(Bool)
    case f64(Double)

    /// The key of an f64 value as tantivy normalises it: integral values within Int64 (or else UInt64) become
    /// integers, the rest stay doubles.
    package static func normalized(_ value: Double) -> BucketKey {
        guard value.rounded(.towardZero) == value else { return .f64(value) }
        if value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0 { return .i64(Int64(value)) }
        if value >= 0, value < 18_446_744_073_709_551_616.0 { return .u64(UInt64(value)) }
        return .f64(value)
    }

    private var rank: Int {
        switch self {
        case .string: 0
        case .i64: 1
        case .u64, .bool: 2
        case .f64: 3
        }
    }

    package static func < (a: BucketKey, b: BucketKey) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x.lexicographicallyPrecedes(y)
        case (.i64(let x), .i64(let y)): return x < y
        case (.f64(let x), .f64(let y)): return x < y
        default:
            if a.rank != b.rank { return a.rank < b.rank }
            return (a.unsignedValue ?? 0) < (b.unsignedValue ?? 0)
        }
    }

    private var unsignedValue: UInt64? {
        switch self {
        case .u64(let v): v
        case .bool(let v): v ? 1 : 0
        default: nil
        }
    }

    /// Doubles compare by bit pattern, as tantivy's keys do, so a key is always equal to itself.
    package static func == (a: BucketKey, b: BucketKey) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): x == y
        case (.i64(let x), .i64(let y)): x == y
        case (.u64(let x), .u64(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.f64(let x), .f64(let y)): x.bitPattern == y.bitPattern
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(rank)
        switch self {
        case .string(let v): unsafe v.withUnsafeBytes { unsafe hasher.combine(bytes: $0) }
        case .i64(let v): hasher.combine(v)
        case .u64(let v): hasher.combine(v)
        case .bool(let v): hasher.combine(v)
        case .f64(let v): hasher.combine(v.bitPattern)
        }
    }
}
