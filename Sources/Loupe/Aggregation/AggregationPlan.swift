import LoupeAutomata

/// A request bound to a schema: every field resolved to its ordinal and type and checked to be fast and of a
/// type the aggregation reads, patterns compiled, histogram grids and range bounds brought into the values'
/// space. Built once per request; each segment then builds its aggregators from it.
package struct AggregationPlan: Sendable {
    package let aggregations: [PlannedAggregation]
    package let limits: AggregationLimits

    /// Binds `request` to `schema`.
    /// - Throws: `IndexError` `.invalidArgument` naming the request path and the field: a field the schema lacks,
    ///   one that is not fast, one whose type the aggregation cannot read (`avg` of a string), a bad pattern or
    ///   overlapping ranges.
    package init(
        _ request: AggregationRequest, schema: Schema, limits: AggregationLimits = .init()
    ) throws(IndexError) {
        aggregations = try request.aggregations.map { (a) throws(IndexError) in
            try PlannedAggregation(a, schema: schema, path: "aggs", depth: 0)
        }
        self.limits = limits
    }
}

/// One aggregation of a plan.
package struct PlannedAggregation: Sendable {
    /// What a planned aggregation computes, with what binding worked out.
    enum Detail: Sendable {
        /// Terms, with the compiled `include` and `exclude`.
        case terms(TermsAggregation, include: CompiledTermFilter?, exclude: CompiledTermFilter?)
        /// A histogram or date histogram's grid, in the values' unit.
        case histogram(HistogramGrid)
        /// A range aggregation's ranges, completed to cover the whole value line, and whether it is keyed.
        case range([PlannedRange], keyed: Bool)
        case metric(MetricAggregation)
        case percentiles(PercentilesAggregation)
        case cardinality(CardinalityAggregation)
    }

    package let name: String
    let detail: Detail
    /// The field's ordinal in the schema, and its type.
    package let field: Int
    package let fieldType: FieldType
    package let children: [PlannedAggregation]
    /// 0 for the request's own aggregations, one more per bucket aggregation above.
    package let depth: Int

    init(_ a: NamedAggregation, schema: Schema, path: String, depth: Int) throws(IndexError) {
        let path = path + "." + a.name
        let kindPath = path + "." + a.kind.name
        let fieldName = a.kind.field
        guard let index = schema.fieldIndex[fieldName] else {
            throw IndexError(
                .invalidArgument, "\(kindPath).field: unknown field '\(fieldName)'\(schema.suggestion(for: fieldName))",
                context: .init(field: fieldName))
        }
        let entry = schema.fields[index]
        guard entry.fast else {
            throw IndexError(
                .invalidArgument,
                "\(kindPath).field: '\(fieldName)' is not a fast field; aggregations read fast fields (declare it with "
                    + "fast: true)",
                context: .init(field: fieldName))
        }
        name = a.name
        field = index
        fieldType = entry.type
        self.depth = depth
        children = try a.subAggregations.map { (sub) throws(IndexError) in
            try PlannedAggregation(sub, schema: schema, path: path + ".aggs", depth: depth + 1)
        }
        func mismatch(_ needs: String) -> IndexError {
            IndexError(
                .invalidArgument,
                "\(kindPath).field: \(a.kind.name) needs \(needs), and '\(fieldName)' is a "
                    + "\(entry.type.rawValue) field",
                context: .init(field: fieldName))
        }
        switch a.kind {
        case .terms(let terms):
            if terms.missing != nil, entry.type == .bool {
                throw IndexError(
                    .invalidArgument, "\(kindPath).missing: not supported on a bool field",
                    context: .init(field: fieldName))
            }
            if terms.include != nil || terms.exclude != nil, entry.type.isNumeric {
                throw IndexError(
                    .invalidArgument, "\(kindPath): include and exclude filter the terms of string fields only",
                    context: .init(field: fieldName))
            }
            detail = .terms(
                terms,
                include: try terms.include.map { (f) throws(IndexError) in
                    try CompiledTermFilter(f, path: kindPath + ".include")
                },
                exclude: try terms.exclude.map { (f) throws(IndexError) in
                    try CompiledTermFilter(f, path: kindPath + ".exclude")
                })
        case .histogram(let h):
            guard entry.type.isNumber else { throw mismatch("a numeric or date field") }
            detail = .histogram(HistogramGrid(h, type: entry.type))
        case .dateHistogram(let h):
            guard entry.type == .date else { throw mismatch("a date field") }
            detail = .histogram(HistogramGrid(h, type: entry.type))
        case .range(let r):
            guard entry.type.isNumber else { throw mismatch("a numeric or date field") }
            let ranges = try PlannedRange.complete(r.ranges, type: entry.type, path: kindPath + ".ranges")
            detail = .range(ranges, keyed: r.keyed)
        case .metric(var m):
            guard entry.type.isNumber || m.statistic == .valueCount else { throw mismatch("a numeric or date field") }
            if !entry.type.isNumber { m.missing = nil }
            detail = .metric(m)
        case .percentiles(let p):
            guard entry.type.isNumber else { throw mismatch("a numeric or date field") }
            detail = .percentiles(p)
        case .cardinality(let c):
            if case .string = c.missing, entry.type.isNumeric {
                throw IndexError(
                    .invalidArgument,
                    "\(kindPath).missing: a string cannot stand in for a missing \(entry.type.rawValue)",
                    context: .init(field: fieldName))
            }
            detail = .cardinality(c)
        }
    }
}

/// A compiled `include` or `exclude`: a pattern the whole term must match, or a set of terms.
struct CompiledTermFilter: Sendable {
    let pattern: ScalarNFA?
    let values: Set<[UInt8]>

    init(_ filter: TermFilter, path: String) throws(IndexError) {
        switch filter {
        case .regex(let text):
            do {
                pattern = try Regex.compile(text)
            } catch {
                throw IndexError(.invalidArgument, "\(path): \(error)", context: .init(byteOffset: error.offset))
            }
            values = []
        case .values(let terms):
            pattern = nil
            values = Set(terms.map { Array($0.utf8) })
        }
    }

    /// A matcher for one segment's terms (a DFA is built lazily and is not shared between threads).
    func matcher() -> (([UInt8]) -> Bool) {
        guard let pattern else { return { values.contains($0) } }
        let dfa = ByteDFA(pattern)
        return { dfa.match($0) != nil }
    }
}

/// A histogram's bucket grid in the unit of the values it reads (nanoseconds for dates, as tantivy normalises
/// its millisecond request).
struct HistogramGrid: Sendable {
    let interval: Double
    let offset: Double
    let hardBounds: HistogramBounds?
    let extendedBounds: HistogramBounds?
    let minDocCount: Int
    let keyed: Bool
    /// Keys are dates: they print in milliseconds, with a `key_as_string`.
    let isDate: Bool

    init(_ h: HistogramAggregation, type: FieldType) {
        let scale = type == .date ? 1_000_000.0 : 1
        interval = h.interval * scale
        offset = (h.offset ?? 0) * scale
        hardBounds = h.hardBounds.map { HistogramBounds(min: $0.min * scale, max: $0.max * scale) }
        extendedBounds = h.extendedBounds.map { HistogramBounds(min: $0.min * scale, max: $0.max * scale) }
        minDocCount = h.minDocCount
        keyed = h.keyed
        isDate = type == .date
    }

    /// The bucket of a value (tantivy's `get_bucket_pos_f64`, cast as Rust casts). The floor is taken by
    /// truncating and stepping down, which x86-64's baseline does inline where `rounded(.down)` calls libm.
    @inline(__always) func position(_ value: Double) -> Int64 {
        let q = (value - offset) / interval
        guard q > -9.2e18, q < 9.2e18 else { return RustCast.i64(q.rounded(.down)) }
        let t = Int64(q)
        return Double(t) > q ? t &- 1 : t
    }

    @inline(__always) func key(_ position: Int64) -> Double { Double(position) * interval + offset }
}

/// One bucket of a range aggregation: `start..<end` in tantivy's value space, and what the response says of it.
struct PlannedRange: Sendable {
    let start: UInt64
    let end: UInt64
    let key: String
    let from: Double?
    let to: Double?
    let fromText: String?
    let toText: String?

    /// tantivy's `extend_validate_ranges`: the ranges sorted by start, open buckets added before the first and
    /// after the last, and gaps between them filled.
    static func complete(_ specs: [RangeSpec], type: FieldType, path: String) throws(IndexError) -> [PlannedRange] {
        var spans = specs.map { spec in
            (start: spec.from.map(type.rangeValue) ?? 0, end: spec.to.map(type.rangeValue) ?? .max, key: spec.key)
        }
        spans.sort { $0.start < $1.start }
        if spans[0].start != 0 { spans.insert((0, spans[0].start, nil), at: 0) }
        if spans[spans.count - 1].end != .max { spans.append((spans[spans.count - 1].end, .max, nil)) }
        var i = 0
        while i + 1 < spans.count {
            if spans[i].end > spans[i + 1].start {
                throw IndexError(
                    .invalidArgument, "\(path): ranges overlap; each range must end where or before the next starts")
            }
            if spans[i].end != spans[i + 1].start { spans.insert((spans[i].end, spans[i + 1].start, nil), at: i + 1) }
            i += 1
        }
        return spans.map { PlannedRange(start: $0.start, end: $0.end, key: $0.key, type: type) }
    }

    private init(start: UInt64, end: UInt64, key: String?, type: FieldType) {
        self.start = start
        self.end = end
        func text(_ value: UInt64, open: Bool) -> String {
            if open { return "*" }
            if type == .date { return AggregationText.rfc3339(nanoseconds: NumericMapping.toI64(value)) }
            return AggregationText.rustDisplay(type.doubleFromRangeValue(value))
        }
        self.key = key ?? text(start, open: start == 0) + "-" + text(end, open: end == .max)
        from = start == 0 ? nil : type.doubleFromRangeValue(start)
        to = end == .max ? nil : type.doubleFromRangeValue(end)
        let dateText = { (v: Double) in AggregationText.rfc3339(nanoseconds: RustCast.i64(v)) }
        fromText = type == .date ? from.map(dateText) : nil
        toText = type == .date ? to.map(dateText) : nil
    }
}
