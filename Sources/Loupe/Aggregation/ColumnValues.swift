// How aggregations read a column's mapped values, per field type, the way tantivy's aggregations read its own:
// as `f64` for statistics, histograms and percentiles (`f64_from_fastfield_u64`), and in tantivy's value space for
// ranges. Each field type is a caseless enum, so the per-value loops that take one as a generic parameter
// specialise: no switch on the type and no dynamic call per value.
//
// Dates are the one place the spaces differ: Loupe keeps microseconds, tantivy nanoseconds, and tantivy's date
// statistics, histogram keys and range bounds are nanoseconds. The decoders scale, so results agree.

/// Reads a column's mapped values as numbers.
protocol ColumnDecoder {
    /// The value as tantivy's aggregations see it (`u64`/`i64` as is, dates in nanoseconds).
    static func double(_ mapped: UInt64) -> Double
    /// The value in tantivy's `u64` value space, whose order is the values' order: what range bounds compare
    /// with.
    static func rangeValue(_ mapped: UInt64) -> UInt64
}

enum U64Decoder: ColumnDecoder {
    @inline(__always) static func double(_ mapped: UInt64) -> Double { Double(mapped) }
    @inline(__always) static func rangeValue(_ mapped: UInt64) -> UInt64 { mapped }
}

enum I64Decoder: ColumnDecoder {
    @inline(__always) static func double(_ mapped: UInt64) -> Double { Double(NumericMapping.toI64(mapped)) }
    @inline(__always) static func rangeValue(_ mapped: UInt64) -> UInt64 { mapped }
}

enum F64Decoder: ColumnDecoder {
    @inline(__always) static func double(_ mapped: UInt64) -> Double { NumericMapping.toF64(mapped) }
    @inline(__always) static func rangeValue(_ mapped: UInt64) -> UInt64 { mapped }
}

enum DateDecoder: ColumnDecoder {
    /// Microseconds to nanoseconds; beyond the years 1678–2262, where nanoseconds overflow `Int64` (tantivy
    /// cannot store those dates at all), by a rounded product.
    @inline(__always) static func nanoseconds(_ mapped: UInt64) -> Int64 {
        let micros = NumericMapping.toI64(mapped)
        let (nanos, overflow) = micros.multipliedReportingOverflow(by: 1000)
        return overflow ? (micros < 0 ? .min : .max) : nanos
    }

    @inline(__always) static func double(_ mapped: UInt64) -> Double {
        let micros = NumericMapping.toI64(mapped)
        let (nanos, overflow) = micros.multipliedReportingOverflow(by: 1000)
        return overflow ? Double(micros) * 1000 : Double(nanos)
    }

    @inline(__always) static func rangeValue(_ mapped: UInt64) -> UInt64 { NumericMapping.fromI64(nanoseconds(mapped)) }
}

/// Values that are not numbers (string ordinals): counted by `value_count`, worth 0 otherwise, as in tantivy.
enum UncountedDecoder: ColumnDecoder {
    @inline(__always) static func double(_ mapped: UInt64) -> Double { 0 }
    @inline(__always) static func rangeValue(_ mapped: UInt64) -> UInt64 { mapped }
}

/// Rust's saturating `as` casts, which tantivy uses to bring request numbers into a column's space.
enum RustCast {
    /// `value as u64`: truncates toward zero, NaN and negatives to 0, saturates at `UInt64.max`.
    static func u64(_ value: Double) -> UInt64 {
        guard value > 0 else { return 0 }
        return value >= 18_446_744_073_709_551_616.0 ? .max : UInt64(value)
    }

    /// `value as i64`: truncates toward zero, NaN to 0, saturates at the `Int64` bounds.
    static func i64(_ value: Double) -> Int64 {
        guard !value.isNaN else { return 0 }
        if value >= 9_223_372_036_854_775_808.0 { return .max }
        if value <= -9_223_372_036_854_775_808.0 { return .min }
        return Int64(value)
    }
}

extension FieldType {
    /// Read as a number by statistics, histograms, ranges and percentiles: u64, i64, f64 and date fields (not
    /// bool, which tantivy's numeric aggregations do not read).
    var isNumber: Bool { isNumeric && self != .bool }

    /// A request number in tantivy's `u64` value space (`f64_to_fastfield_u64`); dates are nanoseconds.
    func rangeValue(_ value: Double) -> UInt64 {
        switch self {
        case .u64, .bool: RustCast.u64(value)
        case .i64, .date: NumericMapping.fromI64(RustCast.i64(value))
        case .f64, .text, .string: NumericMapping.fromF64(value)
        }
    }

    /// A value of tantivy's `u64` space back as a number (`f64_from_fastfield_u64`).
    func doubleFromRangeValue(_ value: UInt64) -> Double {
        switch self {
        case .u64, .bool: Double(value)
        case .i64, .date: Double(NumericMapping.toI64(value))
        case .f64, .text, .string: NumericMapping.toF64(value)
        }
    }
}
