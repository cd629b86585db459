import LoupeCodec
import Testing

@Suite struct CRC32Tests {
    @Test func knownVectors() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }

    @Test func seedContinuesAChecksum() {
        let bytes = Array("123456789".utf8)
        bytes.withUnsafeBytes { buffer in
            let head = CRC32.checksum(UnsafeRawBufferPointer(rebasing: buffer[..<4]))
            #expect(CRC32.checksum(UnsafeRawBufferPointer(rebasing: buffer[4...]), seed: head) == 0xCBF4_3926)
            #expect(CRC32.checksum(UnsafeRawBufferPointer(rebasing: buffer[9...]), seed: head) == head)
        }
    }
}
