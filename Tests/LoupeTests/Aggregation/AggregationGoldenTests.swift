import Foundation
import Loupe
import LoupeCodec
import TestSupport
import Testing

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
        var arbitraryTieMembers: Bool
    }

    /// Cases where Loupe deliberately answers otherwise (Docs/AGGREGATIONS.md, "Differences from tantivy"): an
    /// error where tantivy returns an empty result, with the error's message.
    static let documentedErrors = [
        "terms_year_include_on_numeric_field":
            "aggs.years.terms: include and exclude filter the terms of string fields only",
        "metrics_on_string_field": "aggs.stats.stats.field: stats needs a numeric or date field",
    ]

    static func load(_ path: String) throws -> [Case] {
        let cases = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        return (cases.arrayValue ?? []).map { item in
            Case(
                name: item["name"]?.stringValue ?? "?", query: item["query"]?.stringValue,
                request: item["request"] ?? .null,
                response: item["response"] ?? .null, tieAtCutoff: item["tie_at_cutoff"]?.boolValue ?? false,
                arbitraryTieMembers: item["arbitrary_tie_members"]?.boolValue ?? false)
        }
    }

    static let goldenPath = FixturePaths.loupeTestFixtures + "/aggregations/movies.golden.json"

    @Test func responsesMatchTantivy() throws {
        let index = MoviesFixture.index
        let cases = try Self.load(Self.goldenPath)
        #expect(cases.count >= 80)
        var compared = 0
        for golden in cases {
            var requestText: [UInt8] = []
            JSONWriter.write(golden.request, into: &requestText)
            let query = try golden.query.map { try index.parseQuery($0) } ?? .matchAll
            let ours: JSONValue
            do {
                ours = try JSONParser.parse(
                    try index.aggregate(String(decoding: requestText, as: UTF8.self), matching: query))
            } catch let error as IndexError {
                let expected = Self.documentedErrors[golden.name]
                #expect(expected != nil && error.message.hasPrefix(expected ?? ""), "\(golden.name): \(error)")
                continue
            }
            #expect(Self.documentedErrors[golden.name] == nil, "\(golden.name) answered; expected an error")
            var comparison = AggregationJSONComparison(
                tieAtCutoff: golden.tieAtCutoff || golden.arbitraryTieMembers, countsOnly: golden.arbitraryTieMembers)
            comparison.compare(request: golden.request, ours: ours, expected: golden.response)
            for difference in comparison.differences { Issue.record("\(golden.name): \(difference)") }
            compared += 1
        }
        #expect(compared + Self.documentedErrors.count == cases.count)
    }
}
