/// An LZ4 block compressor in the reference's fast mode (`LZ4_compress_default`, acceleration 1): greedy, one
/// hash-table probe per position, no chains, and a search that strides further the longer nothing matches.
///
/// The hash table (4,096 positions, 16 KiB, like the reference's default) is allocated once and reused: positions
/// are stored offset by a running base that grows with every input, so entries left by earlier inputs fall below
/// it and read as empty, and nothing is cleared between calls. Not thread-safe: one per writer.
package struct LZ4Compressor {
    private static let hashLog = 12
    /// A miss streak of 2^6 positions widens the search stride by one (the reference's `LZ4_skipTrigger`).
    private static let skipTrigger = 6

    /// Bytes of the hash table each compressor holds.
    package static let memoryUsage = (1 << hashLog) * MemoryLayout<UInt32>.size

    private var table: [UInt32]
    /// Added to the positions of the current input; entries below it belong to earlier inputs.
    private var base: UInt32 = 1

    package init() {
        table = [UInt32](repeating: 0, count: 1 << Self.hashLog)
    }

    /// Compresses `src` into `dst` and returns the bytes written; `LZ4.decompress` reads them back.
    /// - Precondition: `dst.count >= LZ4.maxCompressedSize(src.count)`, and `src.count < 2^30`.
    /// - Complexity: O(`src.count`).
    package mutating func compress(_ src: UnsafeRawBufferPointer, into dst: UnsafeMutableRawBufferPointer) -> Int {
        let count = src.count
        precondition(count < 1 << 30, "LZ4Compressor input too large")
        precondition(dst.count >= LZ4.maxCompressedSize(count), "LZ4Compressor output smaller than maxCompressedSize")
        if UInt32.max - base < UInt32(count) {
            for i in table.indices { table[i] = 0 }
            base = 1
        }
        let start = base
        base += UInt32(count)
        guard let d = dst.baseAddress else { return 0 }
        guard let s = src.baseAddress, count > LZ4.matchFindLimit else {
            return unsafe Self.literals(src.baseAddress, count, into: d, at: 0)
        }
        return unsafe table.withUnsafeMutableBufferPointer { table in
            unsafe Self.compress(s, count, into: d, table: table.baseAddress!, base: start)
        }
    }

    /// Appends the compressed block of `src` to `out`.
    /// - Complexity: O(`src.count`).
    package mutating func compress(_ src: UnsafeRawBufferPointer, appendingTo out: inout [UInt8]) {
        let start = out.count
        let bound = LZ4.maxCompressedSize(src.count)
        out.append(contentsOf: repeatElement(0, count: bound))
        let written = unsafe out.withUnsafeMutableBytes { bytes in
            unsafe compress(src, into: UnsafeMutableRawBufferPointer(rebasing: bytes[start...]))
        }
        out.removeLast(bound - written)
    }

    /// The sequences of `s[0..<count]` (count > 12), written to `d`; returns their length.
    private static func compress(
        _ s: UnsafeRawPointer, _ count: Int, into d: UnsafeMutableRawPointer, table: UnsafeMutablePointer<UInt32>,
        base: UInt32
    ) -> Int {
        // Matches start before `matchStartLimit` and end by `matchEndLimit`: the spec's end-of-block rules, which
        // also keep every 8-byte load below inside the input.
        let matchStartLimit = count - LZ4.matchFindLimit + 1
        let matchEndLimit = count - LZ4.lastLiterals
        var anchor = 0
        var op = 0
        unsafe table[hash(s, 0)] = base
        var ip = 1
        var forwardHash = unsafe hash(s, ip)
        search: while true {
            var match = 0
            var forward = ip
            var step = 1
            var attempts = 1 << skipTrigger
            while true {
                let h = forwardHash
                ip = forward
                forward &+= step
                step = attempts &>> skipTrigger
                attempts &+= 1
                if forward > matchStartLimit { break search }
                let candidate = unsafe table[h]
                forwardHash = unsafe hash(s, forward)
                unsafe table[h] = base &+ UInt32(truncatingIfNeeded: ip)
                if candidate >= base {
                    let at = Int(candidate &- base)
                    if unsafe ip &- at <= LZ4.maxOffset && load32(s, at) == load32(s, ip) {
                        match = at
                        break
                    }
                }
            }
            // Extend the match backwards over equal bytes the search strode past.
            while unsafe ip > anchor && match > 0
                && s.load(fromByteOffset: ip &- 1, as: UInt8.self) == s.load(fromByteOffset: match &- 1, as: UInt8.self)
            {
                ip &-= 1
                match &-= 1
            }
            var token = op
            op = unsafe writeLength(ip - anchor, nibbleShift: 4, token: token, into: d, at: op + 1)
            unsafe (d + op).copyMemory(from: s + anchor, byteCount: ip - anchor)
            op += ip - anchor
            while true {
                unsafe d.storeBytes(
                    of: UInt16(truncatingIfNeeded: ip - match).littleEndian, toByteOffset: op, as: UInt16.self)
                op += 2
                let extra = unsafe commonLength(s, ip + LZ4.minMatch, match + LZ4.minMatch, limit: matchEndLimit)
                ip += LZ4.minMatch + extra
                op = unsafe writeLength(extra, nibbleShift: 0, token: token, into: d, at: op)
                anchor = ip
                if ip >= matchStartLimit { break search }
                unsafe table[hash(s, ip - 2)] = base &+ UInt32(truncatingIfNeeded: ip - 2)
                // A match right here needs no literal run: chain it onto a fresh token.
                let h = unsafe hash(s, ip)
                let candidate = unsafe table[h]
                unsafe table[h] = base &+ UInt32(truncatingIfNeeded: ip)
                guard candidate >= base else { break }
                let at = Int(candidate &- base)
                guard unsafe ip &- at <= LZ4.maxOffset && load32(s, at) == load32(s, ip) else { break }
                match = at
                token = op
                unsafe d.storeBytes(of: 0, toByteOffset: token, as: UInt8.self)
                op += 1
            }
            ip += 1
            forwardHash = unsafe hash(s, ip)
        }
        return unsafe literals(s + anchor, count - anchor, into: d, at: op)
    }

    /// The final sequence: `count` literals from `s`, no match.
    private static func literals(
        _ s: UnsafeRawPointer?, _ count: Int, into d: UnsafeMutableRawPointer, at start: Int
    ) -> Int {
        var op = unsafe writeLength(count, nibbleShift: 4, token: start, into: d, at: start + 1)
        if let s = unsafe s, count > 0 { unsafe (d + op).copyMemory(from: s, byteCount: count) }
        op += count
        return op
    }

    /// Puts `length` in the token's nibble at `nibbleShift` (ORed into the token; the literal nibble, written
    /// first, sets the whole byte) and writes its extension bytes at `op`; returns the offset after them.
    @inline(__always)
    private static func writeLength(
        _ length: Int, nibbleShift: UInt8, token: Int, into d: UnsafeMutableRawPointer, at start: Int
    ) -> Int {
        let previous: UInt8 = nibbleShift == 4 ? 0 : unsafe d.load(fromByteOffset: token, as: UInt8.self)
        guard length >= 15 else {
            unsafe d.storeBytes(of: previous | UInt8(length) << nibbleShift, toByteOffset: token, as: UInt8.self)
            return start
        }
        unsafe d.storeBytes(of: previous | 15 << nibbleShift, toByteOffset: token, as: UInt8.self)
        var op = start
        var rest = length - 15
        while rest >= 255 {
            unsafe d.storeBytes(of: 255, toByteOffset: op, as: UInt8.self)
            op += 1
            rest -= 255
        }
        unsafe d.storeBytes(of: UInt8(rest), toByteOffset: op, as: UInt8.self)
        return op + 1
    }

    /// How many bytes from `a` equal those from `b` (`b < a`), stopping at `limit`; 8 bytes at a time.
    @inline(__always)
    private static func commonLength(_ s: UnsafeRawPointer, _ a: Int, _ b: Int, limit: Int) -> Int {
        var i = 0
        while a &+ i &+ 8 <= limit {
            let x = unsafe s.loadUnaligned(fromByteOffset: a &+ i, as: UInt64.self)
            let y = unsafe s.loadUnaligned(fromByteOffset: b &+ i, as: UInt64.self)
            let diff = x ^ y
            if diff != 0 { return i &+ diff.trailingZeroBitCount &>> 3 }
            i &+= 8
        }
        while unsafe a &+ i < limit
            && s.load(fromByteOffset: a &+ i, as: UInt8.self) == s.load(fromByteOffset: b &+ i, as: UInt8.self)
        {
            i &+= 1
        }
        return i
    }

    /// The reference's 5-byte hash (`LZ4_hash5`): the low 5 bytes at `at`, multiplied, top `hashLog` bits.
    @inline(__always)
    private static func hash(_ s: UnsafeRawPointer, _ at: Int) -> Int {
        let v = UInt64(littleEndian: unsafe s.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        return Int(truncatingIfNeeded: ((v &<< 24) &* 889_523_592_379) &>> UInt64(64 - hashLog))
    }

    @inline(__always)
    private static func load32(_ s: UnsafeRawPointer, _ at: Int) -> UInt32 {
        unsafe s.loadUnaligned(fromByteOffset: at, as: UInt32.self)
    }
}
