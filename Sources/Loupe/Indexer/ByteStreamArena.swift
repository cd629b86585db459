/// Many append-only byte streams in one growing buffer: each stream is a chain of slabs whose capacity doubles
/// from 8 bytes up to 32 KiB, the last 4 bytes of a slab holding the offset of the next (tantivy's
/// "expandable unrolled linked list"). One allocation serves every term of a segment.
///
/// The buffer is raw memory owned by this class, so an append is a bounds-free store: the slab bookkeeping in
/// `Stream` guarantees every write lands inside an allocated slab.
@safe
package final class ByteStreamArena {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes handed out to slabs so far.
    private var used = 0
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
        capacity = 1 << 17
        unsafe base = .allocate(capacity: capacity)
    }

    deinit { unsafe base.deallocate() }

    package var memoryUsage: Int { capacity }

    package func newStream() -> Stream {
        let start = allocate(Self.firstCapacity)
        return Stream(
            head: start, position: start, slabEnd: start + UInt32(Self.firstCapacity),
            capacity: UInt32(Self.firstCapacity))
    }

    private func allocate(_ size: Int) -> UInt32 {
        let needed = used + size + Self.linkSize
        if needed > capacity {
            var grown = capacity * 2
            while grown < needed { grown *= 2 }
            let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            unsafe fresh.update(from: base, count: used)
            unsafe base.deallocate()
            unsafe base = fresh
            capacity = grown
        }
        let start = used
        used = needed
        return UInt32(start)
    }

    @inline(__always)
    package func append(_ byte: UInt8, to stream: inout Stream) {
        if stream.position == stream.slabEnd { grow(&stream) }
        unsafe base[Int(stream.position)] = byte
        stream.position &+= 1
    }

    @inline(__always)
    package func appendVInt(_ value: UInt32, to stream: inout Stream) {
        var v = value
        while v >= 0x80 {
            append(UInt8(truncatingIfNeeded: v) | 0x80, to: &stream)
            v >>= 7
        }
        append(UInt8(v), to: &stream)
    }

    @inline(never)
    private func grow(_ stream: inout Stream) {
        let size = min(Int(stream.capacity) * 2, Self.maxCapacity)
        let next = allocate(size)
        unsafe (UnsafeMutableRawPointer(base) + Int(stream.slabEnd)).storeBytes(of: next.littleEndian, as: UInt32.self)
        stream.position = next
        stream.slabEnd = next + UInt32(size)
        stream.capacity = UInt32(size)
    }

    @inline(__always)
    fileprivate func byte(at offset: Int) -> UInt8 { unsafe base[offset] }

    @inline(__always)
    fileprivate func link(at offset: Int) -> Int {
        Int(UInt32(littleEndian: unsafe UnsafeRawPointer(base + offset).loadUnaligned(as: UInt32.self)))
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
        package mutating func readByte(_ arena: ByteStreamArena) -> UInt8 {
            if position == slabEnd {
                position = arena.link(at: slabEnd)
                capacity = min(capacity * 2, ByteStreamArena.maxCapacity)
                slabEnd = position + capacity
            }
            let byte = arena.byte(at: position)
            position += 1
            return byte
        }

        @inline(__always)
        package mutating func readVInt(_ arena: ByteStreamArena) -> UInt32 {
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
