import LoupeCodec

/// Compares an aggregation response with an expected one (tantivy's, or a reference's), walking the request
/// alongside so each value is judged as what it is: counts and keys exactly, float statistics to a relative 1e-9
/// (sums may add in another order), cardinality estimates within the two sketches' errors, and terms buckets that
/// tie on what their order sorts by in any order (tantivy's order among them is arbitrary; with `tieAtCutoff`, the
/// last such run may even hold other keys). With `countsOnly`, for cases where tantivy's per-segment cut kept
/// arbitrary members of a tie, terms buckets are compared by what they sort by alone.
struct AggregationJSONComparison {
    /// Relative difference allowed between two cardinality estimates: tantivy's HyperLogLog (2¹¹ registers) is
    /// within about 2.3% per standard error, Loupe's exact up to 1,024 values and 0.81% beyond; 3σ of both.
    static let cardinalityTolerance = 0.075
    static let floatTolerance = 1e-9

    let tieAtCutoff: Bool
    let countsOnly: Bool
    private(set) var differences: [String] = []

    init(tieAtCutoff: Bool, countsOnly: Bool = false) {
        self.tieAtCutoff = tieAtCutoff
        self.countsOnly = countsOnly
    }

    mutating func compare(request: JSONValue, ours: JSONValue, expected: JSONValue, path: String = "") {
        guard let aggregations = request.members else { return differ(path, "request is not an object") }
        for member in aggregations {
            let name = String(decoding: member.key, as: UTF8.self)
            let at = path.isEmpty ? name : path + "." + name
            guard let mine = ours[name] else {
                differ(at, "missing from Loupe's response")
                continue
            }
            guard let theirs = expected[name] else {
                differ(at, "missing from the expected response")
                continue
            }
            guard let kind = member.value.members?.first(where: { !$0.key.elementsEqual("aggs".utf8) }) else {
                continue
            }
            let kindName = String(decoding: kind.key, as: UTF8.self)
            compareResult(
                kind: kindName, body: kind.value, subs: member.value["aggs"], ours: mine, expected: theirs, path: at)
        }
    }

    private mutating func compareResult(
        kind: String, body: JSONValue, subs: JSONValue?, ours: JSONValue, expected: JSONValue, path: String
    ) {
        switch kind {
        case "terms", "histogram", "date_histogram", "range":
            compareMembers(ours, expected, except: ["buckets"], path: path)
            guard let mine = ours["buckets"], let theirs = expected["buckets"] else {
                return differ(path, "no buckets")
            }
            if let mineList = mine.arrayValue, let theirList = theirs.arrayValue {
                let order = kind == "terms" ? Self.tieKey(body["order"]) : nil
                compareBucketLists(mineList, theirList, subs: subs, path: path + ".buckets", tieKey: order)
            } else if let mineMap = mine.members, let theirMap = theirs.members {
                let keys = Set(mineMap.map(\.key))
                if keys != Set(theirMap.map(\.key)) { differ(path + ".buckets", "keyed buckets differ") }
                for member in mineMap {
                    guard let other = theirs[String(decoding: member.key, as: UTF8.self)] else { continue }
                    compareBucket(
                        member.value, other, subs: subs,
                        path: path + ".buckets." + String(decoding: member.key, as: UTF8.self))
                }
            } else {
                differ(path + ".buckets", "one is keyed and the other is not")
            }
        case "cardinality":
            compareValue(
                ours["value"], expected["value"], path: path + ".value", tolerance: Self.cardinalityTolerance,
                absolute: 2)
            compareMembers(ours, expected, except: ["value"], path: path)
        default:
            compareLeaves(ours, expected, path: path)
        }
    }

    /// What a terms aggregation's buckets tie on, the value its order sorts by: the doc count (the default
    /// order), a metric sub-aggregation's value, or nothing for `_key` (keys never tie).
    static func tieKey(_ order: JSONValue?) -> ((JSONValue) -> JSONValue?)? {
        var target = "_count"
        if let entry = (order?.arrayValue?.first ?? order)?.members?.first {
            target = String(decoding: entry.key, as: UTF8.self)
        }
        switch target {
        case "_count": return { $0["doc_count"] }
        case "_key": return nil
        default:
            let parts = target.split(separator: ".", maxSplits: 1).map(String.init)
            return { $0[parts[0]]?[parts.count > 1 ? parts[1] : "value"] }
        }
    }

    /// Bucket lists: the same length; terms buckets matched within runs that tie on what their order sorts by.
    private mutating func compareBucketLists(
        _ ours: [JSONValue], _ expected: [JSONValue], subs: JSONValue?, path: String,
        tieKey: ((JSONValue) -> JSONValue?)?
    ) {
        guard ours.count == expected.count else {
            return differ(path, "\(ours.count) buckets, expected \(expected.count)")
        }
        guard let tieKey else {
            for (i, (a, b)) in zip(ours, expected).enumerated() {
                compareBucket(a, b, subs: subs, path: "\(path)[\(i)]")
            }
            return
        }
        var start = 0
        while start < ours.count {
            let tie = tieKey(expected[start])
            var end = start + 1
            while end < ours.count, tieKey(expected[end]) == tie { end += 1 }
            let isLastRun = end == ours.count
            let mine = Array(ours[start..<end])
            for i in start..<end where tieKey(ours[i]) != tie {
                differ("\(path)[\(i)]", "sorts by \(describe(tieKey(ours[i]))), expected \(describe(tie))")
            }
            if !(isLastRun && tieAtCutoff) && !countsOnly {
                for (offset, theirs) in expected[start..<end].enumerated() {
                    guard let match = mine.first(where: { $0["key"] == theirs["key"] }) else {
                        differ(
                            "\(path)[\(start + offset)]",
                            "the expected key \(describe(theirs["key"])) is not among Loupe's")
                        continue
                    }
                    compareBucket(match, theirs, subs: subs, path: "\(path)[\(start + offset)]")
                }
            }
            start = end
        }
    }

    private mutating func compareBucket(_ ours: JSONValue, _ expected: JSONValue, subs: JSONValue?, path: String) {
        let subNames = Set((subs?.members ?? []).map { String(decoding: $0.key, as: UTF8.self) })
        compareMembers(ours, expected, except: subNames, path: path)
        if let subs { compare(request: subs, ours: ours, expected: expected, path: path) }
    }

    /// The members other than `except`, as leaves.
    private mutating func compareMembers(_ ours: JSONValue, _ expected: JSONValue, except: Set<String>, path: String) {
        let mine = (ours.members ?? []).filter { !except.contains(String(decoding: $0.key, as: UTF8.self)) }
        let theirs = (expected.members ?? []).filter { !except.contains(String(decoding: $0.key, as: UTF8.self)) }
        compareLeaves(.object(mine), .object(theirs), path: path)
    }

    private mutating func compareLeaves(_ ours: JSONValue, _ expected: JSONValue, path: String) {
        switch (ours, expected) {
        case (.object(let a), .object(let b)):
            let keys = Set(a.map(\.key)).union(b.map(\.key))
            for key in keys {
                let name = String(decoding: key, as: UTF8.self)
                compareLeaves(ours[name] ?? .null, expected[name] ?? .null, path: path + "." + name)
                if (ours[name] == nil) != (expected[name] == nil) {
                    differ(
                        path + "." + name,
                        ours[name] == nil ? "only in the expected response" : "only in Loupe's response")
                }
            }
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return differ(path, "\(a.count) elements, expected \(b.count)") }
            for (i, (x, y)) in zip(a, b).enumerated() { compareLeaves(x, y, path: "\(path)[\(i)]") }
        case (.number, .number):
            compareValue(ours, expected, path: path, tolerance: Self.floatTolerance, absolute: 1e-300)
        default:
            if ours != expected { differ(path, "\(describe(ours)), expected \(describe(expected))") }
        }
    }

    private mutating func compareValue(
        _ ours: JSONValue?, _ expected: JSONValue?, path: String, tolerance: Double, absolute: Double
    ) {
        guard let a = ours?.numberValue, let b = expected?.numberValue else {
            if ours != expected { differ(path, "\(describe(ours)), expected \(describe(expected))") }
            return
        }
        if a.isInteger != b.isInteger { return differ(path, "\(a) and the expected \(b) are not both integers") }
        if a.isInteger {
            if a != b { differ(path, "\(a), expected \(b)") }
            return
        }
        let difference = abs(a.double - b.double)
        if difference > absolute, difference > tolerance * abs(b.double) {
            differ(path, "\(a.double), expected \(b.double)")
        }
    }

    private func describe(_ value: JSONValue?) -> String {
        guard let value else { return "nothing" }
        var bytes: [UInt8] = []
        JSONWriter.write(value, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func differ(_ path: String, _ message: String) {
        differences.append("\(path): \(message)")
    }
}
