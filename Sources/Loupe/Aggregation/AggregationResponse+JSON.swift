import LoupeCodec

// The response in tantivy 0.27's JSON shape (serde's serialisation of `AggregationResults`): integers for
// counts and integer keys, doubles for values and histogram keys, `null` for a missing value (and for NaN,
// which JSON cannot spell, as serde_json writes it). Members keep tantivy's order within an object, with
// sub-aggregations after `doc_count`; the aggregations of one level keep request order. Written straight into
// bytes, without building a tree of JSON values: a histogram may hold tens of thousands of buckets.

extension AggregationResponse {
    /// The response as compact JSON text.
    package var jsonText: String {
        var out = JSONOut()
        out.object { out in writeMembers(&out) }
        return String(decoding: out.bytes, as: UTF8.self)
    }

    fileprivate func writeMembers(_ out: inout JSONOut) {
        for result in results {
            out.key(result.name)
            result.result.write(&out)
        }
    }
}

extension AggregationResult {
    fileprivate func write(_ out: inout JSONOut) {
        switch self {
        case .terms(let t):
            out.object { out in
                out.key("buckets")
                out.array(t.buckets) { out, bucket in bucket.write(&out) }
                out.key("sum_other_doc_count")
                out.int(t.sumOtherDocCount)
                if let bound = t.docCountErrorUpperBound {
                    out.key("doc_count_error_upper_bound")
                    out.int(bound)
                }
            }
        case .histogram(let h):
            out.object { out in
                out.key("buckets")
                if h.keyed {
                    out.object { out in
                        for bucket in h.buckets {
                            out.key(AggregationText.rustDisplay(bucket.key))
                            bucket.write(&out)
                        }
                    }
                } else {
                    out.array(h.buckets) { out, bucket in bucket.write(&out) }
                }
            }
        case .range(let r):
            out.object { out in
                out.key("buckets")
                if r.keyed {
                    out.object { out in
                        for bucket in r.buckets {
                            out.key(bucket.key)
                            bucket.write(&out)
                        }
                    }
                } else {
                    out.array(r.buckets) { out, bucket in bucket.write(&out) }
                }
            }
        case .value(let v):
            out.object { out in
                out.key("value")
                out.double(v)
            }
        case .stats(let s):
            out.object { out in
                out.key("count")
                out.int(s.count)
                out.key("sum")
                out.double(s.sum)
                out.key("min")
                out.double(s.min)
                out.key("max")
                out.double(s.max)
                out.key("avg")
                out.double(s.avg)
            }
        case .percentiles(let p):
            out.object { out in
                out.key("values")
                if p.keyed {
                    out.object { out in
                        for percentile in p.values {
                            out.key(AggregationText.percentileName(percentile.percent))
                            out.double(percentile.value)
                        }
                    }
                } else {
                    out.array(p.values) { out, percentile in
                        out.object { out in
                            out.key("key")
                            out.double(percentile.percent)
                            out.key("value")
                            out.double(percentile.value)
                        }
                    }
                }
            }
        }
    }
}

extension TermsBucket {
    fileprivate func write(_ out: inout JSONOut) {
        out.object { out in
            switch key {
            case .string(let bytes):
                out.key("key")
                out.string(bytes)
            case .i64(let v):
                out.key("key")
                JSONWriter.appendNumber(v, to: &out.bytes)
            case .u64(let v):
                out.key("key")
                JSONWriter.appendNumber(v, to: &out.bytes)
            case .bool(let v):
                out.key("key_as_string")
                out.string(Array((v ? "true" : "false").utf8))
                out.key("key")
                out.int(v ? 1 : 0)
            case .f64(let v):
                out.key("key")
                out.double(v)
            }
            out.key("doc_count")
            out.int(docCount)
            subAggregations.writeMembers(&out)
        }
    }
}

extension HistogramBucket {
    fileprivate func write(_ out: inout JSONOut) {
        out.object { out in
            if let keyAsString {
                out.key("key_as_string")
                out.string(Array(keyAsString.utf8))
            }
            out.key("key")
            out.double(key)
            out.key("doc_count")
            out.int(docCount)
            subAggregations.writeMembers(&out)
        }
    }
}

extension RangeBucket {
    fileprivate func write(_ out: inout JSONOut) {
        out.object { out in
            out.key("key")
            out.string(Array(key.utf8))
            out.key("doc_count")
            out.int(docCount)
            subAggregations.writeMembers(&out)
            if let from {
                out.key("from")
                out.double(from)
            }
            if let to {
                out.key("to")
                out.double(to)
            }
            if let fromAsString {
                out.key("from_as_string")
                out.string(Array(fromAsString.utf8))
            }
            if let toAsString {
                out.key("to_as_string")
                out.string(Array(toAsString.utf8))
            }
        }
    }
}

/// Compact JSON being written: commas between members and elements are put in as they come.
private struct JSONOut {
    var bytes: [UInt8] = []
    /// Whether the innermost open container has a member or element yet.
    private var hasItem = false

    private mutating func separate() {
        if hasItem { bytes.append(UInt8(ascii: ",")) }
        hasItem = true
    }

    mutating func object(_ body: (inout JSONOut) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        let outer = hasItem
        hasItem = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        hasItem = outer
    }

    mutating func array<T>(_ items: [T], _ body: (inout JSONOut, T) -> Void) {
        bytes.append(UInt8(ascii: "["))
        let outer = hasItem
        for (i, item) in items.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            hasItem = false
            body(&self, item)
        }
        bytes.append(UInt8(ascii: "]"))
        hasItem = outer
    }

    /// A member's key; its value follows.
    mutating func key(_ name: String) {
        separate()
        JSONWriter.appendString(name.utf8, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func string(_ utf8: [UInt8]) { JSONWriter.appendString(utf8, to: &bytes) }

    mutating func int(_ value: Int) { JSONWriter.appendNumber(Int64(value), to: &bytes) }

    /// A double, or `null` for none and for NaN and infinities.
    mutating func double(_ value: Double?) {
        guard let value, value.isFinite else { return JSONWriter.appendNull(to: &bytes) }
        JSONWriter.appendNumber(value, to: &bytes)
    }
}
