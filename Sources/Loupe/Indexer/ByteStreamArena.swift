/// Many append-only byte streams in one growing buffer: each stream is a chain of slabs whose capacity doubles
/// from 8 bytes up to 32 KiB, the last 4 bytes of a slab holding the offset of the next (tantivy's
/// "expandable unrolled linked list"). One allocation serves every term of a segment.
package struct ByteStreamArena {
    package private(set) var buffer: [UInt8] = []
    private static let linkSize = 4
    private static let firstCapacity = 8
    private static let maxCapacity = 1 << 15

    /// Where a stream currently writes.
    package struct Stream {
        package var head: UInt32
        var position: UInt32
        var slabEnd: UInt32
        var capacity: UInt32
    }

    package init() {
        buffer.reserveCapacity(1 << 20)
    }

    package var memoryUsage: Int { buffer.capacity }

    package mutating func newStream() -> Stream {
        let start = allocate(Self.firstCapacity)
        return Stream(
            head: start, position: start, slabEnd: start + UInt32(Self.firstCapacity), capacity: UInt32(Self.firstCapacity))
    }

    private mutating func allocate(_ capacity: Int) -> UInt32 {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: capacity + Self.linkSize))
        return UInt32(start)
    }

    @inline(__always)
    package mutating func append(_ byte: UInt8, to stream: inout Stream) {
        if stream.position == stream.slabEnd { grow(&stream) }
        buffer[Int(stream.position)] = byte
        stream.position += 1
    }

    @inline(__always)
    package mutating func appendVInt(_ value: UInt32, to stream: inout Stream) {
        var v = value
        while v >= 0x80 {
            append(UInt8(truncatingIfNeeded: v) | 0x80, to: &stream)
            v >>= 7
        }
        append(UInt8(v), to: &stream)
    }

    private mutating func grow(_ stream: inout Stream) {
        let capacity = min(Int(stream.capacity) * 2, Self.maxCapacity)
        let next = allocate(capacity)
        unsafe withUnsafeBytes(of: next.littleEndian) { link in
            for i in 0..<Self.linkSize { buffer[Int(stream.slabEnd) + i] = unsafe link[i] }
        }
        stream.position = next
        stream.slabEnd = next + UInt32(capacity)
        stream.capacity = UInt32(capacity)
    }

    /// Reads a stream from its head up to `end` (its writer's current `Stream`).
    package struct Reader {
        private var position: Int
        private var slabEnd: Int
        private var capacity: Int
        private let end: Int

        package init(_ stream: Stream) {
            position = Int(stream.head)
            capacity = ByteStreamArena.firstCapacity
            slabEnd = position + capacity
            end = Int(stream.position)
        }

        package var isAtEnd: Bool { position == end }

        @inline(__always)
        package mutating func readByte(_ arena: borrowing ByteStreamArena) -> UInt8 {
            if position == slabEnd {
                let b = arena.buffer
                position = Int(UInt32(b[slabEnd]) | UInt32(b[slabEnd + 1]) << 8 | UInt32(b[slabEnd + 2]) << 16 | UInt32(b[slabEnd + 3]) << 24)
                capacity = min(capacity * 2, ByteStreamArena.maxCapacity)
                slabEnd = position + capacity
            }
            let byte = arena.buffer[position]
            position += 1
            return byte
        }

        @inline(__always)
        package mutating func readVInt(_ arena: borrowing ByteStreamArena) -> UInt32 {
            var result: UInt32 = 0
            var shift: UInt32 = 0
            while true {
                let b = readByte(arena)
                result |= UInt32(b & 0x7F) << shift
                if b < 0x80 { return result }
                shift += 7
            }
        }
    }
}
