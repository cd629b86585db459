import Foundation
import Loupe
import TestSupport
import Testing

/// Every `Query` case, alone and nested in booleans, answered by the engine over a small random index committed
/// in several segments and by the brute-force `ReferenceIndex`: the same documents must match (in `search` and in
/// `count`), scores on text fields must agree within 1e-4 relative, the best hits must come first, and pages
/// sorted by a fast field must hold the same documents in the same order.
@Suite struct QueryLanguageReferenceTests {
    /// Words one or two edits apart (and one with a two-byte scalar, one in CJK), so fuzzy, prefix, regex and
    /// autocomplete queries expand to several terms.
    static let vocabulary = [
        "heat", "heart", "hear", "beat", "head", "heal", "neat", "haet", "hat", "héat", "日本", "heats", "he", "eat",
    ]
    static let tags = ["red", "read", "reed", "blue", "blues", "réd", "日本"]
    static let ratios = [-2.5, -1, 0, 0.5, 1.25, 3, 7.75, 100]
    static let sortOrders: [SearchOrder] = [
        .ascending("count"), .descending("count"), .ascending("ratio"), .descending("ratio"), .ascending("when"),
        .descending("when"),
    ]

    static let schema = try! SchemaBuilder()
        .addStringField("id", stored: true, indexed: false)
        .addTextField("title")
        .addTextField("body")
        .addStringField("tag")
        .addU64Field("count", fast: true)
        .addI64Field("delta")
        .addF64Field("ratio", fast: true)
        .addDateField("when", fast: true)
        .build(defaultFields: ["title", "body"], idField: "id")

    /// The query shapes under test; the last three wrap random leaves.
    enum Kind: String, CaseIterable {
        case matchAll, term, phrase, phrasePrefix, prefix, fuzzy, autocomplete, regex, wildcard, range, exists
        case moreLikeThis, boolean, boost, constantScore
    }

    @Test(arguments: Kind.allCases)
    func everyQueryTypeAgrees(kind: Kind) throws {
        for seed in 0..<3 as Range<UInt64> {
            var rng = SplitMix64(seed: seed)
            let corpus = try Corpus(&rng)
            for _ in 0..<25 {
                corpus.check(QueryGenerator.query(kind, &rng), context: "seed \(seed), \(kind)")
            }
        }
    }

    @Test(arguments: 0..<6 as Range<UInt64>)
    func nestedQueriesAgree(seed: UInt64) throws {
        var rng = SplitMix64(seed: 100 + seed)
        let corpus = try Corpus(&rng)
        for _ in 0..<50 {
            corpus.check(QueryGenerator.nested(&rng), context: "seed \(100 + seed)")
        }
    }

    @Test(arguments: 0..<4 as Range<UInt64>)
    func fieldBoostsAgree(seed: UInt64) throws {
        var rng = SplitMix64(seed: 200 + seed)
        let corpus = try Corpus(&rng)
        for _ in 0..<40 {
            var boosts: [String: Float] = [:]
            for field in ["title", "body", "tag", "count", "delta", "ratio", "when"] where Bool.random(using: &rng) {
                boosts[field] = [0.5, 2, 3][Int.random(in: 0..<3, using: &rng)]
            }
            corpus.check(QueryGenerator.nested(&rng), boosts: boosts, context: "seed \(200 + seed), boosts \(boosts)")
        }
    }

    @Test(arguments: 0..<4 as Range<UInt64>)
    func sortedPagesAgree(seed: UInt64) throws {
        var rng = SplitMix64(seed: 300 + seed)
        let corpus = try Corpus(&rng)
        for _ in 0..<30 {
            let query = Int.random(in: 0..<4, using: &rng) == 0 ? Query.matchAll : QueryGenerator.nested(&rng)
            let order = Self.sortOrders[Int.random(in: 0..<Self.sortOrders.count, using: &rng)]
            let limit = Int.random(in: 1...15, using: &rng)
            let offset = Int.random(in: 0...20, using: &rng)
            let context = "seed \(300 + seed): \(query) by \(order), limit \(limit), offset \(offset)"
            do {
                let matches = try corpus.reference.search(query)
                let page = Array(corpus.reference.ordered(matches, by: order).dropFirst(offset).prefix(limit))
                let results = try corpus.index.search(query, limit: limit, offset: offset, orderBy: order)
                #expect(results.totalCount == matches.count, "\(context)")
                #expect(results.hits.map(Corpus.ordinal) == page, "\(context)")
            } catch {
                Issue.record("\(context): \(error)")
            }
        }
    }

    @Test func invalidQueriesAreRejected() throws {
        var rng = SplitMix64(seed: 400)
        let corpus = try Corpus(&rng)
        let invalid: [Query] = [
            .fuzzy("title", "heat", distance: 3),
            .regex("title", "(he"),
            .range(field: "count", lower: .included(.text("a")), upper: .unbounded),
        ]
        for query in invalid {
            let searchError = #expect(throws: IndexError.self, "\(query)") { try corpus.index.search(query) }
            #expect(searchError?.code == .invalidQuery, "\(query)")
            let countError = #expect(throws: IndexError.self, "\(query)") { try corpus.index.count(query) }
            #expect(countError?.code == .invalidQuery, "\(query)")
        }
    }
}

extension QueryLanguageReferenceTests {
    /// A random index, 30–200 documents committed in several segments, and a reference holding the same documents.
    struct Corpus {
        let index: Index
        let reference: ReferenceIndex

        init(_ rng: inout SplitMix64) throws {
            let schema = QueryLanguageReferenceTests.schema
            index = try Index.inMemory(schema: schema)
            let writer = try index.writer()
            var reference = ReferenceIndex(schema: schema)
            for i in 0..<Int.random(in: 30...200, using: &rng) {
                let document = Self.randomDocument(i, &rng)
                try writer.addDocument(document)
                try reference.add(document)
                if Int.random(in: 0..<15, using: &rng) == 0 { try writer.commit() }
            }
            try writer.commitAndReload()
            self.reference = reference
        }

        /// Every field may be missing; text may be empty or capitalized; tags and counts are sometimes two values.
        static func randomDocument(_ i: Int, _ rng: inout SplitMix64) -> Document {
            var document = Document()
            document.add("id", .text("\(i)"))
            func present() -> Bool { Int.random(in: 0..<5, using: &rng) > 0 }
            if present() { document.add("title", .text(QueryGenerator.text(words: 0...4, &rng))) }
            if present() { document.add("body", .text(QueryGenerator.text(words: 0...12, &rng))) }
            if present() { document.add("tag", .text(QueryGenerator.pick(tags, &rng))) }
            if Int.random(in: 0..<10, using: &rng) == 0 { document.add("tag", .text(QueryGenerator.pick(tags, &rng))) }
            if present() { document.add("count", .u64(UInt64.random(in: 0...20, using: &rng))) }
            if Int.random(in: 0..<10, using: &rng) == 0 {
                document.add("count", .u64(UInt64.random(in: 0...20, using: &rng)))
            }
            if present() { document.add("delta", .i64(Int64.random(in: -10...10, using: &rng))) }
            if present() { document.add("ratio", .f64(QueryGenerator.pick(QueryLanguageReferenceTests.ratios, &rng))) }
            if present() { document.add("when", .date(QueryGenerator.date(&rng))) }
            return document
        }

        var documentCount: Int { reference.documentCount }

        /// A hit's insertion ordinal, from its stored id.
        static func ordinal(_ hit: SearchHit) -> Int { hit.document.string("id").flatMap { Int($0) } ?? -1 }

        /// Compares the engine with the reference on `query`, recording at most one issue that lists every problem.
        func check(_ query: Query, boosts: [String: Float] = [:], context: String) {
            do {
                let expected = try reference.search(query, boosts: boosts)
                let problems = try problems(query, boosts: boosts, expected: expected)
                if !problems.isEmpty { Issue.record("\(context): \(query)\n  \(problems.joined(separator: "\n  "))") }
            } catch {
                Issue.record("\(context): \(query) failed: \(error)")
            }
        }

        private func problems(
            _ query: Query, boosts: [String: Float], expected: ReferenceIndex.Matches
        ) throws -> [String] {
            var problems: [String] = []
            let all = try index.search(query, limit: documentCount, boosts: boosts)
            let counted = try index.count(query)
            if all.totalCount != expected.count {
                problems.append("search counted \(all.totalCount), expected \(expected.count)")
            }
            if counted != expected.count { problems.append("count gave \(counted), expected \(expected.count)") }
            let got = Dictionary(all.hits.map { (Self.ordinal($0), Double($0.score)) }) { a, _ in a }
            let extra = got.keys.filter { expected[$0] == nil }.sorted()
            let missing = expected.keys.filter { got[$0] == nil }.sorted()
            if !extra.isEmpty { problems.append("unexpected documents \(extra.prefix(12))") }
            if !missing.isEmpty { problems.append("missing documents \(missing.prefix(12))") }
            let comparesScores = reference.comparesScores(query)
            if comparesScores {
                let wrong = got.keys.sorted().filter { d in expected[d].map { !Self.close(got[d] ?? 0, $0) } ?? false }
                for d in wrong.prefix(5) {
                    problems.append("document \(d) scored \(got[d] ?? 0), expected \(expected[d] ?? 0)")
                }
            }
            let scores = all.hits.map(\.score)
            if scores != scores.sorted(by: >) { problems.append("hits are not best first: \(scores.prefix(12))") }
            // The best k: any k documents whose reference scores no other match beats (ties may go either way).
            guard expected.count > 1 else { return problems }
            let k = max(1, expected.count / 3)
            let top = try index.search(query, limit: k, boosts: boosts).hits.map(Self.ordinal)
            if top.count != k || !top.allSatisfy({ expected[$0] != nil }) {
                problems.append("top \(k) \(top) are not \(k) matches")
            }
            if comparesScores {
                let chosen = Set(top)
                let weakest = top.compactMap { expected[$0] }.min() ?? 0
                let strongest = expected.filter { !chosen.contains($0.key) }.map(\.value).max() ?? 0
                if strongest > weakest && !Self.close(strongest, weakest) {
                    problems.append("top \(k) \(top) leave out a document scoring \(strongest) > \(weakest)")
                }
            }
            return problems
        }

        /// Within 1e-4 relative (and 1e-6 absolute, for scores of zero).
        static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-4 * abs(b) + 1e-6 }
    }
}

extension QueryLanguageReferenceTests {
    /// Random queries over the corpus's words, tags and value ranges, every leaf kind equally likely.
    enum QueryGenerator {
        static let leaves: [Kind] = Kind.allCases.filter { ![.boolean, .boost, .constantScore].contains($0) }
        static let textFields = ["title", "body"]
        static let fields = ["title", "body", "tag", "count", "delta", "ratio", "when"]
        static let letters: [Unicode.Scalar] = ["a", "e", "h", "r", "t", "é"]
        static let regexes = [
            "h.a.*", "he(a|ar)t?", "[bn]eat", ".{2,3}", "[^h].*", "h[a-e]+[rt]?", "日.", "(heat|beat)s?", ".*e.*",
            "r[e]+d",
        ]
        static let wildcards = ["*", "h*t", "*a*", "he*", "\\*", "h\\e*", "?e*", "日*", "*s", "re?d", "bl*"]

        static func pick<T>(_ options: [T], _ rng: inout SplitMix64) -> T {
            options[Int.random(in: 0..<options.count, using: &rng)]
        }

        /// A vocabulary word as indexed (lowercase), the first ones more likely.
        static func word(_ rng: inout SplitMix64) -> String {
            let r = Double.random(in: 0..<1, using: &rng)
            return vocabulary[Int(r * r * Double(vocabulary.count))]
        }

        /// Words as a user types them: now and then capitalized, for the analyzer to lowercase.
        static func text(words: ClosedRange<Int>, _ rng: inout SplitMix64) -> String {
            (0..<Int.random(in: words, using: &rng)).map { _ in
                let w = word(&rng)
                return Int.random(in: 0..<8, using: &rng) == 0 ? String(w.prefix(1)).uppercased() + w.dropFirst() : w
            }.joined(separator: Int.random(in: 0..<6, using: &rng) == 0 ? ", " : " ")
        }

        static func date(_ rng: inout SplitMix64) -> Date {
            Date(timeIntervalSince1970: 1_700_000_000 + 3600 * Double(Int.random(in: 0...30, using: &rng)))
        }

        /// The first 1...n scalars of `word` (or from 0 with `allowEmpty`).
        static func prefix(of word: String, allowEmpty: Bool = false, _ rng: inout SplitMix64) -> String {
            let scalars = Array(word.unicodeScalars)
            guard !scalars.isEmpty else { return word }
            return string(scalars.prefix(Int.random(in: (allowEmpty ? 0 : 1)...scalars.count, using: &rng)))
        }

        static func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            return String(view)
        }

        /// `word` with at most one edit: an insertion, a deletion, a substitution or a swap of neighbours.
        static func misspell(_ word: String, _ rng: inout SplitMix64) -> String {
            var s = Array(word.unicodeScalars)
            switch Int.random(in: 0..<5, using: &rng) {
            case 1: s.insert(pick(letters, &rng), at: Int.random(in: 0...s.count, using: &rng))
            case 2 where !s.isEmpty: s.remove(at: Int.random(in: 0..<s.count, using: &rng))
            case 3 where !s.isEmpty: s[Int.random(in: 0..<s.count, using: &rng)] = pick(letters, &rng)
            case 4 where s.count >= 2:
                let i = Int.random(in: 0..<(s.count - 1), using: &rng)
                s.swapAt(i, i + 1)
            default: break
            }
            return string(s)
        }

        /// Leaves, booleans, boosts and constant scores, at most three levels deep.
        static func nested(_ rng: inout SplitMix64, depth: Int = 0) -> Query {
            switch Int.random(in: 0..<(depth >= 2 ? 1 : 5), using: &rng) {
            case 0, 1: query(pick(leaves, &rng), &rng)
            case 2, 3: boolean(&rng, depth: depth)
            default: wrapped(&rng, depth: depth)
            }
        }

        static func boolean(_ rng: inout SplitMix64, depth: Int) -> Query {
            let clauses = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                Query.Clause(pick([Occur.must, .should, .should, .mustNot], &rng), nested(&rng, depth: depth + 1))
            }
            return .boolean(clauses, minimumShouldMatch: pick([0, 0, 0, 1, 2, 3], &rng))
        }

        static func wrapped(_ rng: inout SplitMix64, depth: Int) -> Query {
            let inner = nested(&rng, depth: depth + 1)
            return Bool.random(using: &rng)
                ? .boost(inner, factor: pick([0.5, 2, 3], &rng))
                : .constantScore(inner, score: pick([0.5, 1, 2.5], &rng))
        }

        static func query(_ kind: Kind, _ rng: inout SplitMix64) -> Query {
            switch kind {
            case .matchAll: return .matchAll
            case .term: return term(&rng)
            case .phrase:
                let terms = (0..<pick([1, 2, 2, 3], &rng)).map { _ in word(&rng) }
                return .phrase(pick(textFields, &rng), terms, slop: pick([0, 0, 1, 2, 3], &rng))
            case .phrasePrefix:
                let maxExpansions = pick([1, 2, 3, 50], &rng)
                if Int.random(in: 0..<6, using: &rng) == 0 {
                    return .phrasePrefix("tag", [prefix(of: pick(tags, &rng), &rng)], maxExpansions: maxExpansions)
                }
                let head = (0..<pick([0, 1, 1, 2], &rng)).map { _ in word(&rng) }
                return .phrasePrefix(
                    pick(textFields, &rng), head + [prefix(of: word(&rng), &rng)], maxExpansions: maxExpansions)
            case .prefix:
                let field = pick(["title", "body", "tag"], &rng)
                return .prefix(
                    field, prefix(of: field == "tag" ? pick(tags, &rng) : word(&rng), allowEmpty: true, &rng))
            case .fuzzy:
                let field = pick(["title", "body", "body", "tag"], &rng)
                let fuzzy = { (field: String, value: String, rng: inout SplitMix64) -> Query in
                    .fuzzy(
                        field, value, distance: Int.random(in: 0...2, using: &rng),
                        transpositions: Bool.random(using: &rng),
                        prefix: Int.random(in: 0..<3, using: &rng) == 0, maxExpansions: pick([1, 2, 3, 50], &rng))
                }
                let value = misspell(field == "tag" ? pick(tags, &rng) : word(&rng), &rng)
                let query = fuzzy(field, value, &rng)
                // One word on several fields, as a query string over default fields writes it: scored as one.
                guard Int.random(in: 0..<3, using: &rng) == 0, case .fuzzy(_, _, let d, let t, let p, let m) = query
                else { return query }
                return .anyOf(
                    ["title", "body"].map {
                        .fuzzy($0, value, distance: d, transpositions: t, prefix: p, maxExpansions: m)
                    })
            case .autocomplete:
                let count = pick([0, 1, 1, 2, 3], &rng)
                let words = (0..<count).map { i in
                    let w = misspell(word(&rng), &rng)
                    return i == count - 1 ? prefix(of: w, &rng) : w
                }
                return .autocomplete(
                    pick(textFields, &rng), words.joined(separator: " "),
                    typoTolerance: Int.random(in: 0...2, using: &rng))
            case .regex: return regex(&rng)
            case .wildcard: return wildcard(&rng)
            case .range: return range(&rng)
            case .exists: return .exists(pick(fields, &rng))
            case .moreLikeThis:
                let onTag = Int.random(in: 0..<6, using: &rng) == 0
                let options = MoreLikeThisOptions(
                    minTermFrequency: pick([1, 1, 2], &rng), minDocFrequency: pick([0, 1, 2, 5], &rng),
                    maxDocFrequency: pick([nil, 5, 20, 60], &rng), maxQueryTerms: pick([1, 2, 3, 25], &rng),
                    minWordLength: pick([0, 0, 3, 4], &rng), maxWordLength: pick([0, 0, 4, 5], &rng))
                return onTag
                    ? .moreLikeThis("tag", pick(tags, &rng), options)
                    : .moreLikeThis(pick(textFields, &rng), text(words: 3...10, &rng), options)
            case .boolean: return boolean(&rng, depth: 1)
            case .boost, .constantScore: return wrapped(&rng, depth: 0)
            }
        }

        static func term(_ rng: inout SplitMix64) -> Query {
            switch Int.random(in: 0..<7, using: &rng) {
            case 0, 1: .term(pick(textFields, &rng), .text(pick(vocabulary + ["zzz"], &rng)))
            case 2: .term("tag", .text(pick(tags, &rng)))
            case 3: .term("count", .u64(UInt64.random(in: 0...21, using: &rng)))
            case 4: .term("delta", .i64(Int64.random(in: -11...11, using: &rng)))
            case 5: .term("ratio", .f64(pick(ratios, &rng)))
            default: .term("when", .date(date(&rng)))
            }
        }

        static func regex(_ rng: inout SplitMix64) -> Query {
            let field = pick(["title", "body", "tag"], &rng)
            let words = field == "tag" ? tags : vocabulary
            let w = pick(words, &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return .regex(field, pick(regexes, &rng))
            case 1:
                var scalars = Array(w.unicodeScalars).map(String.init)
                scalars[Int.random(in: 0..<scalars.count, using: &rng)] = "."
                return .regex(field, scalars.joined())
            case 2: return .regex(field, prefix(of: w, &rng) + ".*")
            default: return .regex(field, "(\(w)|\(pick(words, &rng)))")
            }
        }

        static func wildcard(_ rng: inout SplitMix64) -> Query {
            let field = pick(["title", "body", "tag"], &rng)
            if Bool.random(using: &rng) { return .wildcard(field, pick(wildcards, &rng)) }
            var pieces = Array((field == "tag" ? pick(tags, &rng) : word(&rng)).unicodeScalars).map(String.init)
            for i in pieces.indices where Int.random(in: 0..<4, using: &rng) == 0 {
                pieces[i] = Bool.random(using: &rng) ? "?" : "*"
            }
            return .wildcard(field, pieces.joined())
        }

        static func range(_ rng: inout SplitMix64) -> Query {
            func bound(_ value: FieldValue, _ rng: inout SplitMix64) -> RangeBound {
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: .unbounded
                case 1, 2: .included(value)
                default: .excluded(value)
                }
            }
            let field = pick(fields, &rng)
            var values: [FieldValue] = []
            for _ in 0..<2 {
                switch field {
                case "title", "body": values.append(.text(text(words: 1...1, &rng)))
                case "tag": values.append(.text(pick(tags, &rng)))
                case "count":
                    values.append(
                        Int.random(in: 0..<5, using: &rng) == 0
                            ? .i64(-3) : .u64(UInt64.random(in: 0...21, using: &rng)))
                case "delta": values.append(.i64(Int64.random(in: -12...12, using: &rng)))
                case "ratio":
                    values.append(
                        Bool.random(using: &rng)
                            ? .f64(pick(ratios, &rng)) : .i64(Int64.random(in: -2...8, using: &rng)))
                default: values.append(.date(date(&rng)))
                }
            }
            return .range(field: field, lower: bound(values[0], &rng), upper: bound(values[1], &rng))
        }
    }
}
