import Loupe
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite struct SnippetAndSortTests {
    static let index: Index = {
        let schema = try! SchemaBuilder()
            .addStringField("id", stored: true)
            .addTextField("title", stored: true)
            .addTextField("plot", stored: true)
            .addU64Field("year", stored: true, fast: true)
            .addF64Field("rating", fast: true)
            .build(defaultFields: ["title", "plot"], idField: "id")
        let index = try! Index.inMemory(schema: schema)
        let writer = try! index.writer()
        let films: [(String, String, String, Int64, Double?)] = [
            (
                "heat", "Heat",
                "A group of professional bank robbers feels the heat from the police after a botched job.", 1995, 8.3
            ),
            (
                "ronin", "Ronin", "A team of mercenaries plans to steal a mysterious case; the heat is on in Paris.",
                1998, 7.2
            ),
            ("thief", "Thief", "A professional safecracker wants out after one last job for the mob.", 1981, 7.4),
            (
                "collateral", "Collateral", "A cab driver finds himself the hostage of an engaging contract killer.",
                2004, nil
            ),
            ("insider", "The Insider", "A research chemist comes under personal and professional attack.", 1999, 7.8),
        ]
        for (id, title, plot, year, rating) in films {
            var doc: Document = [
                "id": DocumentValue(.text(id)), "title": DocumentValue(.text(title)),
                "plot": DocumentValue(.text(plot)), "year": DocumentValue(.i64(year)),
            ]
            if let rating { doc.add("rating", .f64(rating)) }
            try! writer.addDocument(doc)
        }
        try! writer.commitAndReload()
        return index
    }()

    @Test func snippetMarksTermsPhrasesAndFuzzyMatches() throws {
        let index = Self.index
        let term = try index.search(index.parseQuery("plot:robbers"), limit: 1)
        let snippet = try #require(term.hits.first?.snippet("plot", maxChars: 40))
        #expect(snippet.highlights.count == 1)
        #expect(snippet.highlights.map { String(snippet.text[$0]) } == ["robbers"])
        #expect(snippet.text.count <= 40)
        #expect(snippet.html.contains("<b>robbers</b>"))

        let phrase = try index.search(index.parseQuery("plot:\"professional bank\""), limit: 1)
        let marked = try #require(phrase.hits.first?.snippet("plot"))
        #expect(
            marked.highlights.map { String(marked.text[$0]) } == ["professional bank"], "one mark per phrase occurrence"
        )

        let fuzzy = try index.search(index.parseQuery("plot:mercanaries~1"), limit: 1)
        let typo = try #require(fuzzy.hits.first?.snippet("plot"))
        #expect(typo.highlights.map { String(typo.text[$0]) } == ["mercenaries"])

        let prefix = try index.search(.prefix("plot", "profess"), limit: 5)
        for hit in prefix.hits {
            let s = try #require(hit.snippet("plot"))
            #expect(!s.highlights.isEmpty)
            #expect(s.highlights.allSatisfy { s.text[$0].lowercased().hasPrefix("profess") })
        }
    }

    @Test func snippetMarksRegexWildcardPhrasePrefixAndTypoTolerantInstantMatches() throws {
        let index = Self.index
        func marks(_ query: Query, _ id: String) throws -> [String] {
            let hit = try #require(
                index.search(query, limit: 5).hits.first { $0.document.string("id") == id }, "\(query) finds \(id)")
            let snippet = try #require(hit.snippet("plot", maxChars: 200))
            return snippet.highlights.map { String(snippet.text[$0]) }
        }
        #expect(try marks(.regex(field: "plot", pattern: "rob.*s"), "heat") == ["robbers"])
        #expect(try marks(.wildcard(field: "plot", pattern: "m?st*"), "ronin") == ["mysterious"])
        #expect(try marks(.wildcard(field: "plot", pattern: "*fess*"), "thief") == ["professional"])
        #expect(
            try marks(.phrasePrefix(field: "plot", terms: ["bank", "rob"], maxExpansions: 10), "heat") == [
                "bank robbers"
            ])
        let empty = try index.search(
            .anyOf([.term("title", "heat"), .phrase(field: "plot", terms: [], slop: 0)]), limit: 1)
        let plain = try #require(empty.hits.first?.snippet("plot"))
        #expect(plain.highlights.isEmpty, "an empty phrase marks nothing")
        let instant = try index.instantSearch("mercenaires pl", fields: ["plot"], limit: 5, suggestions: 0)
        let hit = try #require(instant.hits.first)
        let snippet = try #require(hit.snippet("plot"))
        #expect(snippet.highlights.map { String(snippet.text[$0]) } == ["mercenaries", "plans"])
    }

    @Test func snippetEscapesHTMLAndHandlesMissingFields() throws {
        let rendered = Snippet(text: "a <b> & c", highlights: []).rendered()
        #expect(rendered == "a &lt;b&gt; &amp; c")
        let hits = try Self.index.search(.term("title", "heat"), limit: 1)
        #expect(hits.hits.first?.snippet("rating") == nil, "not a stored text field")
        let plain = try #require(hits.hits.first?.snippet("plot", maxChars: 10))
        #expect(plain.highlights.isEmpty, "the query matched only the title")
        #expect(plain.text.count <= 10)
    }

    @Test func sortsByFastFieldsWithPaging() throws {
        let index = Self.index
        let ascending = try index.search(.matchAll, limit: 10, orderBy: .ascending("year"))
        #expect(
            ascending.hits.compactMap { $0.document.string("id") } == [
                "thief", "heat", "ronin", "insider", "collateral",
            ])
        #expect(ascending.hits.first?.sortValue == .u64(1981))
        let page = try index.search(.matchAll, limit: 2, offset: 2, orderBy: .descending("year"))
        #expect(page.hits.compactMap { $0.document.string("id") } == ["ronin", "heat"])
        #expect(page.totalCount == 5)
        let byRating = try index.search(.matchAll, limit: 10, orderBy: .descending("rating"))
        #expect(byRating.hits.last?.document.string("id") == "collateral", "documents without a value come last")
        #expect(byRating.hits.first?.sortValue == .f64(8.3))
        #expect(throws: IndexError.self) { try index.search(.matchAll, orderBy: .ascending("title")) }
        #expect(throws: IndexError.self) { try index.search(.matchAll, orderBy: .ascending("yeer")) }
    }

    @Test func fieldBoostsMultiplyLeafScores() throws {
        let index = Self.index
        let plain = try index.search(index.parseQuery("heat"), limit: 5)
        let boosted = try index.search(index.parseQuery("heat"), limit: 5, boosts: ["title": 3])
        let plainTitle = try index.search(.term("title", "heat"), limit: 1).hits[0].score
        let plainPlot = try index.search(.term("plot", "heat"), limit: 5)
        let heatPlot = try #require(plainPlot.hits.first { $0.document.string("id") == "heat" }).score
        let heat = try #require(boosted.hits.first { $0.document.string("id") == "heat" })
        #expect(abs(heat.score - (3 * plainTitle + heatPlot)) < 1e-4)
        #expect(plain.totalCount == boosted.totalCount)
        #expect(throws: IndexError.self) { try index.search(.matchAll, boosts: ["nope": 2]) }
    }

    @Test func moreLikeThisByDocumentExcludesTheSource() throws {
        let index = Self.index
        let options = MoreLikeThisOptions(minTermFrequency: 1, minDocFrequency: 1)
        let similar = try index.moreLikeThis(idField: "id", id: "heat", fields: ["plot"], limit: 5, options: options)
        let ids = similar.hits.compactMap { $0.document.string("id") }
        #expect(!ids.contains("heat"))
        #expect(ids.first == "thief" || ids.first == "ronin", "shares 'professional', 'job' or 'heat'")
        #expect(throws: IndexError.self) { try index.moreLikeThis(idField: "id", id: "missing") }
    }

    @Test func autocompleteToleratesTyposAndCompletesTheLastWord() throws {
        let index = Self.index
        let ids = { (q: Query) in try index.search(q, limit: 10).hits.compactMap { $0.document.string("id") } }
        #expect(try ids(.autocomplete("plot", "profesional ba")) == ["heat"])
        #expect(try Set(ids(.autocomplete("plot", "mercen"))) == ["ronin"])
        #expect(try ids(.autocomplete("plot", "xq")).isEmpty)
    }
}
