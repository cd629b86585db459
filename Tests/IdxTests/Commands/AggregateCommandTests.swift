import Foundation
import IdxKit
import Testing

@Suite struct AggregateCommandTests {
    static let request =
        #"{"genres": {"terms": {"field": "genres", "size": 2}, "aggs": {"avg_year": {"avg": {"field": "year"}}}}}"#

    @Test func printsTheResponseIndentedOrOnOneLine() throws {
        let folder = try Fixtures.indexedFolder()
        let file = try folder.file("request.json", Self.request)
        let run = IdxRun(["aggregate", folder.subpath("index"), file, "--json"])
        #expect(run.code == .success, "\(run.err)")
        #expect(
            run.out == #"{"genres":{"buckets":[{"key":"Comedy","doc_count":2,"avg_year":{"value":2001.5}},"#
                + #"{"key":"Crime","doc_count":2,"avg_year":{"value":1983.5}}],"sum_other_doc_count":5,"#
                + #""doc_count_error_upper_bound":0}}"# + "\n")
        let indented = IdxRun(["aggregate", folder.subpath("index"), file])
        #expect(indented.code == .success)
        #expect(indented.out.hasPrefix("{\n  \"genres\": {\n    \"buckets\": [\n      {\n        \"key\": \"Comedy\","))
        #expect(
            try JSONSerialization.jsonObject(with: Data(indented.out.utf8)) as? NSDictionary
                == JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? NSDictionary)
    }

    @Test func queryNarrowsTheDocumentsAndDashReadsStdin() throws {
        let folder = try Fixtures.indexedFolder()
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(#"{"years": {"stats": {"field": "year"}}}"#.utf8))
        try pipe.fileHandleForWriting.close()
        let run = IdxRun(
            ["aggregate", folder.subpath("index"), "-", "--query", "heat", "--json"],
            input: pipe.fileHandleForReading.fileDescriptor)
        #expect(run.code == .success, "\(run.err)")
        #expect(run.out == #"{"years":{"count":2,"sum":3995.0,"min":1995.0,"max":2000.0,"avg":1997.5}}"# + "\n")
    }

    @Test func badRequestsAndFieldsExitWithTheirPath() throws {
        let folder = try Fixtures.indexedFolder()
        let badSize = try folder.file("size.json", #"{"t": {"terms": {"field": "genres", "size": "ten"}}}"#)
        let run = IdxRun(["aggregate", folder.subpath("index"), badSize])
        #expect(run.code == .failure)
        #expect(run.err.contains("aggs.t.terms.size: expected a number, got a string"))
        let slow = try folder.file("slow.json", #"{"r": {"avg": {"field": "rating"}}}"#)
        let notFast = IdxRun(["aggregate", folder.subpath("index"), slow])
        #expect(notFast.code == .failure)
        #expect(notFast.err.contains("aggs.r.avg.field: 'rating' is not a fast field"))
        let missing = IdxRun(["aggregate", folder.subpath("index"), folder.subpath("nope.json")])
        #expect(missing.code == .failure)
        #expect(missing.err.contains("cannot read request"))
        let usage = IdxRun(["aggregate", folder.subpath("index")])
        #expect(usage.code == .usage)
    }

    @Test func helpNamesTheArgumentsAndOptions() {
        let run = IdxRun(["aggregate", "--help"])
        #expect(run.code == .success)
        #expect(run.out.contains("USAGE: idx aggregate DIR REQUEST.json [--query Q] [--json]"))
    }
}
