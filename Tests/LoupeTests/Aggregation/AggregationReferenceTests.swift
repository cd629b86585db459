import Foundation
import Loupe
import LoupeCodec
import TestSupport
import Testing

/// Aggregations over random indexes of several segments, with deletes and merges, against a brute-force
/// reference computed from the live documents: terms (with a segment size past every vocabulary, so segments cut
/// nothing), histograms with their empty buckets, ranges, the stats family, percentiles by the DDSketch formula
/// over the sorted values, exact cardinality, and sub-aggregations in buckets.
@Suite struct AggregationReferenceTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("body")
        .addStringField("tag", fast: true)
        .addStringField("kind", fast: true)
        .addI64Field("n", fast: true)
        .addF64Field("x", fast: true)
        .addU64Field("u", fast: true)
        .addDateField("d", fast: true)
        .build()

    struct Row {
        var id: String
        var body: [String]
        var tags: [String]
        var kind: String?
        var n: [Int64]
        var x: Double?
        var u: UInt64?
        /// Seconds since the epoch.
        var d: Int64?
    }

    static func randomRow(_ i: Int, _ rng: inout SplitMix64) -> Row {
        let tags = ["a", "b", "c", "d", "é", "ab", "b c"]
        return Row(
            id: "d\(i)", body: Bool.random(using: &rng) ? ["red"] : ["blue"],
            tags: (0..<Int.random(in: 0...3, using: &rng)).map { _ in tags.randomElement(using: &rng)! },
            kind: Int.random(in: 0..<10, using: &rng) < 7 ? ["x", "y", "zz", "Y"].randomElement(using: &rng)! : nil,
            n: (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int64.random(in: -7...9, using: &rng) },
            x: Int.random(in: 0..<10, using: &rng) < 8 ? Double(Int.random(in: -400...2500, using: &rng)) / 8 : nil,
            u: Bool.random(using: &rng) ? UInt64.random(in: 0...40, using: &rng) : nil,
            d: Bool.random(using: &rng) ? Int64.random(in: 0...(30 * 86_400), using: &rng) : nil)
    }

    static func document(_ row: Row) -> Document {
        var doc = Document()
        doc.add("id", .text(row.id))
        doc.add("body", .text(row.body.joined(separator: " ")))
        for tag in row.tags { doc.add("tag", .text(tag)) }
        if let kind = row.kind { doc.add("kind", .text(kind)) }
        for n in row.n { doc.add("n", .i64(n)) }
        if let x = row.x { doc.add("x", .f64(x)) }
        if let u = row.u { doc.add("u", .u64(u)) }
        if let d = row.d { doc.add("d", .date(Date(timeIntervalSince1970: Double(d)))) }
        return doc
    }

    static let requests: [String] = [
        #"{"t": {"terms": {"field": "tag", "size": 3, "segment_size": 1000}, "aggs": {"a": {"avg": {"field": "x"}}, "c": {"value_count": {"field": "n"}}}}}"#,
        #"{"k": {"terms": {"field": "kind", "size": 2, "segment_size": 1000, "order": {"_key": "asc"}}}, "n": {"terms": {"field": "n", "segment_size": 1000}}}"#,
        #"{"h": {"histogram": {"field": "n", "interval": 3, "offset": 1}, "aggs": {"t": {"terms": {"field": "tag", "size": 100, "segment_size": 1000}}}}}"#,
        #"{"h": {"histogram": {"field": "x", "interval": 40, "min_doc_count": 1, "hard_bounds": {"min": -20, "max": 200}}}}"#,
        #"{"r": {"range": {"field": "x", "ranges": [{"to": 0}, {"from": 0, "to": 10.5}, {"from": 100}]}, "aggs": {"s": {"stats": {"field": "u"}}}}}"#,
        #"{"s": {"stats": {"field": "x"}}, "mi": {"min": {"field": "n"}}, "ma": {"max": {"field": "u"}}, "su": {"sum": {"field": "n"}}, "vc": {"value_count": {"field": "tag"}}, "c": {"cardinality": {"field": "tag"}}, "cn": {"cardinality": {"field": "n"}}, "p": {"percentiles": {"field": "x", "percents": [10, 50, 90]}}}"#,
        #"{"dh": {"date_histogram": {"field": "d", "fixed_interval": "2d"}, "aggs": {"k": {"terms": {"field": "kind", "segment_size": 1000}}}}}"#,
    ]

    @Test(arguments: 0..<10 as Range<UInt64>)
    func aggregationsMatchAReference(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let documents = Int.random(in: 20...500, using: &rng)
        let (index, live) = try randomIndex(
            schema: Self.schema, seed: seed, rng: &rng, documents: documents, deleteOneIn: 30,
            row: Self.randomRow, id: \.id, document: Self.document)

        for (query, rows) in [(Query.matchAll, live), (.term("body", "red"), live.filter { $0.body == ["red"] })] {
            for request in Self.requests {
                let ours = try JSONParser.parse(try index.aggregate(request, matching: query))
                let parsed = try JSONParser.parse(request)
                let expected = Reference(rows: rows).response(parsed)
                var comparison = AggregationJSONComparison(tieAtCutoff: false)
                comparison.compare(request: parsed, ours: ours, expected: expected)
                #expect(comparison.differences.isEmpty, "seed \(seed), \(request): \(comparison.differences)")
            }
        }
    }

    /// The brute-force answers, written as tantivy's JSON.
    struct Reference {
        let rows: [Row]

        func response(_ request: JSONValue) -> JSONValue {
            .object(
                (request.members ?? []).map { member in
                    JSONMember(key: member.key, value: result(member.value, rows))
                })
        }

        /// One request field's values of a row, as numbers (dates in nanoseconds) or strings.
        func numbers(_ field: String, _ row: Row) -> [Double] {
            switch field {
            case "n": row.n.map(Double.init)
            case "x": row.x.map { [$0] } ?? []
            case "u": row.u.map { [Double($0)] } ?? []
            case "d": row.d.map { [Double($0) * 1e9] } ?? []
            default: strings(field, row).map { _ in 0 }
            }
        }

        func strings(_ field: String, _ row: Row) -> [String] {
            switch field {
            case "tag": row.tags
            case "kind": row.kind.map { [$0] } ?? []
            default: []
            }
        }

        func result(_ aggregation: JSONValue, _ rows: [Row]) -> JSONValue {
            let (kind, body) =
                (aggregation.members ?? []).first { !$0.key.elementsEqual("aggs".utf8) }
                .map { (String(decoding: $0.key, as: UTF8.self), $0.value) } ?? ("", .null)
            let subs = aggregation["aggs"]
            let field = body["field"]?.stringValue ?? ""
            func bucket(_ members: [JSONMember], _ inside: [Row]) -> JSONValue {
                .object(members + (subs.map { Reference(rows: inside).response($0).members ?? [] } ?? []))
            }
            switch kind {
            case "terms":
                let numeric = field == "n"
                var groups: [String: [Row]] = [:]
                for row in rows {
                    let keys = numeric ? numbers(field, row).map { String(Int64($0)) } : strings(field, row)
                    for key in Set(keys) { groups[key, default: []].append(row) }
                }
                let byKey = body["order"]?["_key"] != nil
                let sorted = groups.sorted { a, b in
                    let keyOrder =
                        numeric
                        ? Int64(a.key)! < Int64(b.key)! : Array(a.key.utf8).lexicographicallyPrecedes(Array(b.key.utf8))
                    if byKey || a.value.count == b.value.count { return keyOrder }
                    return a.value.count > b.value.count
                }
                let size = Int(body["size"]?.int64Value ?? 10)
                let kept = sorted.prefix(size)
                var members = [
                    JSONMember(
                        "buckets",
                        .array(
                            kept.map { key, inside in
                                let keyValue: JSONValue =
                                    numeric ? .number(JSONNumber(Int64(key)!)) : .string(Array(key.utf8))
                                return bucket(
                                    [
                                        JSONMember("key", keyValue),
                                        JSONMember("doc_count", .number(JSONNumber(Int64(inside.count)))),
                                    ], inside)
                            })),
                    JSONMember(
                        "sum_other_doc_count",
                        .number(JSONNumber(Int64(sorted.dropFirst(size).reduce(0) { $0 + $1.value.count })))),
                ]
                if !byKey { members.append(JSONMember("doc_count_error_upper_bound", .number(JSONNumber(Int64(0))))) }
                return .object(members)
            case "histogram", "date_histogram":
                let isDate = kind == "date_histogram"
                let interval = isDate ? 2 * 86_400_000 * 1e6 : (body["interval"]?.doubleValue ?? 1)
                let offset = body["offset"]?.doubleValue ?? 0
                let hard = body["hard_bounds"].map { ($0["min"]?.doubleValue ?? 0, $0["max"]?.doubleValue ?? 0) }
                var groups: [Int64: [Row]] = [:]
                for row in rows {
                    let positions = numbers(field, row).filter { v in hard.map { v >= $0.0 && v <= $0.1 } ?? true }
                        .map { Int64(((($0 - offset) / interval)).rounded(.down)) }
                    for p in Set(positions) { groups[p, default: []].append(row) }
                }
                var positions = groups.keys.sorted()
                if body["min_doc_count"] == nil, let first = positions.first, let last = positions.last {
                    positions = Array(first...last)
                }
                return .object([
                    JSONMember(
                        "buckets",
                        .array(
                            positions.map { p in
                                let inside = groups[p] ?? []
                                let key = Double(p) * interval + offset
                                var members: [JSONMember] = []
                                if isDate {
                                    members.append(
                                        JSONMember("key_as_string", .string(Array(Self.rfc3339(Int64(key / 1e9)).utf8)))
                                    )
                                }
                                members += [
                                    JSONMember("key", .number(JSONNumber(isDate ? key / 1e6 : key))),
                                    JSONMember("doc_count", .number(JSONNumber(Int64(inside.count)))),
                                ]
                                return bucket(members, inside)
                            }))
                ])
            case "range":
                // The request's ranges are sorted and leave one gap, [10.5, 100), which tantivy fills.
                let bounds: [(String, Double?, Double?)] = [
                    ("*-0", nil, 0), ("0-10.5", 0, 10.5), ("10.5-100", 10.5, 100), ("100-*", 100, nil),
                ]
                return .object([
                    JSONMember(
                        "buckets",
                        .array(
                            bounds.map { key, from, to in
                                let inside = rows.filter { row in
                                    numbers(field, row).contains { v in
                                        (from.map { v >= $0 } ?? true) && (to.map { v < $0 } ?? true)
                                    }
                                }
                                var members = [
                                    JSONMember("key", .string(Array(key.utf8))),
                                    JSONMember("doc_count", .number(JSONNumber(Int64(inside.count)))),
                                ]
                                members += subs.map { Reference(rows: inside).response($0).members ?? [] } ?? []
                                if let from { members.append(JSONMember("from", .number(JSONNumber(from)))) }
                                if let to { members.append(JSONMember("to", .number(JSONNumber(to)))) }
                                return .object(members)
                            }))
                ])
            case "cardinality":
                let distinct =
                    field == "n"
                    ? Set(rows.flatMap { numbers(field, $0) }.map { String($0) })
                    : Set(rows.flatMap { strings(field, $0) })
                return .object([JSONMember("value", .number(JSONNumber(Double(distinct.count))))])
            case "percentiles":
                let values = rows.flatMap { numbers(field, $0) }.sorted()
                let percents = body["percents"]?.arrayValue?.compactMap(\.doubleValue) ?? []
                return .object([
                    JSONMember(
                        "values",
                        .object(
                            percents.map { p in
                                let name = p == p.rounded() ? "\(Int(p)).0" : "\(p)"
                                guard !values.isEmpty else { return JSONMember(name, .null) }
                                return JSONMember(
                                    name,
                                    .number(JSONNumber(Self.ddsketch(values[Int(p / 100 * Double(values.count - 1))]))))
                            }))
                ])
            default:
                let values = rows.flatMap { numbers(field, $0) }
                let sum = values.reduce(0, +)
                let number = { (v: Double?) -> JSONValue in v.map { .number(JSONNumber($0)) } ?? .null }
                switch kind {
                case "stats":
                    return .object([
                        JSONMember("count", .number(JSONNumber(Int64(values.count)))), JSONMember("sum", number(sum)),
                        JSONMember("min", number(values.min())), JSONMember("max", number(values.max())),
                        JSONMember("avg", number(values.isEmpty ? nil : sum / Double(values.count))),
                    ])
                case "min": return .object([JSONMember("value", number(values.min()))])
                case "max": return .object([JSONMember("value", number(values.max()))])
                case "avg":
                    return .object([JSONMember("value", number(values.isEmpty ? nil : sum / Double(values.count)))])
                case "sum": return .object([JSONMember("value", number(sum))])
                default: return .object([JSONMember("value", number(Double(values.count)))])
                }
            }
        }

        /// DDSketch's answer for the value at a quantile's rank (TANTIVY-SHAPES.md): exp(⌊ln|v| / λ⌋ λ)(1 + α).
        static func ddsketch(_ v: Double) -> Double {
            guard abs(v) > 1e-9 else { return 0 }
            let lambda = log(1 + 2 * 0.01 / 0.99)
            let magnitude = exp((log(abs(v)) / lambda).rounded(.up) * lambda - lambda) * 1.01
            return v < 0 ? -magnitude : magnitude
        }

        static func rfc3339(_ seconds: Int64) -> String {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            return formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
        }
    }
}
