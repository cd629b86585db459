import LoupeCodec

// Parsing the JSON form of a request into the typed tree. Every error names the path of the offending value
// (`aggs.genres.terms.size: expected a number, got a string`), with code `.invalidArgument`. The request object
// maps names to aggregations, as tantivy's `Aggregations` does: `{"name": {"<kind>": {…}, "aggs": {…}}}`.
// Unlike tantivy, which ignores what it does not know, unknown kinds and parameters are errors.

extension AggregationRequest {
    /// Parses a request from its JSON text.
    /// - Throws: `IndexError` `.invalidArgument` naming the byte offset of malformed JSON, or the path of a
    ///   value that is not a valid aggregation request.
    package init(json text: String) throws(IndexError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw IndexError(
                .invalidArgument, "aggregation request is not valid JSON: \(error.message)",
                context: .init(byteOffset: error.offset))
        }
        try self.init(json: value)
    }

    /// Parses a request from a parsed JSON value.
    /// - Throws: `IndexError` `.invalidArgument` naming the path of the first invalid value.
    package init(json value: JSONValue) throws(IndexError) {
        aggregations = try RequestReader.aggregations(value, path: "aggs")
    }
}

/// Reads the parts of a request, each at its path.
private enum RequestReader {
    static let kinds = [
        "terms", "histogram", "date_histogram", "range", "stats", "min", "max", "avg", "sum", "value_count",
        "percentiles", "cardinality",
    ]

    static func fail(_ path: String, _ message: String) -> IndexError {
        IndexError(.invalidArgument, "\(path): \(message)")
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): n.description
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The members of an object, each key once.
    static func members(_ value: JSONValue, path: String) throws(IndexError) -> [(key: String, value: JSONValue)] {
        guard let members = value.members else { throw fail(path, "expected an object, got \(describe(value))") }
        var seen: Set<String> = []
        var out: [(key: String, value: JSONValue)] = []
        for member in members {
            let key = String(decoding: member.key, as: UTF8.self)
            guard seen.insert(key).inserted else { throw fail(path, "'\(key)' is given twice") }
            out.append((key, member.value))
        }
        return out
    }

    static func aggregations(_ value: JSONValue, path: String) throws(IndexError) -> [NamedAggregation] {
        var out: [NamedAggregation] = []
        for (name, body) in try members(value, path: path) {
            out.append(try aggregation(name, body, path: path + "." + name))
        }
        return out
    }

    static func aggregation(_ name: String, _ value: JSONValue, path: String) throws(IndexError) -> NamedAggregation {
        var kind: (name: String, body: JSONValue)?
        var subs: [NamedAggregation] = []
        var subPath: String?
        for (key, body) in try members(value, path: path) {
            if key == "aggs" {
                subPath = path + ".aggs"
                subs = try aggregations(body, path: path + ".aggs")
            } else if kinds.contains(key) {
                if let first = kind {
                    throw fail(path, "one aggregation kind per name (got '\(first.name)' and '\(key)')")
                }
                kind = (key, body)
            } else {
                throw fail(path, unknownKind(key))
            }
        }
        guard let kind else {
            throw fail(path, "no aggregation kind given (expected one of \(kinds.joined(separator: ", ")))")
        }
        let kindPath = path + "." + kind.name
        let parsed = try parseKind(kind.name, kind.body, path: kindPath)
        if let subPath, !parsed.isBucket {
            throw fail(subPath, "\(kind.name) is a metric aggregation and takes no sub-aggregations")
        }
        if case .terms(let terms) = parsed { try checkOrder(terms.order, subs, path: kindPath + ".order") }
        return NamedAggregation(name, parsed, subAggregations: subs)
    }

    static func unknownKind(_ key: String) -> String {
        let unsupported = [
            "filter", "composite", "extended_stats", "top_hits", "filters", "date_range", "geo_distance",
        ]
        if unsupported.contains(key) {
            return "'\(key)' aggregations are not supported (supported: \(kinds.joined(separator: ", ")))"
        }
        return "unknown aggregation kind '\(key)' (expected one of \(kinds.joined(separator: ", ")), and 'aggs')"
    }

    static func parseKind(_ kind: String, _ body: JSONValue, path: String) throws(IndexError) -> AggregationKind {
        var params = try Params(body, path: path, kind: kind)
        let result: AggregationKind
        switch kind {
        case "terms": result = .terms(try terms(&params))
        case "histogram": result = .histogram(try histogram(&params))
        case "date_histogram": result = .dateHistogram(try dateHistogram(&params))
        case "range": result = .range(try range(&params))
        case "percentiles": result = .percentiles(try percentiles(&params))
        case "cardinality":
            var c = CardinalityAggregation(field: try params.string("field"))
            c.missing = try params.missingKey("missing")
            result = .cardinality(c)
        default:
            let statistic = Statistic(rawValue: kind) ?? .stats
            let field = try params.string("field")
            result = .metric(MetricAggregation(statistic, field: field, missing: try params.numberOrText("missing")))
        }
        try params.finish()
        return result
    }

    static func terms(_ p: inout Params) throws(IndexError) -> TermsAggregation {
        var t = TermsAggregation(field: try p.string("field"))
        if let size = try p.count("size", max: Int(UInt32.max)) { t.size = size }
        let aliases = ["segment_size", "shard_size", "split_size"].filter { p.has($0) }
        if aliases.count > 1 { throw fail(p.path, "give one of \(aliases.joined(separator: ", ")), not several") }
        if let alias = aliases.first { t.segmentSize = try p.count(alias, max: Int(UInt32.max)) }
        t.showTermDocCountError = try p.bool("show_term_doc_count_error")
        if let minDocCount = try p.count("min_doc_count", max: Int.max) { t.minDocCount = minDocCount }
        if let order = p.take("order") { t.order = try self.order(order, path: p.path + ".order") }
        t.missing = try p.missingKey("missing")
        t.include = try p.termFilter("include")
        t.exclude = try p.termFilter("exclude")
        return t
    }

    static func order(_ value: JSONValue, path: String) throws(IndexError) -> BucketOrder {
        var entry = value
        if let array = value.arrayValue {
            guard array.count == 1 else { throw fail(path, "expected one sort order, got \(array.count)") }
            entry = array[0]
        }
        let pairs = try members(entry, path: path)
        guard pairs.count == 1, let (target, direction) = pairs.first else {
            throw fail(path, "expected one target and its direction, such as {\"_count\": \"desc\"}")
        }
        let descending: Bool
        switch direction.stringValue {
        case "desc": descending = true
        case "asc": descending = false
        default: throw fail(path + "." + target, "expected \"asc\" or \"desc\", got \(describe(direction))")
        }
        switch target {
        case "_count": return BucketOrder(.count, descending: descending)
        case "_key": return BucketOrder(.key, descending: descending)
        default:
            let parts = target.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            let property = parts.count > 1 ? String(parts[1]) : ""
            return BucketOrder(.metric(name: String(parts[0]), property: property), descending: descending)
        }
    }

    /// An order by a sub-aggregation must name a metric sub-aggregation that has one value to sort by.
    static func checkOrder(_ order: BucketOrder, _ subs: [NamedAggregation], path: String) throws(IndexError) {
        guard case .metric(let name, let property) = order.target else { return }
        guard let sub = subs.first(where: { $0.name == name }) else {
            throw fail(path, "no sub-aggregation named '\(name)' to order by")
        }
        switch sub.kind {
        case .metric(let metric) where metric.statistic == .stats:
            guard ["count", "sum", "min", "max", "avg"].contains(property) else {
                throw fail(
                    path, "order by a stats aggregation names its value: '\(name).avg' (or count, sum, min, max)")
            }
        case .metric, .cardinality:
            guard property.isEmpty else { throw fail(path, "'\(name)' has one value; order by '\(name)'") }
        case .percentiles:
            throw fail(path, "percentiles can't be used to order")
        case .terms, .histogram, .dateHistogram, .range:
            throw fail(path, "'\(name)' is a bucket aggregation; order by a metric sub-aggregation")
        }
    }

    static func histogram(_ p: inout Params) throws(IndexError) -> HistogramAggregation {
        let field = try p.string("field")
        guard let interval = try p.numberOrText("interval") else { throw fail(p.path + ".interval", "required") }
        var h = HistogramAggregation(field: field, interval: interval)
        h.offset = try p.numberOrText("offset")
        try histogramCommon(&h, &p)
        guard interval > 0, interval.isFinite else { throw fail(p.path + ".interval", "must be a positive number") }
        return h
    }

    static func histogramCommon(_ h: inout HistogramAggregation, _ p: inout Params) throws(IndexError) {
        if let minDocCount = try p.count("min_doc_count", max: Int.max) { h.minDocCount = minDocCount }
        h.hardBounds = try p.bounds("hard_bounds")
        h.extendedBounds = try p.bounds("extended_bounds")
        h.keyed = try p.bool("keyed") ?? false
        if h.minDocCount > 0, h.extendedBounds != nil {
            throw fail(p.path, "cannot set min_doc_count and extended_bounds at the same time")
        }
        if let hard = h.hardBounds, let extended = h.extendedBounds,
            extended.min < hard.min || extended.max > hard.max
        {
            throw fail(p.path + ".extended_bounds", "must lie inside hard_bounds")
        }
    }

    static func dateHistogram(_ p: inout Params) throws(IndexError) -> HistogramAggregation {
        for unsupported in ["interval", "calendar_interval"] where p.has(unsupported) {
            throw fail(p.path + "." + unsupported, "unsupported; only fixed_interval is (such as \"30d\")")
        }
        if p.has("format") { throw fail(p.path + ".format", "unsupported") }
        let field = try p.string("field")
        guard let text = try p.optionalString("fixed_interval") else {
            throw fail(p.path + ".fixed_interval", "required (such as \"30d\")")
        }
        let interval = try milliseconds(text, path: p.path + ".fixed_interval")
        var h = HistogramAggregation(field: field, interval: Double(interval))
        if let offset = try p.optionalString("offset") {
            let path = p.path + ".offset"
            if offset.hasPrefix("-") {
                h.offset = -Double(try milliseconds(String(offset.dropFirst()), path: path))
            } else {
                let unsigned = offset.hasPrefix("+") ? String(offset.dropFirst()) : offset
                h.offset = Double(try milliseconds(unsigned, path: path))
            }
        }
        try histogramCommon(&h, &p)
        guard interval > 0 else { throw fail(p.path + ".fixed_interval", "must be positive") }
        return h
    }

    /// A fixed interval (`90m`, `1d`, `250ms`) in milliseconds; units ms, s, m, h, d (or their long names).
    static func milliseconds(_ text: String, path: String) throws(IndexError) -> Int64 {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let unit = text.dropFirst(digits.count)
        guard !digits.isEmpty else {
            throw fail(path, "expected a number followed by a unit, such as \"30d\", got \"\(text)\"")
        }
        guard !unit.isEmpty else { throw fail(path, "\"\(text)\" has no unit (ms, s, m, h or d)") }
        let scale: Int64
        switch unit {
        case "ms", "milliseconds": scale = 1
        case "s", "seconds": scale = 1000
        case "m", "minutes": scale = 60_000
        case "h", "hours": scale = 3_600_000
        case "d", "days": scale = 86_400_000
        default: throw fail(path, "unknown unit '\(unit)' (ms, s, m, h or d; calendar units are not supported)")
        }
        guard let number = Int64(digits) else { throw fail(path, "\"\(text)\" is out of range") }
        let (value, overflow) = number.multipliedReportingOverflow(by: scale)
        guard !overflow, !value.multipliedReportingOverflow(by: 1_000_000).overflow else {
            throw fail(path, "\"\(text)\" is out of range")
        }
        return value
    }

    static func range(_ p: inout Params) throws(IndexError) -> RangeAggregation {
        let field = try p.string("field")
        let path = p.path + ".ranges"
        guard let value = p.take("ranges") else { throw fail(path, "required") }
        guard let array = value.arrayValue else { throw fail(path, "expected an array, got \(describe(value))") }
        guard !array.isEmpty else { throw fail(path, "expected at least one range") }
        var ranges: [RangeSpec] = []
        for (i, item) in array.enumerated() {
            var r = try Params(item, path: "\(path)[\(i)]", kind: "range")
            let key = try r.optionalString("key")
            ranges.append(RangeSpec(key: key, from: try r.numberOrText("from"), to: try r.numberOrText("to")))
            try r.finish()
        }
        var range = RangeAggregation(field: field, ranges: ranges)
        range.keyed = try p.bool("keyed") ?? false
        return range
    }

    static func percentiles(_ p: inout Params) throws(IndexError) -> PercentilesAggregation {
        var a = PercentilesAggregation(field: try p.string("field"))
        if let value = p.take("percents") {
            let path = p.path + ".percents"
            guard let array = value.arrayValue else { throw fail(path, "expected an array, got \(describe(value))") }
            a.percents = []
            for (i, item) in array.enumerated() {
                guard let percent = item.doubleValue, (0...100).contains(percent) else {
                    throw fail("\(path)[\(i)]", "expected a number from 0 to 100, got \(describe(item))")
                }
                a.percents.append(percent)
            }
        }
        a.keyed = try p.bool("keyed") ?? true
        a.missing = try p.numberOrText("missing")
        return a
    }
}

/// The parameters of one aggregation (or one range), each taken once; `finish` rejects the rest.
private struct Params {
    let path: String
    let kind: String
    private var remaining: [(key: String, value: JSONValue)]

    init(_ value: JSONValue, path: String, kind: String) throws(IndexError) {
        self.path = path
        self.kind = kind
        remaining = try RequestReader.members(value, path: path)
    }

    func has(_ key: String) -> Bool { remaining.contains { $0.key == key } }

    mutating func take(_ key: String) -> JSONValue? {
        guard let i = remaining.firstIndex(where: { $0.key == key }) else { return nil }
        return remaining.remove(at: i).value
    }

    func fail(_ key: String, _ message: String) -> IndexError { RequestReader.fail(path + "." + key, message) }

    func got(_ value: JSONValue) -> String { RequestReader.describe(value) }

    mutating func finish() throws(IndexError) {
        guard let extra = remaining.first else { return }
        throw fail(extra.key, "unknown parameter of \(kind)")
    }

    mutating func optionalString(_ key: String) throws(IndexError) -> String? {
        guard let value = take(key) else { return nil }
        guard let text = value.stringValue else { throw fail(key, "expected a string, got \(got(value))") }
        return text
    }

    mutating func string(_ key: String) throws(IndexError) -> String {
        guard let text = try optionalString(key) else { throw fail(key, "required") }
        return text
    }

    mutating func bool(_ key: String) throws(IndexError) -> Bool? {
        guard let value = take(key) else { return nil }
        guard let flag = value.boolValue else { throw fail(key, "expected true or false, got \(got(value))") }
        return flag
    }

    /// A whole number in `0...max`.
    mutating func count(_ key: String, max: Int) throws(IndexError) -> Int? {
        guard let value = take(key) else { return nil }
        guard let number = value.numberValue else { throw fail(key, "expected a number, got \(got(value))") }
        guard let n = number.uint64, n <= UInt64(max) else {
            throw fail(key, "expected a whole number from 0 to \(max), got \(number)")
        }
        return Int(n)
    }

    /// A finite number, or a string holding one (tantivy accepts both); null means absent.
    mutating func numberOrText(_ key: String) throws(IndexError) -> Double? {
        guard let value = take(key), !value.isNull else { return nil }
        if let number = value.doubleValue {
            guard number.isFinite else { throw fail(key, "expected a finite number, got \(got(value))") }
            return number
        }
        guard let text = value.stringValue else { throw fail(key, "expected a number, got \(got(value))") }
        guard let number = Double(text), number.isFinite else {
            throw fail(key, "expected a number, got the string \"\(text)\"")
        }
        return number
    }

    /// `{"min": …, "max": …}`, each a number or an RFC 3339 date (read as milliseconds since the epoch).
    mutating func bounds(_ key: String) throws(IndexError) -> HistogramBounds? {
        guard let value = take(key) else { return nil }
        var inner = try Params(value, path: path + "." + key, kind: key)
        func bound(_ name: String) throws(IndexError) -> Double {
            guard let v = inner.take(name) else { throw inner.fail(name, "required") }
            if let number = v.doubleValue, number.isFinite { return number }
            if let text = v.utf8Value, let micros = RFC3339.parseMicros(text) { return Double(micros / 1000) }
            throw inner.fail(name, "expected a number or an RFC 3339 date, got \(got(v))")
        }
        let bounds = HistogramBounds(min: try bound("min"), max: try bound("max"))
        try inner.finish()
        return bounds
    }

    /// A string or a number, as tantivy's untagged `Key` reads it.
    mutating func missingKey(_ key: String) throws(IndexError) -> MissingKey? {
        guard let value = take(key) else { return nil }
        if let text = value.stringValue { return .string(text) }
        guard let number = value.numberValue else {
            throw fail(key, "expected a string or a number, got \(got(value))")
        }
        if let v = number.int64 { return .i64(v) }
        if let v = number.uint64 { return .u64(v) }
        return .f64(number.double)
    }

    mutating func termFilter(_ key: String) throws(IndexError) -> TermFilter? {
        guard let value = take(key) else { return nil }
        if let pattern = value.stringValue { return .regex(pattern) }
        guard let array = value.arrayValue else {
            throw fail(key, "expected a regular expression or an array of strings, got \(got(value))")
        }
        var values: [String] = []
        for (i, item) in array.enumerated() {
            guard let text = item.stringValue else { throw fail("\(key)[\(i)]", "expected a string, got \(got(item))") }
            values.append(text)
        }
        return .values(values)
    }
}
