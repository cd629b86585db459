// Column dictionary: the distinct values of a bytes column (string fields, raw and lowercase text fields) in byte
// order; the column's values are ordinals into it. Little-endian. Legend: Docs/Formats/LEGEND.md; the whole file:
// ColumnarFormat.swift.
//
// | count(u64) | starts: numeric values (count + 1 byte offsets into the bytes) | bytesLength(u64) | bytes |

import LoupeCodec

/// A segment's sorted values of one bytes column, read in place.
@safe
package struct ColumnDictionary: @unchecked Sendable {
    // @unchecked: `bytes` views the read-only mapping the column's `FileSlice` keeps alive.
    package let count: Int
    private let starts: NumericValues
    private let bytes: UnsafeRawPointer
    private let byteCount: Int

    init(_ buffer: UnsafeRawBufferPointer, fileOffset: Int, consumed: inout Int) throws(FormatError) {
        var reader = unsafe ByteReader(buffer)
        count = Int(clamping: try reader.readU64())
        var used = 0
        starts = unsafe try NumericValues(
            UnsafeRawBufferPointer(rebasing: buffer[reader.offset...]), fileOffset: fileOffset + reader.offset,
            consumed: &used)
        try reader.skip(used)
        guard starts.count > 0, starts.count - 1 == count else {
            throw .malformed(offset: fileOffset, reason: "dictionary of \(count) values has \(starts.count) starts")
        }
        byteCount = Int(clamping: try reader.readU64())
        let body = unsafe try reader.readBytes(byteCount)
        unsafe bytes = unsafe body.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        consumed = reader.offset
    }

    /// The bytes of the value with this ordinal (empty past the end).
    package func withTerm<R>(_ ordinal: UInt64, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard ordinal < UInt64(count) else { return try unsafe body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        let lo = min(Int(clamping: starts[Int(ordinal)]), byteCount)
        let hi = max(lo, min(Int(clamping: starts[Int(ordinal) + 1]), byteCount))
        return try unsafe body(UnsafeRawBufferPointer(start: bytes + lo, count: hi - lo))
    }

    /// The bytes of the value with this ordinal.
    package func term(_ ordinal: UInt64) -> [UInt8] {
        unsafe withTerm(ordinal) { unsafe Array($0) }
    }

    /// The first ordinal whose value is ≥ `term` (`count` when there is none).
    package func lowerBound(_ term: [UInt8]) -> UInt64 {
        var (lo, hi) = (0, count)
        while lo < hi {
            let mid = (lo + hi) / 2
            let less = unsafe withTerm(UInt64(mid)) { value in
                unsafe term.withUnsafeBytes { unsafe compareBytes(value, $0) < 0 }
            }
            if less { lo = mid + 1 } else { hi = mid }
        }
        return UInt64(lo)
    }

    /// The ordinal of `term`, nil when the segment holds no such value.
    package func ordinal(of term: [UInt8]) -> UInt64? {
        let candidate = lowerBound(term)
        guard candidate < UInt64(count) else { return nil }
        let equal = unsafe withTerm(candidate) { value in
            unsafe term.withUnsafeBytes { unsafe compareBytes(value, $0) == 0 }
        }
        return equal ? candidate : nil
    }

    /// Appends a dictionary of `terms`, already sorted and distinct.
    static func write(_ terms: [[UInt8]], into out: inout ByteWriter) {
        out.writeU64(UInt64(terms.count))
        var starts: [UInt64] = [0]
        starts.reserveCapacity(terms.count + 1)
        for term in terms { starts.append(starts[starts.count - 1] + UInt64(term.count)) }
        NumericValuesWriter.write(starts, into: &out)
        out.writeU64(starts[starts.count - 1])
        for term in terms { out.writeBytes(term) }
    }
}
