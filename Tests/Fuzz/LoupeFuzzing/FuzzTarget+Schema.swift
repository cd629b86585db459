import Loupe

extension FuzzTarget {
    /// The input as schema JSON: a schema it reads must come back equal from its own JSON, and open an index that
    /// parses and runs a query over the schema's fields.
    static func schema(_ input: [UInt8]) -> FuzzOutcome {
        let schema: Schema
        do {
            schema = try Schema(json: String(decoding: input, as: UTF8.self))
        } catch {
            return FuzzSteps.refused(error)
        }
        let json = schema.json
        guard let again = try? Schema(json: json) else { return .failed("a schema's own JSON does not read back") }
        guard again == schema else { return .failed("a schema read back from its JSON differs from it") }
        var steps = FuzzSteps()
        steps.run { () throws(IndexError) in
            let index = try Index.inMemory(schema: schema)
            _ = try index.search("a* OR b", limit: 1)
        }
        return steps.outcome
    }

    /// Schemas of other shapes than `FuzzIndex.schema`, in the JSON they write.
    static var schemaSeeds: [String] {
        [
            SchemaBuilder().addTextField("t").build().json,
            SchemaBuilder()
                .addTextField("title", stored: true, tokenizer: .whitespace, record: .basic)
                .addTextField("code", indexed: false, fast: true, tokenizer: .lowercase, record: .freq)
                .addI64Field("n", stored: true, indexed: false, fast: true)
                .addF64Field("x", fast: true).addBoolField("b").addDateField("at", stored: true).build().json,
        ]
    }
}
