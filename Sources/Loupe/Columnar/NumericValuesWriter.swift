import LoupeCodec

/// Writes a numeric values block (layout: NumericValues.swift) in whichever codec makes it smallest.
package enum NumericValuesWriter {
    /// Appends `values` to `out`.
    package static func write(_ values: [UInt64], into out: inout ByteWriter) {
        let low = values.min() ?? 0
        let high = values.max() ?? 0
        var gcd: UInt64 = 0
        for v in values where gcd != 1 { gcd = greatestCommonDivisor(gcd, v &- low) }
        if gcd == 0 { gcd = 1 }
        let normalized = gcd == 1 && low == 0 ? values : values.map { ($0 &- low) / gcd }

        let bitpackedWidth = BitpackedArray.requiredWidth((high &- low) / gcd)
        let bitpackedBits = bitpackedWidth * normalized.count
        let linear = Fit(normalized[...])
        let linearBits = linear.width * normalized.count + 128
        var blocks: [Fit] = []
        var blockwiseBits = 32 + 64
        if normalized.count > NumericValues.blockSize {
            var start = 0
            while start < normalized.count {
                let end = min(start + NumericValues.blockSize, normalized.count)
                let fit = Fit(normalized[start..<end])
                blocks.append(fit)
                blockwiseBits += NumericValues.blockHeaderSize * 8 + (fit.width * (end - start) + 7) / 8 * 8 + 64
                start = end
            }
        } else {
            blockwiseBits = .max
        }
        let codec: NumericValues.Codec
        if bitpackedBits <= linearBits && bitpackedBits <= blockwiseBits {
            codec = .bitpacked
        } else {
            codec = linearBits <= blockwiseBits ? .linear : .blockwiseLinear
        }

        out.writeU8(codec.rawValue)
        out.writeU64(UInt64(values.count))
        out.writeU64(low)
        out.writeU64(high)
        out.writeU64(gcd)
        switch codec {
        case .bitpacked:
            out.writeU8(UInt8(bitpackedWidth))
            BitpackedArray.write(normalized, width: bitpackedWidth, into: &out)
        case .linear:
            out.writeU64(linear.line.intercept)
            out.writeU64(UInt64(bitPattern: linear.line.slope))
            out.writeU8(UInt8(linear.width))
            BitpackedArray.write(linear.residuals(normalized[...]), width: linear.width, into: &out)
        case .blockwiseLinear:
            out.writeU32(UInt32(blocks.count))
            var data = ByteWriter()
            for (b, fit) in blocks.enumerated() {
                let start = b * NumericValues.blockSize
                let slice = normalized[start..<min(start + NumericValues.blockSize, normalized.count)]
                out.writeU64(fit.line.intercept)
                out.writeU64(UInt64(bitPattern: fit.line.slope))
                out.writeU8(UInt8(fit.width))
                out.writeU64(UInt64(data.count))
                BitpackedArray.write(fit.residuals(slice), width: fit.width, into: &data)
            }
            out.writeU64(UInt64(data.count))
            out.writeBytes(data.bytes)
        }
    }

    /// The line through a run's first and last values, lowered so every residual is ≥ 0, and the residuals'
    /// bit width.
    private struct Fit {
        var line: ValueLine
        var width: Int

        init(_ values: ArraySlice<UInt64>) {
            guard let first = values.first, let last = values.last, values.count > 1 else {
                line = ValueLine(intercept: values.first ?? 0, slope: 0)
                width = 0
                return
            }
            let rise = Double(Int64(bitPattern: last &- first))
            let slope = (rise * 4_294_967_296 / Double(values.count - 1)).rounded()
            line = ValueLine(intercept: first, slope: abs(slope) < 9.2e18 ? Int64(slope) : 0)
            var lowest = Int64.max
            for (i, v) in values.enumerated() { lowest = Swift.min(lowest, Int64(bitPattern: v &- line.at(i))) }
            line.intercept = line.intercept &+ UInt64(bitPattern: lowest)
            var widest: UInt64 = 0
            for (i, v) in values.enumerated() { widest = Swift.max(widest, v &- line.at(i)) }
            width = BitpackedArray.requiredWidth(widest)
        }

        func residuals(_ values: ArraySlice<UInt64>) -> [UInt64] {
            values.enumerated().map { i, v in v &- line.at(i) }
        }
    }

    private static func greatestCommonDivisor(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}
