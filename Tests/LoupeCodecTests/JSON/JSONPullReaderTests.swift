import LoupeCodec
import TestSupport
import Testing

/// `JSONPullReader` against `JSONParser`: a tree rebuilt by walking the pull reader is the parser's tree, and the
/// two accept and reject the same inputs.
@Suite struct JSONPullReaderTests {
    @Test(arguments: 0..<10 as Range<UInt64>)
    func aWalkRebuildsTheParsersTree(seed: UInt64) throws {
        var generator = JSONValueGenerator(random: SplitMix64(seed: seed))
        for _ in 0..<200 {
            let value = generator.value()
            let bytes = jsonText(value, pretty: seed.isMultiple(of: 2))
            #expect(try Self.walk(bytes) == value, "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test(arguments: 0..<10 as Range<UInt64>)
    func damagedInputIsRejectedWhereTheParserRejectsIt(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var generator = JSONValueGenerator(random: SplitMix64(seed: seed))
        let alphabet = Array(#"{}[],:"\ -+.0eEtrufalsn"#.utf8) + [0x00, 0x80, 0xFF]
        for _ in 0..<300 {
            var bytes = jsonText(generator.value())
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let byte = alphabet[Int.random(in: alphabet.indices, using: &random)]
                let index = bytes.isEmpty ? 0 : Int.random(in: bytes.indices, using: &random)
                switch (bytes.isEmpty, Int.random(in: 0..<3, using: &random)) {
                case (true, _), (_, 0): bytes.insert(byte, at: index)
                case (_, 1): bytes[index] = byte
                default: bytes.remove(at: index)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self).debugDescription
            let parsed = Result { () throws(JSONError) in try JSONParser.parse(bytes) }
            let walked = Result { () throws(JSONError) in try Self.walk(bytes) }
            switch (parsed, walked) {
            case (.success(let a), .success(let b)): #expect(a == b, "seed \(seed): \(text)")
            case (.failure, .failure(let error)): #expect((0...bytes.count).contains(error.offset), "\(text)")
            default: Issue.record("seed \(seed): parser \(parsed), pull reader \(walked) on \(text)")
            }
        }
    }

    @Test func stringsWithoutEscapesAreRangesOfTheInput() throws {
        let bytes = Array(#"{"plain": "héllo", "esc\"aped": "a\nb"}"#.utf8)
        try bytes.withUnsafeBytes { raw in
            var reader = unsafe JSONPullReader(raw)
            #expect(try reader.peekKind() == .object)
            reader.enterContainer()
            guard case .input(let key)? = try reader.nextMember(first: true) else {
                Issue.record("a plain key is a range of the input")
                return
            }
            #expect(Array(bytes[key]) == Array("plain".utf8))
            #expect(try reader.peekKind() == .string)
            guard case .input(let value) = try reader.readString() else {
                Issue.record("a plain value is a range of the input")
                return
            }
            #expect(Array(bytes[value]) == Array("héllo".utf8))
            #expect(try reader.nextMember(first: false).map(Self.owned) == Array(#"esc"aped"#.utf8))
            #expect(try reader.peekKind() == .string)
            #expect(Self.owned(try reader.readString()) == Array("a\nb".utf8))
            #expect(try reader.nextMember(first: false) == nil)
            try reader.finish()
        }
    }

    private static func owned(_ string: JSONStringBytes) -> [UInt8]? {
        if case .unescaped(let bytes) = string { return bytes }
        return nil
    }

    /// The value `bytes` holds, read through the pull reader alone.
    static func walk(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        let result = unsafe bytes.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> JSONValue in
                var reader = unsafe JSONPullReader(raw)
                let value = try unsafe read(&reader, raw)
                try reader.finish()
                return value
            }
        }
        return try result.get()
    }

    private static func read(
        _ reader: inout JSONPullReader, _ raw: UnsafeRawBufferPointer
    ) throws(JSONError)
        -> JSONValue
    {
        switch try reader.peekKind() {
        case .null:
            try reader.readNull()
            return .null
        case .bool: return .bool(try reader.readBool())
        case .number: return .number(try reader.readNumber())
        case .string: return .string(try unsafe bytes(of: reader.readString(), in: raw))
        case .array:
            reader.enterContainer()
            var elements: [JSONValue] = []
            while try reader.nextElement(first: elements.isEmpty) {
                elements.append(try unsafe read(&reader, raw))
            }
            return .array(elements)
        case .object:
            reader.enterContainer()
            var members: [JSONMember] = []
            while let key = try reader.nextMember(first: members.isEmpty) {
                let key = unsafe bytes(of: key, in: raw)
                members.append(JSONMember(key: key, value: try unsafe read(&reader, raw)))
            }
            return .object(members)
        }
    }

    private static func bytes(of string: JSONStringBytes, in raw: UnsafeRawBufferPointer) -> [UInt8] {
        switch string {
        case .input(let range): unsafe Array(raw[range])
        case .unescaped(let bytes): bytes
        }
    }
}
