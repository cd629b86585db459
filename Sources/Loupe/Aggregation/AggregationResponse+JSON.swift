import LoupeCodec

// The response in tantivy 0.27's JSON shape (serde's serialisation of `AggregationResults`): integers for
// counts and integer keys, doubles for values and histogram keys, `null` for a missing value (and for NaN,
// which JSON cannot spell, as serde_json writes it). Members keep tantivy's order within an object, with
// sub-aggregations after `doc_count`; the aggregations of one level keep request order.

extension AggregationResponse {
    /// The response as a JSON value.
    package var json: JSONValue {
        .object(results.map { JSONMember($0.name, $0.result.json) })
    }

    /// The response as JSON text, compact or indented by two spaces.
    package func jsonText(pretty: Bool = false) -> String {
        var bytes: [UInt8] = []
        JSONWriter.write(json, into: &bytes, pretty: pretty)
        return String(decoding: bytes, as: UTF8.self)
    }

    fileprivate var members: [JSONMember] { results.map { JSONMember($0.name, $0.result.json) } }
}

extension AggregationResult {
    package var json: JSONValue {
        switch self {
        case .terms(let t):
            var members = [JSONMember("buckets", .array(t.buckets.map(\.json))), JSONMember("sum_other_doc_count", .int(t.sumOtherDocCount))]
            if let bound = t.docCountErrorUpperBound { members.append(JSONMember("doc_count_error_upper_bound", .int(bound))) }
            return .object(members)
        case .histogram(let h):
            let buckets = h.buckets.map(\.json)
            guard h.keyed else { return .object([JSONMember("buckets", .array(buckets))]) }
            let keys = h.buckets.map { AggregationText.rustDisplay($0.key) }
            return .object([JSONMember("buckets", .object(zip(keys, buckets).map { JSONMember($0, $1) }))])
        case .range(let r):
            let buckets = r.buckets.map(\.json)
            guard r.keyed else { return .object([JSONMember("buckets", .array(buckets))]) }
            return .object([JSONMember("buckets", .object(zip(r.buckets, buckets).map { JSONMember($0.key, $1) }))])
        case .value(let v):
            return .object([JSONMember("value", .double(v))])
        case .stats(let s):
            return .object([
                JSONMember("count", .int(s.count)), JSONMember("sum", .double(s.sum)), JSONMember("min", .double(s.min)),
                JSONMember("max", .double(s.max)), JSONMember("avg", .double(s.avg)),
            ])
        case .percentiles(let p):
            let values: JSONValue =
                p.keyed
                ? .object(p.values.map { JSONMember(AggregationText.percentileName($0.percent), .double($0.value)) })
                : .array(p.values.map { .object([JSONMember("key", .double($0.percent)), JSONMember("value", .double($0.value))]) })
            return .object([JSONMember("values", values)])
        }
    }
}

extension TermsBucket {
    var json: JSONValue {
        var members: [JSONMember] = []
        switch key {
        case .string(let bytes): members.append(JSONMember(key: Array("key".utf8), value: .string(bytes)))
        case .i64(let v): members.append(JSONMember("key", .number(JSONNumber(v))))
        case .u64(let v): members.append(JSONMember("key", .number(JSONNumber(v))))
        case .bool(let v):
            members.append(JSONMember("key_as_string", .string(Array((v ? "true" : "false").utf8))))
            members.append(JSONMember("key", .number(JSONNumber(UInt64(v ? 1 : 0)))))
        case .f64(let v): members.append(JSONMember("key", .double(v)))
        }
        members.append(JSONMember("doc_count", .int(docCount)))
        return .object(members + subAggregations.members)
    }
}

extension HistogramBucket {
    var json: JSONValue {
        var members: [JSONMember] = []
        if let keyAsString { members.append(JSONMember("key_as_string", .string(Array(keyAsString.utf8)))) }
        members.append(JSONMember("key", .double(key)))
        members.append(JSONMember("doc_count", .int(docCount)))
        return .object(members + subAggregations.members)
    }
}

extension RangeBucket {
    var json: JSONValue {
        var members = [JSONMember("key", .string(Array(key.utf8))), JSONMember("doc_count", .int(docCount))]
        members += subAggregations.members
        if let from { members.append(JSONMember("from", .double(from))) }
        if let to { members.append(JSONMember("to", .double(to))) }
        if let fromAsString { members.append(JSONMember("from_as_string", .string(Array(fromAsString.utf8)))) }
        if let toAsString { members.append(JSONMember("to_as_string", .string(Array(toAsString.utf8)))) }
        return .object(members)
    }
}

extension JSONValue {
    fileprivate static func int(_ value: Int) -> JSONValue { .number(JSONNumber(Int64(value))) }

    /// A double, or `null` for none and for NaN and infinities.
    fileprivate static func double(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return .number(JSONNumber(value))
    }
}
