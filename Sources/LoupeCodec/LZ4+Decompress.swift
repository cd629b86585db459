extension LZ4 {
    /// How far a decode got: the next sequence starts at byte `input` of the block, and the first `output` bytes of
    /// the destination are final. A later call resumes from it.
    package struct Progress: Equatable, Sendable {
        package var input: Int
        package var output: Int
        /// Whether the block's last sequence has been decoded.
        package var isComplete: Bool

        /// Nothing decoded yet.
        package static let start = Progress(input: 0, output: 0, isComplete: false)

        package init(input: Int, output: Int, isComplete: Bool) {
            self.input = input
            self.output = output
            self.isComplete = isComplete
        }
    }

    /// Decodes the whole block `src` into `dst`, whose size must be the block's decompressed size.
    /// - Throws: `.decompression` with the offset in `src` of the damage, or when the block decodes to fewer bytes.
    /// - Complexity: O(`dst.count`).
    package static func decompress(
        _ src: UnsafeRawBufferPointer, into dst: UnsafeMutableRawBufferPointer
    ) throws(FormatError) {
        let progress = unsafe try decompress(src, into: dst, from: .start, atLeast: .max)
        guard progress.output == dst.count else {
            throw sizeMismatch(decoded: progress.output, expected: dst.count, at: progress.input)
        }
    }

    /// Decodes sequences of the block `src` into `dst`, starting from `progress`, until at least `minimumOutput`
    /// bytes exist or the block ends. A reader that wants one document of a block decodes only through it.
    ///
    /// Assumptions: `progress` comes from an earlier call on the same `src`, and `dst` still holds the bytes that
    /// call produced (matches reach back into them); `dst.count` is at most the block's decompressed size, and no
    /// byte is written at or past it. Bytes past the returned `output` may have been overwritten: copies run 8 or 16
    /// bytes wide where there is room.
    ///
    /// Every length, offset and token is checked against both buffers, so damaged input throws instead of reading
    /// or writing out of bounds; each loop turn consumes at least one input byte, so it ends.
    /// - Throws: `.decompression` with the byte offset in `src` of the token, length or offset that is impossible.
    /// - Complexity: O(bytes decoded).
    package static func decompress(
        _ src: UnsafeRawBufferPointer, into dst: UnsafeMutableRawBufferPointer, from progress: Progress,
        atLeast minimumOutput: Int
    ) throws(FormatError) -> Progress {
        precondition(
            progress.input >= 0 && progress.input <= src.count && progress.output >= 0 && progress.output <= dst.count,
            "LZ4 progress outside its buffers")
        if progress.isComplete || progress.output >= minimumOutput { return progress }
        guard let s = src.baseAddress, progress.input < src.count else {
            throw missing("a sequence token", at: progress.input)
        }
        guard let d = dst.baseAddress else { return unsafe try emptyBlock(src, at: progress.input) }
        let inputEnd = src.count
        let outputEnd = dst.count
        var ip = progress.input
        var op = progress.output
        while true {
            guard ip < inputEnd else { throw missing("a sequence token", at: ip) }
            let token = unsafe s.load(fromByteOffset: ip, as: UInt8.self)
            ip &+= 1
            var literals = Int(token &>> 4)
            if literals == 15 { literals &+= unsafe try extendedLength(s, &ip, inputEnd) }
            if literals <= 16 && inputEnd &- ip >= 16 && outputEnd &- op >= 16 {
                unsafe copy16(d + op, s + ip)
            } else {
                guard literals <= inputEnd &- ip else {
                    throw overrun("literal run of \(literals) bytes", "input", at: ip)
                }
                guard literals <= outputEnd &- op else {
                    throw overrun("literal run of \(literals) bytes", "output", at: ip)
                }
                unsafe (d + op).copyMemory(from: s + ip, byteCount: literals)
            }
            ip &+= literals
            op &+= literals
            if ip == inputEnd { return Progress(input: ip, output: op, isComplete: true) }
            guard inputEnd &- ip >= 2 else { throw missing("a match offset", at: ip) }
            let offset = Int(UInt16(littleEndian: unsafe s.loadUnaligned(fromByteOffset: ip, as: UInt16.self)))
            guard offset != 0 && offset <= op else { throw badOffset(offset, decoded: op, at: ip) }
            ip &+= 2
            var length = Int(token & 15) &+ minMatch
            if length == 15 &+ minMatch { length &+= unsafe try extendedLength(s, &ip, inputEnd) }
            guard length <= outputEnd &- op else { throw overrun("match of \(length) bytes", "output", at: ip) }
            unsafe copyMatch(d, at: op, distance: offset, count: length, capacity: outputEnd)
            op &+= length
            if op >= minimumOutput { return Progress(input: ip, output: op, isComplete: false) }
        }
    }

    /// The sum of a length's extension bytes: each adds its value, and one below 255 ends it.
    @inline(__always)
    private static func extendedLength(
        _ s: UnsafeRawPointer, _ ip: inout Int, _ inputEnd: Int
    ) throws(FormatError) -> Int {
        var total = 0
        while true {
            guard ip < inputEnd else { throw missing("a length byte", at: ip) }
            let byte = unsafe s.load(fromByteOffset: ip, as: UInt8.self)
            ip &+= 1
            total &+= Int(byte)
            if byte != 255 { return total }
        }
    }

    /// Copies a match of `count` bytes from `distance` back, which may overlap what it writes (a run).
    ///
    /// Assumptions: `distance` in `1...start`, `start + count <= capacity`; bytes up to `capacity` may be written.
    @inline(__always)
    private static func copyMatch(_ d: UnsafeMutableRawPointer, at start: Int, distance: Int, count: Int, capacity: Int)
    {
        var to = start
        let end = start &+ count
        var distance = distance
        if distance < 8 {
            // The match repeats its first `distance` bytes. Once `period` (a multiple of `distance`, at least 8) bytes
            // are written one at a time, the bytes `period` back hold the same pattern and are final, so wide copies
            // from there continue it.
            let period = distance &* ((distance &+ 7) / distance)
            let head = min(count, period)
            for i in 0..<head {
                let byte = unsafe d.load(fromByteOffset: to &+ i &- distance, as: UInt8.self)
                unsafe d.storeBytes(of: byte, toByteOffset: to &+ i, as: UInt8.self)
            }
            to &+= head
            distance = period
        }
        if distance >= 16 {
            while to < end && capacity &- to >= 16 {
                unsafe copy16(d + to, UnsafeRawPointer(d + (to &- distance)))
                to &+= 16
            }
        } else {
            while to < end && capacity &- to >= 8 {
                unsafe (d + to).storeBytes(of: (d + (to &- distance)).loadUnaligned(as: UInt64.self), as: UInt64.self)
                to &+= 8
            }
        }
        while to < end {
            unsafe d.storeBytes(
                of: d.load(fromByteOffset: to &- distance, as: UInt8.self), toByteOffset: to, as: UInt8.self)
            to &+= 1
        }
    }

    /// Copies 16 bytes, both loads before both stores.
    @inline(__always)
    private static func copy16(_ to: UnsafeMutableRawPointer, _ from: UnsafeRawPointer) {
        let low = unsafe from.loadUnaligned(as: UInt64.self)
        let high = unsafe from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        unsafe to.storeBytes(of: low, as: UInt64.self)
        unsafe to.storeBytes(of: high, toByteOffset: 8, as: UInt64.self)
    }

    /// A block decoding to nothing is a single token announcing no literals.
    private static func emptyBlock(_ src: UnsafeRawBufferPointer, at ip: Int) throws(FormatError) -> Progress {
        guard unsafe src[ip] &>> 4 == 0 else { throw overrun("literal run", "output", at: ip &+ 1) }
        guard ip &+ 1 == src.count else { throw overrun("match", "output", at: ip &+ 1) }
        return Progress(input: ip &+ 1, output: 0, isComplete: true)
    }

    @inline(never)
    private static func missing(_ what: String, at offset: Int) -> FormatError {
        .decompression(offset: offset, reason: "LZ4 block ends where \(what) should be")
    }

    @inline(never)
    private static func overrun(_ what: String, _ buffer: String, at offset: Int) -> FormatError {
        .decompression(offset: offset, reason: "LZ4 \(what) runs past the end of the \(buffer)")
    }

    @inline(never)
    private static func badOffset(_ offset: Int, decoded: Int, at position: Int) -> FormatError {
        .decompression(
            offset: position,
            reason: "LZ4 match offset \(offset) reaches before the block start (\(decoded) bytes decoded)")
    }

    @inline(never)
    private static func sizeMismatch(decoded: Int, expected: Int, at offset: Int) -> FormatError {
        .decompression(offset: offset, reason: "LZ4 block decodes to \(decoded) bytes, expected \(expected)")
    }
}
