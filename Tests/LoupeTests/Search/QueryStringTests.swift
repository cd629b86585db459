import Loupe
import TestSupport
import Testing

@Suite struct QueryStringTests {
    static let index: Index = {
        let schema = try! SchemaBuilder()
            .addTextField("title", stored: true)
            .addTextField("body")
            .addStringField("tag")
            .addU64Field("year", fast: true)
            .build(defaultFields: ["title", "body"])
        let index = try! Index.inMemory(schema: schema)
        let writer = try! index.writer()
        try! writer.addDocument([
            "title": "The Dark Knight", "body": "batman fights crime", "tag": "Action", "year": 2008,
        ])
        try! writer.addDocument(["title": "Knight and Day", "body": "a spy comedy", "tag": "Comedy", "year": 2010])
        try! writer.addDocument(["title": "Dark City", "body": "a noir mystery", "tag": "Mystery", "year": 1998])
        try! writer.commitAndReload()
        return index
    }()

    @Test(arguments: [
        ("knight", 2), ("dark knight", 3), ("+dark +knight", 1), ("dark AND knight", 1), ("dark -knight", 1),
        ("knight AND NOT dark", 1), ("(dark OR spy) AND knight", 2), ("\"dark knight\"", 1), ("'dark knight'", 1),
        ("title:dark", 2), ("body:noir", 1), ("tag:Comedy", 1), ("tag:comedy", 0), ("year:2008", 1), ("*", 3),
        ("batman^2 mystery", 2), ("knight-and-day", 1), ("", 0),
        ("year:[2000 TO 2010]", 2), ("year:{2008 TO 2010]", 1), ("year:[* TO 2008}", 1), ("year:>=2008", 2),
        ("year:<2008", 1), ("tag: IN [Action Comedy]", 2), ("year:*", 3), ("tag:*", 3), ("body:*", 3),
        ("title:/kni.*/", 2), ("title:/k(n|x)ight/", 2), ("\"dark knight\"~1", 1), ("\"knight day\"~1", 1),
        ("\"knight day\"~0", 0), ("\"dark kni\"*", 1), ("\"kni\"*", 2), ("knigt~", 2), ("knigt~0", 0),
        ("kngiht~1", 2), ("dakr~2", 3), ("kni*", 2), ("k?ight", 2), ("Kni*", 2), ("d*k", 2), ("tag:Act*", 1),
        ("what?", 0),
    ])
    func countsMatch(query: String, expected: Int) throws {
        let index = Self.index
        #expect(try index.count(index.parseQuery(query)) == expected, "\(query)")
    }

    @Test func errorsAreTypedWithPosition() throws {
        let index = Self.index
        func failure(_ q: String) -> IndexError? {
            do {
                _ = try index.parseQuery(q)
                return nil
            } catch {
                return error
            }
        }
        let unbalanced = try #require(failure("(dark knight"))
        #expect(unbalanced.code == .invalidQuery)
        #expect(unbalanced.context.byteOffset != nil)
        let unknown = try #require(failure("dark titel:knight"))
        #expect(unknown.message.contains("did you mean 'title'"))
        #expect(unknown.context.byteOffset == 5)
        #expect(failure("-dark")?.code == .invalidQuery, "negatives only")
        #expect(failure("year:abc")?.message.contains("u64") == true)
        #expect(failure("year:[abc TO 2010]")?.message.contains("u64") == true)
        #expect(failure("title:knight~3")?.message.contains("0, 1 or 2") == true)
        #expect(failure("year:abc*")?.message.contains("text or string") == true)
        let regex = try #require(failure("title:/kn(ight/"))
        #expect(regex.message.contains("regex"))
        #expect(regex.context.field == "title")
    }

    @Test func multiFieldWordsSumPerFieldScores() throws {
        let index = Self.index
        let both = try index.search(index.parseQuery("knight"))
        let title = try index.search(.term("title", "knight"))
        #expect(both.hits.map(\.score) == title.hits.map(\.score), "body has no 'knight', so only title scores")
    }

    @Test func lenientModeNeverThrows() throws {
        let index = Self.index
        let lenient = QueryParserOptions(lenient: true)
        #expect(try index.count(index.parseQuery("-dark", options: lenient)) == 1, "all documents minus the exclusions")
        #expect(
            try index.count(index.parseQuery("(dark knight", options: lenient)) == 3, "plain words of a broken query")
        #expect(try index.count(index.parseQuery("titel:dark knight", options: lenient)) == 2, "unknown field dropped")
        #expect(try index.count(index.parseQuery("year:abc dark", options: lenient)) == 2, "invalid value dropped")
    }

    @Test func conjunctionByDefault() throws {
        let index = Self.index
        let and = QueryParserOptions(conjunctionByDefault: true)
        #expect(try index.count(index.parseQuery("dark knight", options: and)) == 1)
        #expect(try index.count(index.parseQuery("dark OR spy", options: and)) == 3)
    }
}
