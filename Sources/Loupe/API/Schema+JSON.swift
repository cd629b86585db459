import LoupeCodec

extension Schema {
    /// Reads a schema from JSON text (see `Schema` for the shape).
    /// - Throws: `IndexError` `.invalidArgument` saying which field or key is wrong.
    public init(json: String) throws(IndexError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(json)
        } catch {
            throw IndexError(
                .invalidArgument, "schema: malformed JSON: \(error.message)", context: .init(byteOffset: error.offset))
        }
        self = try Schema.decode(json: value)
    }

    /// The schema as JSON text, in the shape `init(json:)` reads.
    public var json: String {
        var out: [UInt8] = []
        JSONWriter.write(encode(), into: &out, pretty: true)
        return String(decoding: out, as: UTF8.self)
    }
}
