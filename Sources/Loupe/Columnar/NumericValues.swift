// Numeric values block, the storage of every column's values and of multi-valued offsets. Little-endian.
// Legend: Docs/Formats/LEGEND.md; the whole file: ColumnarFormat.swift.
//
// | codec(u8) | count(u64) | min(u64) | max(u64) | gcd(u64) | codec body |
// A value is min + gcd × decoded(i), at most max (the reader clamps to it, so damaged bits cannot produce a value
// outside the column's range, nor an ordinal outside its dictionary).
//   codec 0, bitpacked:            | width(u8) | BitpackedArray of count × width bits |
//   codec 1, linear:               | line | width(u8) | BitpackedArray of count residuals |
//   codec 2, blockwise linear:     | blockCount(u32) | per block of 512 values: line, width(u8), dataOffset(u64) |
//                                  | dataLength(u64) | per block: BitpackedArray of its residuals |
// line: intercept(u64) slope(i64, 32.32 fixed point); decoded(i) = intercept + (slope × i) >> 32 + residual(i), all
// wrapping, with i counted from the block's start. The writer picks whichever codec is smallest (tantivy's choice
// among bitpacked, linear and blockwise linear).

import LoupeCodec

/// A straight line through a run of values, the model of the linear codecs.
struct ValueLine: Equatable {
    var intercept: UInt64
    /// 32.32 fixed point.
    var slope: Int64

    /// The line at `i`: exact integer arithmetic, identical in writer and reader.
    @inline(__always) func at(_ i: Int) -> UInt64 {
        let (high, low) = slope.multipliedFullWidth(by: Int64(truncatingIfNeeded: i))
        return intercept &+ (UInt64(bitPattern: high) &<< 32 | low &>> 32)
    }
}

/// A block of numeric values decoded in O(1) per value straight from the mapped file.
@safe
package struct NumericValues: @unchecked Sendable {
    // @unchecked: `data` and `blockData` view the read-only mapping the column's `FileSlice` keeps alive.
    package enum Codec: UInt8, Sendable {
        case bitpacked = 0
        case linear = 1
        case blockwiseLinear = 2
    }

    static let blockSize = 512
    /// Bytes of one block header of the blockwise-linear codec.
    static let blockHeaderSize = 25

    package let codec: Codec
    package let count: Int
    /// Smallest and largest value held (min ≤ max; both 0 when `count` is 0).
    package let min: UInt64
    package let max: UInt64
    private let gcd: UInt64
    private let line: ValueLine
    private let width: Int
    /// Bitpacked residuals (bitpacked, linear) or the block headers (blockwise linear).
    private let data: UnsafeRawPointer
    /// Start of the blocks' residuals (blockwise linear).
    private let blockData: UnsafeRawPointer

    /// Reads a block starting at `bytes`; `consumed` is its length.
    /// - Throws: `FormatError` (offsets counted from `fileOffset`) when the header is inconsistent or the data runs
    ///   past `bytes`.
    package init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int, consumed: inout Int) throws(FormatError) {
        var reader = unsafe ByteReader(bytes)
        let codecByte = try reader.readU8()
        guard let codec = Codec(rawValue: codecByte) else {
            throw .malformed(offset: fileOffset, reason: "unknown numeric codec \(codecByte)")
        }
        count = Int(clamping: try reader.readU64())
        min = try reader.readU64()
        max = try reader.readU64()
        gcd = try reader.readU64()
        guard min <= max, gcd > 0, count <= Int(UInt32.max) * 8 else {
            throw .malformed(offset: fileOffset, reason: "numeric values header is inconsistent")
        }
        self.codec = codec
        var line = ValueLine(intercept: 0, slope: 0)
        var width = 0
        var needed: Int
        switch codec {
        case .bitpacked, .linear:
            if codec == .linear {
                line = ValueLine(intercept: try reader.readU64(), slope: Int64(bitPattern: try reader.readU64()))
            }
            width = Int(try reader.readU8())
            guard width <= 64 else { throw .malformed(offset: fileOffset, reason: "bit width \(width) above 64") }
            needed = reader.offset + BitpackedArray.byteCount(count: count, width: width)
        case .blockwiseLinear:
            let blocks = Int(try reader.readU32())
            guard blocks == (count + Self.blockSize - 1) / Self.blockSize else {
                throw .malformed(offset: fileOffset, reason: "\(blocks) blocks for \(count) values")
            }
            let headers = reader.offset
            let headerBytes = blocks * Self.blockHeaderSize
            guard headerBytes + 8 <= bytes.count - headers else {
                throw .truncated(offset: fileOffset, needed: headers + headerBytes + 8, available: bytes.count)
            }
            try reader.skip(headerBytes)
            let dataLength = Int(clamping: try reader.readU64())
            needed = reader.offset &+ dataLength
            guard needed <= bytes.count else {
                throw .truncated(offset: fileOffset, needed: needed, available: bytes.count)
            }
            for b in 0..<blocks {
                let header = headers + b * Self.blockHeaderSize
                let blockWidth = Int(unsafe bytes[header + 16])
                let offset = unsafe Int(clamping: bytes.loadU64LE(at: header + 17))
                let values = Swift.min(Self.blockSize, count - b * Self.blockSize)
                guard blockWidth <= 64, offset <= dataLength,
                    BitpackedArray.byteCount(count: values, width: blockWidth) <= dataLength - offset
                else {
                    throw .malformed(
                        offset: fileOffset + header, reason: "block \(b) of a numeric column runs past its data")
                }
            }
            unsafe blockData = unsafe bytes.baseAddress! + (needed - dataLength)
            unsafe data = unsafe bytes.baseAddress! + headers
            self.line = line
            self.width = 0
            consumed = needed
            return
        }
        guard needed <= bytes.count, let base = bytes.baseAddress else {
            throw .truncated(offset: fileOffset, needed: needed, available: bytes.count)
        }
        self.line = line
        self.width = width
        unsafe data = unsafe base + (needed - BitpackedArray.byteCount(count: count, width: width))
        unsafe blockData = unsafe data
        consumed = needed
    }

    /// A bitpacked block of another format version's layout (fast fields v1), with no clamp.
    init(bitpacked data: UnsafeRawPointer, count: Int, min: UInt64, gcd: UInt64, width: Int) {
        codec = .bitpacked
        self.count = count
        self.min = min
        max = .max
        self.gcd = gcd
        line = ValueLine(intercept: 0, slope: 0)
        self.width = width
        unsafe self.data = data
        unsafe blockData = data
    }

    /// The values at `rows[0..<count]` into `out`, `missing` where a row is `missingRow`: the block read, with the
    /// codec chosen once for the whole block. Every other row must be below `self.count`.
    @inline(__always) func gather(
        _ rows: UnsafePointer<UInt32>, count: Int, into out: UnsafeMutablePointer<UInt64>, missingRow: UInt32,
        missing: UInt64
    ) {
        switch codec {
        case .bitpacked:
            for i in 0..<count {
                let row = unsafe rows[i]
                guard row != missingRow else {
                    unsafe out[i] = missing
                    continue
                }
                let decoded = unsafe BitpackedArray.get(data, width: width, index: Int(row))
                unsafe out[i] = Swift.min(min &+ gcd &* decoded, max)
            }
        case .linear:
            for i in 0..<count {
                let row = unsafe rows[i]
                guard row != missingRow else {
                    unsafe out[i] = missing
                    continue
                }
                let decoded = unsafe line.at(Int(row)) &+ BitpackedArray.get(data, width: width, index: Int(row))
                unsafe out[i] = Swift.min(min &+ gcd &* decoded, max)
            }
        case .blockwiseLinear:
            for i in 0..<count {
                let row = unsafe rows[i]
                unsafe out[i] = row == missingRow ? missing : self[Int(row)]
            }
        }
    }

    /// The values at `start ..< start + count` into `out`: the sequential read, with the codec chosen once.
    @inline(__always) func decode(from start: Int, count: Int, into out: UnsafeMutablePointer<UInt64>) {
        switch codec {
        case .bitpacked:
            for i in 0..<count {
                let decoded = unsafe BitpackedArray.get(data, width: width, index: start &+ i)
                unsafe out[i] = Swift.min(min &+ gcd &* decoded, max)
            }
        case .linear:
            for i in 0..<count {
                let decoded = unsafe line.at(start &+ i) &+ BitpackedArray.get(data, width: width, index: start &+ i)
                unsafe out[i] = Swift.min(min &+ gcd &* decoded, max)
            }
        case .blockwiseLinear:
            for i in 0..<count { unsafe out[i] = self[start &+ i] }
        }
    }

    /// The value at index `i` (0 ≤ i < count).
    @inline(__always) package subscript(i: Int) -> UInt64 {
        let decoded: UInt64
        switch codec {
        case .bitpacked:
            decoded = unsafe BitpackedArray.get(data, width: width, index: i)
        case .linear:
            decoded = unsafe line.at(i) &+ BitpackedArray.get(data, width: width, index: i)
        case .blockwiseLinear:
            let block = i &>> 9
            let header = unsafe data + block &* Self.blockHeaderSize
            let blockLine = unsafe ValueLine(
                intercept: header.loadU64LE(at: 0), slope: Int64(bitPattern: header.loadU64LE(at: 8)))
            let blockWidth = unsafe Int(header.load(fromByteOffset: 16, as: UInt8.self))
            let offset = unsafe Int(truncatingIfNeeded: header.loadU64LE(at: 17))
            let within = i & (Self.blockSize &- 1)
            decoded =
                unsafe blockLine.at(within) &+ BitpackedArray.get(blockData + offset, width: blockWidth, index: within)
        }
        return Swift.min(min &+ gcd &* decoded, max)
    }
}
