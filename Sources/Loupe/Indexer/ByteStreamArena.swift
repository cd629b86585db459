/// Many append-only byte streams in one growing store: each stream is a chain of slabs whose capacity doubles
/// from 8 bytes up to 32 KiB, the last 4 bytes of a slab holding the offset of the next (tantivy's
/// "expandable unrolled linked list"). One store serves every term of a segment.
///
/// The store is a table of 1 MiB pages, an offset naming its page in the high bits (tantivy's `MemoryArena`), so
/// it grows a page at a time without moving what it holds, and what it reports to the memory budget is what it
/// allocated: what it uses, plus the rest of the last page and, on each full page, a tail too short for the next
/// slab (under 32 KiB; a slab never straddles two pages). The first page starts at 128 KiB and doubles until it
/// is whole, so a small segment stays small.
///
/// The pages are raw memory owned by this class, so an append is a bounds-free store: the slab bookkeeping in
/// `Stream` guarantees every write lands inside an allocated slab.
@safe
package final class ByteStreamArena {
    private var pages: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>>
    private var pageTableCapacity = 16
    private var pageCount = 1
    /// Bytes allocated in the last page: less than a page only while the first page grows, so every page before
    /// the last is whole.
    private var lastPageCapacity = 1 << 17
    /// Bytes of the last page handed out to slabs so far.
    private var lastPageUsed = 0
    private static let pageShift = 20
    private static let pageSize = 1 << pageShift
    private static let offsetMask = pageSize - 1
    private static let linkSize = 4
    private static let firstCapacity = 8
    private static let maxCapacity = 1 << 15
    /// Pages an offset can name (4 GiB in all).
    private static let maxPages = 1 << (32 - pageShift)

    /// Where a stream currently writes.
    package struct Stream {
        package var head: UInt32
        var position: UInt32
        var slabEnd: UInt32
        var capacity: UInt32
    }

    package init() {
        unsafe pages = .allocate(capacity: pageTableCapacity)
        unsafe pages.initialize(to: .allocate(capacity: lastPageCapacity))
    }

    deinit {
        for i in 0..<pageCount { unsafe pages[i].deallocate() }
        unsafe pages.deallocate()
    }

    /// Bytes allocated for the pages and their table.
    package var memoryUsage: Int { (pageCount - 1) * Self.pageSize + lastPageCapacity + pageTableCapacity * 8 }

    package func newStream() -> Stream {
        let start = allocate(Self.firstCapacity)
        return Stream(
            head: start, position: start, slabEnd: start + UInt32(Self.firstCapacity),
            capacity: UInt32(Self.firstCapacity))
    }

    /// The offset of `size` bytes plus a link, in the last page or a new one.
    private func allocate(_ size: Int) -> UInt32 {
        let needed = size + Self.linkSize
        if lastPageUsed + needed > lastPageCapacity {
            if pageCount == 1 && lastPageUsed + needed <= Self.pageSize {
                growFirstPage(to: lastPageUsed + needed)
            } else {
                addPage()
            }
        }
        let start = (pageCount - 1) << Self.pageShift | lastPageUsed
        lastPageUsed += needed
        return UInt32(start)
    }

    @inline(never)
    private func growFirstPage(to needed: Int) {
        var grown = lastPageCapacity * 2
        while grown < needed { grown *= 2 }
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        unsafe fresh.update(from: pages[0], count: lastPageUsed)
        unsafe pages[0].deallocate()
        unsafe pages[0] = fresh
        lastPageCapacity = grown
    }

    @inline(never)
    private func addPage() {
        precondition(pageCount < Self.maxPages, "a segment's postings outgrew 4 GiB; the memory budget prevents it")
        if pageCount == pageTableCapacity {
            let table = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>>.allocate(capacity: pageTableCapacity * 2)
            unsafe table.moveInitialize(from: pages, count: pageCount)
            unsafe pages.deallocate()
            unsafe pages = table
            pageTableCapacity *= 2
        }
        unsafe (pages + pageCount).initialize(to: .allocate(capacity: Self.pageSize))
        pageCount += 1
        lastPageCapacity = Self.pageSize
        lastPageUsed = 0
    }

    /// The address of the byte at `offset`.
    @inline(__always)
    private func address(_ offset: Int) -> UnsafeMutablePointer<UInt8> {
        unsafe pages[offset &>> Self.pageShift] + (offset & Self.offsetMask)
    }

    @inline(__always)
    package func append(_ byte: UInt8, to stream: inout Stream) {
        if stream.position == stream.slabEnd { grow(&stream) }
        unsafe address(Int(stream.position)).pointee = byte
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
        unsafe UnsafeMutableRawPointer(address(Int(stream.slabEnd))).storeBytes(of: next.littleEndian, as: UInt32.self)
        stream.position = next
        stream.slabEnd = next + UInt32(size)
        stream.capacity = UInt32(size)
    }

    @inline(__always)
    fileprivate func byte(at offset: Int) -> UInt8 { unsafe address(offset).pointee }

    @inline(__always)
    fileprivate func link(at offset: Int) -> Int {
        Int(UInt32(littleEndian: unsafe UnsafeRawPointer(address(offset)).loadUnaligned(as: UInt32.self)))
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
