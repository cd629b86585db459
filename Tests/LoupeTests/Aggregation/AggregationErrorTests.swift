import Foundation
import Loupe
import TestSupport
import Testing

/// Bad requests and limits: every error is a typed `IndexError` naming what is wrong and where, and a request that
/// would need too many buckets or too much memory stops with one instead of allocating.
@Suite struct AggregationErrorTests {
    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true)
        .addTextField("title", stored: true)
        .addStringField("genre", fast: true)
        .addU64Field("year", fast: true)
        .addF64Field("price", fast: true)
        .addDateField("released", fast: true)
        .addI64Field("rank")
        .build()

    static let index: Index = {
        let index = try! Index.inMemory(schema: schema)
        let writer = try! index.writer()
        for i in 0..<300 {
            try! writer.addDocument([
                "id": DocumentValue(.text("d\(i)")), "title": "film \(i)", "genre": DocumentValue(.text("g\(i % 7)")),
                "year": DocumentValue(.u64(UInt64(1900 + i % 120))), "price": DocumentValue(.f64(Double(i) * 1.5)),
                "released": DocumentValue(.date(Date(timeIntervalSince1970: Double(i) * 86_400))),
                "rank": DocumentValue(.i64(Int64(i))),
            ])
            if i == 150 { try! writer.commit() }
        }
        try! writer.commitAndReload()
        return index
    }()

    /// The error `request` raises.
    func failure(_ request: String) -> IndexError? {
        do {
            _ = try Self.index.aggregate(request)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (#"{"t": {"terms": {"field": "genre", "size": "ten"}}}"#, "aggs.t.terms.size: expected a number, got a string"),
        (
            #"{"t": {"terms": {"field": "genre", "size": -1}}}"#,
            "aggs.t.terms.size: expected a whole number from 0 to 4294967295, got -1"
        ),
        (#"{"t": {"trems": {"field": "genre"}}}"#, "aggs.t: unknown aggregation kind 'trems'"),
        (#"{"t": {"top_hits": {"size": 1}}}"#, "aggs.t: 'top_hits' aggregations are not supported"),
        (
            #"{"t": {"terms": {"field": "genre"}, "avg": {"field": "year"}}}"#,
            "aggs.t: one aggregation kind per name (got 'terms' and 'avg')"
        ),
        (#"{"t": {"aggs": {}}}"#, "aggs.t: no aggregation kind given"),
        (#"{"t": 3}"#, "aggs.t: expected an object, got 3"),
        (#"{"a": {"avg": {"field": "year", "bogus": 1}}}"#, "aggs.a.avg.bogus: unknown parameter of avg"),
        (
            #"{"a": {"avg": {"field": "year"}, "aggs": {"b": {"max": {"field": "year"}}}}}"#,
            "aggs.a.aggs: avg is a metric aggregation and takes no sub-aggregations"
        ),
        (#"{"a": {"avg": {}}}"#, "aggs.a.avg.field: required"),
        (
            #"{"t": {"terms": {"field": "genre", "order": {"m": "desc"}}}}"#,
            "aggs.t.terms.order: no sub-aggregation named 'm' to order by"
        ),
        (
            #"{"t": {"terms": {"field": "genre", "order": {"_count": "up"}}}}"#,
            #"aggs.t.terms.order._count: expected "asc" or "desc", got a string"#
        ),
        (
            #"{"t": {"terms": {"field": "genre", "order": {"p.50": "desc"}}, "aggs": {"p": {"percentiles": {"field": "year"}}}}}"#,
            "aggs.t.terms.order: percentiles can't be used to order"
        ),
        (
            #"{"t": {"terms": {"field": "genre", "order": {"s": "desc"}}, "aggs": {"s": {"stats": {"field": "year"}}}}}"#,
            "aggs.t.terms.order: order by a stats aggregation names its value"
        ),
        (#"{"t": {"terms": {"field": "genre", "include": "("}}}"#, "aggs.t.terms.include: regex syntax error"),
        (#"{"t": {"terms": {"field": "genre", "aggs": {}}}}"#, "aggs.t.terms.aggs: unknown parameter of terms"),
        (
            #"{"h": {"histogram": {"field": "year", "interval": 0}}}"#,
            "aggs.h.histogram.interval: must be a positive number"
        ),
        (#"{"h": {"histogram": {"field": "year"}}}"#, "aggs.h.histogram.interval: required"),
        (
            #"{"h": {"histogram": {"field": "year", "interval": 5, "min_doc_count": 1, "extended_bounds": {"min": 0, "max": 9}}}}"#,
            "aggs.h.histogram: cannot set min_doc_count and extended_bounds at the same time"
        ),
        (
            #"{"h": {"histogram": {"field": "year", "interval": 5, "hard_bounds": {"min": 0}}}}"#,
            "aggs.h.histogram.hard_bounds.max: required"
        ),
        (
            #"{"d": {"date_histogram": {"field": "released", "interval": "30d"}}}"#,
            "aggs.d.date_histogram.interval: unsupported; only fixed_interval is"
        ),
        (
            #"{"d": {"date_histogram": {"field": "released", "fixed_interval": "1M"}}}"#,
            "aggs.d.date_histogram.fixed_interval: unknown unit 'M'"
        ),
        (
            #"{"d": {"date_histogram": {"field": "released", "fixed_interval": "1.5h"}}}"#,
            "aggs.d.date_histogram.fixed_interval: unknown unit '.5h'"
        ),
        (
            #"{"d": {"date_histogram": {"field": "released", "fixed_interval": "30d", "offset": "x"}}}"#,
            "aggs.d.date_histogram.offset: expected a number followed by a unit"
        ),
        (#"{"r": {"range": {"field": "year", "ranges": []}}}"#, "aggs.r.range.ranges: expected at least one range"),
        (
            #"{"r": {"range": {"field": "year", "ranges": [{"to": 10}, {"from": 5}]}}}"#,
            "aggs.r.range.ranges: ranges overlap"
        ),
        (
            #"{"r": {"range": {"field": "year", "ranges": [{"from": "soon"}]}}}"#,
            #"aggs.r.range.ranges[0].from: expected a number, got the string "soon""#
        ),
        (
            #"{"p": {"percentiles": {"field": "year", "percents": [50, 101]}}}"#,
            "aggs.p.percentiles.percents[1]: expected a number from 0 to 100, got 101"
        ),
    ])
    func malformedRequestsNameTheirPath(request: String, message: String) throws {
        let error = try #require(failure(request), "\(request) was accepted")
        #expect(error.code == .invalidArgument)
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }

    @Test func malformedJSONGivesTheByteOffset() throws {
        let error = try #require(failure(#"{"a": {"avg": {"field": "year"}"#))
        #expect(error.code == .invalidArgument)
        #expect(error.message.hasPrefix("aggregation request is not valid JSON"))
        #expect(error.context.byteOffset == 31)
    }

    @Test func fieldsAreNamedWhenUnknownNotFastOrOfTheWrongType() throws {
        let unknown = try #require(failure(#"{"t": {"terms": {"field": "genres"}}}"#))
        #expect(unknown.message == "aggs.t.terms.field: unknown field 'genres' — did you mean 'genre'?")
        #expect(unknown.context.field == "genres")
        let slow = try #require(failure(#"{"a": {"sum": {"field": "rank"}}}"#))
        #expect(slow.message.hasPrefix("aggs.a.sum.field: 'rank' is not a fast field"))
        #expect(slow.context.field == "rank")
        let text = try #require(failure(#"{"t": {"terms": {"field": "title"}}}"#))
        #expect(text.context.field == "title")
        let string = try #require(failure(#"{"a": {"avg": {"field": "genre"}}}"#))
        #expect(string.message == "aggs.a.avg.field: avg needs a numeric or date field, and 'genre' is a string field")
        let notDate = try #require(failure(#"{"d": {"date_histogram": {"field": "year", "fixed_interval": "1d"}}}"#))
        #expect(notDate.message.hasPrefix("aggs.d.date_histogram.field: date_histogram needs a date field"))
        let nested = try #require(
            failure(#"{"t": {"terms": {"field": "genre"}, "aggs": {"m": {"max": {"field": "nope"}}}}}"#))
        #expect(nested.message.hasPrefix("aggs.t.aggs.m.max.field: unknown field 'nope'"))
        let include = try #require(failure(#"{"t": {"terms": {"field": "year", "include": ["1990"]}}}"#))
        #expect(include.message == "aggs.t.terms: include and exclude filter the terms of string fields only")
    }

    @Test func aHistogramOfTooManyBucketsFailsBeforeMakingThem() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let error = try #require(failure(#"{"h": {"histogram": {"field": "price", "interval": 1e-9}}}"#))
        #expect(clock.now - start < .seconds(5))
        #expect(error.code == .invalidArgument)
        #expect(
            error.message.hasPrefix("aggregation 'h' would hold 448500000001 buckets, more than the limit of 65000"))
        let wide = try #require(
            failure(
                #"{"h": {"histogram": {"field": "year", "interval": 1, "extended_bounds": {"min": -1e300, "max": 1e300}}}}"#
            ))
        #expect(wide.message.contains("more than the limit of 65000"))
        let dates = try #require(failure(#"{"d": {"date_histogram": {"field": "released", "fixed_interval": "1ms"}}}"#))
        #expect(dates.message.contains("more than the limit of 65000"))
    }

    @Test func theBucketLimitCountsNestedBucketsAndAcceptsExactlyTheLimit() throws {
        let request = try AggregationRequest(
            json: #"{"g": {"terms": {"field": "genre"}, "aggs": {"y": {"terms": {"field": "year", "size": 200}}}}}"#)
        let searcher = Self.index.searcher()
        // Documents 0..<300 have genre i % 7 and year i % 120, 300 distinct pairs: 7 + 300 buckets.
        let limits = AggregationLimits(bucketLimit: 307)
        #expect(try searcher.aggregate(request, limits: limits).results.count == 1)
        #expect {
            try searcher.aggregate(request, limits: AggregationLimits(bucketLimit: 306))
        } throws: { error in
            ((error as? IndexError)?.message ?? "").hasPrefix(
                "the aggregation response would hold 307 buckets, more than the limit of 306")
        }
    }

    @Test func theMemoryLimitStopsCollecting() throws {
        let request = try AggregationRequest(json: #"{"t": {"terms": {"field": "price"}}}"#)
        #expect {
            try Self.index.searcher().aggregate(request, limits: AggregationLimits(memoryLimitBytes: 1_000))
        } throws: { error in
            ((error as? IndexError)?.message ?? "").hasPrefix(
                "the aggregation needs more than its memory limit of 1000 bytes")
        }
        #expect(try Self.index.searcher().aggregate(request).results.count == 1)
    }

    @Test func theTantivyForSwiftCallCompilesAndAnswers() throws {
        let index = Self.index
        #expect(try index.aggregate(#"{"avg_year": {"avg": {"field": "year"}}}"#) == #"{"avg_year":{"value":1953.5}}"#)
        #expect(
            try index.aggregate(#"{"n": {"value_count": {"field": "year"}}}"#, matching: .term("genre", "g0"))
                == #"{"n":{"value":43.0}}"#)
        #expect(try index.searcher().aggregate("{}") == "{}")
    }
}
