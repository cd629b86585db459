import Foundation
import Loupe
import LoupeCodec
import Testing
import TestSupport

/// Aggregations against tantivy 0.27 on the bundled movies corpus: each golden case's request and query run on
/// Loupe's movies index, and the response compared with tantivy's (see `AggregationJSONComparison` for what
/// "equal" allows).
@Suite struct AggregationGoldenTests {
    struct Case {
        var name: String
        var query: String?
        var request: JSONValue
        var response: JSONValue
        var tieAtCutoff: Bool
    }

    static func load(_ path: String) throws -> [Case] {
        let cases = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        return (cases.arrayValue ?? []).map { item in
            Case(
                name: item["name"]?.stringValue ?? "?", query: item["query"]?.stringValue, request: item["request"] ?? .null,
                response: item["response"] ?? .null, tieAtCutoff: item["tie_at_cutoff"]?.boolValue ?? false)
        }
    }

    static let goldenPath = ProcessInfo.processInfo.environment["LOUPE_AGGREGATION_GOLDENS"]
        ?? FixturePaths.loupeTestFixtures + "/aggregations/movies.golden.json"

    @Test func responsesMatchTantivy() throws {
        let index = MoviesFixture.index
        let cases = try Self.load(Self.goldenPath)
        #expect(!cases.isEmpty)
        for golden in cases {
            var requestText: [UInt8] = []
            JSONWriter.write(golden.request, into: &requestText)
            let query = try golden.query.map { try index.parseQuery($0) } ?? .matchAll
            let ours: JSONValue
            do {
                ours = try JSONParser.parse(try index.aggregate(String(decoding: requestText, as: UTF8.self), matching: query))
            } catch {
                Issue.record("\(golden.name): \(error)")
                continue
            }
            var comparison = AggregationJSONComparison(tieAtCutoff: golden.tieAtCutoff)
            comparison.compare(request: golden.request, ours: ours, tantivy: golden.response)
            for difference in comparison.differences { Issue.record("\(golden.name): \(difference)") }
        }
    }
}
