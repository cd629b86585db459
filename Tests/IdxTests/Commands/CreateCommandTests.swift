import IdxKit
import Testing

@Suite struct CreateCommandTests {
    @Test func createsAnEmptyIndex() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let index = folder.subpath("new/index")

        let run = IdxRun(["create", index, "--schema", schema])
        #expect(run.code == .success)
        #expect(run.out == "created an empty index at \(index) (6 fields)\n")
        #expect(run.err.isEmpty)

        let stats = try IdxRun(["stats", index, "--json"]).json()
        #expect(stats["documents"] as? Int == 0)
        #expect((stats["segments"] as? [Any])?.isEmpty == true)
    }

    @Test func createIsIdempotentWithTheSameSchema() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let index = folder.subpath("index")
        #expect(IdxRun(["create", index, "--schema=\(schema)"]).code == .success)

        let again = IdxRun(["create", index, "--schema", schema])
        #expect(again.code == .success)
        #expect(again.out == "\(index) already holds an index with this schema; nothing to do\n")
    }

    @Test func anotherSchemaOverAnExistingIndexFails() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", Fixtures.schema)
        let other = try folder.file("other.json", Fixtures.otherSchema)
        let index = folder.subpath("index")
        #expect(IdxRun(["create", index, "--schema", schema]).code == .success)

        let run = IdxRun(["create", index, "--schema", other])
        #expect(run.code == .failure)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("idx create: \(index) already holds an index with another schema"))
    }

    @Test func invalidSchemaNamesTheFile() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", #"{"fields": [{"name": "title", "type": "txet"}]}"#)
        let run = IdxRun(["create", folder.subpath("index"), "--schema", schema])
        #expect(run.code == .failure)
        #expect(run.err.hasPrefix("idx create: \(schema): schema: "))
        #expect(run.err.contains("field 'title'"))
    }

    @Test func malformedSchemaJSONGivesTheByte() throws {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", #"{"fields": ["#)
        let run = IdxRun(["create", folder.subpath("index"), "--schema", schema])
        #expect(run.code == .failure)
        #expect(run.err.hasPrefix("idx create: \(schema): schema: malformed JSON"))
        #expect(run.err.contains("(byte "))
    }

    @Test func missingSchemaFile() throws {
        let folder = try TemporaryFolder()
        let run = IdxRun(["create", folder.subpath("index"), "--schema", folder.subpath("nope.json")])
        #expect(run.code == .failure)
        #expect(run.err.hasPrefix("idx create: cannot read schema \(folder.subpath("nope.json")): "))
    }
}
