import LoupeCodec
import Testing

@Suite struct ByteIOTests {
    /// One of every write, in a fixed order, so readers can replay it.
    static func sampleFile() -> ByteWriter {
        var writer = ByteWriter(capacity: 64)
        writer.writeU8(0xAB)
        writer.writeU16(0xBEEF)
        writer.writeU32(0xDEAD_BEEF)
        writer.writeU64(0x0123_4567_89AB_CDEF)
        writer.writeVInt(300)
        writer.writeLengthPrefixed([1, 2, 3] as [UInt8])
        writer.writeBytes([9, 8] as [UInt8])
        ([7, 6, 5] as [UInt8]).withUnsafeBytes { (raw: UnsafeRawBufferPointer) in writer.writeBytes(raw) }
        writer.pad(toMultipleOf: 8)
        writer.writeU32(0xFFFF_FFFF)
        return writer
    }

    static func readSample(_ reader: inout ByteReader) throws(FormatError) -> [UInt64] {
        var fields: [UInt64] = []
        fields.append(UInt64(try reader.readU8()))
        fields.append(UInt64(try reader.readU16()))
        fields.append(UInt64(try reader.readU32()))
        fields.append(try reader.readU64())
        fields.append(try reader.readVInt())
        fields.append(contentsOf: try reader.readLengthPrefixed().map(UInt64.init))
        fields.append(contentsOf: try reader.readBytes(2).map(UInt64.init))
        fields.append(contentsOf: try reader.readBytes(3).map(UInt64.init))
        try reader.skip((8 - reader.offset % 8) % 8)
        fields.append(UInt64(try reader.readU32()))
        return fields
    }

    @Test func everyTypeRoundTrips() throws {
        let writer = Self.sampleFile()
        #expect(writer.count % 4 == 0)
        try writer.bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            let fields = try Self.readSample(&reader)
            #expect(
                fields == [0xAB, 0xBEEF, 0xDEAD_BEEF, 0x0123_4567_89AB_CDEF, 300, 1, 2, 3, 9, 8, 7, 6, 5, 0xFFFF_FFFF])
            #expect(reader.isAtEnd)
            #expect(reader.remaining == 0)
        }
    }

    @Test func bytesAreLittleEndian() {
        var writer = ByteWriter()
        writer.writeU16(0x0102)
        writer.writeU32(0x0304_0506)
        writer.writeU64(0x0708_090A_0B0C_0D0E)
        #expect(writer.bytes == [2, 1, 6, 5, 4, 3, 0x0E, 0x0D, 0x0C, 0x0B, 0x0A, 9, 8, 7])
        writer.bytes.withUnsafeBytes { buffer in
            #expect(buffer.loadU32LE(at: 2) == 0x0304_0506)
            #expect(buffer.baseAddress!.loadU64LE(at: 6) == 0x0708_090A_0B0C_0D0E)
        }
    }

    @Test func truncationAtEveryLengthThrowsTruncated() {
        let bytes = Self.sampleFile().bytes
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            prefix.withUnsafeBytes { buffer in
                var reader = ByteReader(buffer)
                do throws(FormatError) {
                    _ = try Self.readSample(&reader)
                    Issue.record("length \(length): read past the end")
                } catch {
                    guard case .truncated(let offset, let needed, let available) = error else {
                        Issue.record("length \(length): expected .truncated, got \(error)")
                        return
                    }
                    #expect(offset + available == length, "length \(length)")
                    #expect(needed > available, "length \(length)")
                }
            }
        }
    }

    @Test func failedReadsLeaveTheCursorInPlace() {
        var writer = ByteWriter()
        writer.writeVInt(10)
        writer.writeBytes([1, 2, 3] as [UInt8])
        writer.bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            #expect(throws: FormatError.truncated(offset: 1, needed: 10, available: 3)) {
                try reader.readLengthPrefixed()
            }
            #expect(reader.offset == 0)
            #expect(throws: FormatError.truncated(offset: 0, needed: 8, available: 4)) { try reader.readU64() }
            #expect(throws: FormatError.malformed(offset: 0, reason: "negative length -1")) { try reader.skip(-1) }
            #expect(reader.offset == 0)
        }
    }

    @Test func padAndRemoveAll() {
        var writer = ByteWriter()
        writer.pad(toMultipleOf: 4)
        #expect(writer.count == 0)
        writer.writeU8(1)
        writer.pad(toMultipleOf: 4)
        #expect(writer.bytes == [1, 0, 0, 0])
        writer.pad(toMultipleOf: 4)
        #expect(writer.count == 4)
        writer.removeAll()
        #expect(writer.count == 0)
    }

    @Test func subviewsPointIntoTheBuffer() throws {
        let bytes: [UInt8] = [0, 1, 2, 3, 4, 5]
        try bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer, offset: 2)
            let view = try reader.readBytes(3)
            #expect(view.baseAddress == buffer.baseAddress! + 2)
            #expect(Array(view) == [2, 3, 4])
            #expect(reader.remaining == 1)
        }
    }
}
