/// Searching the current searcher: each call takes `searcher()` once, so it sees one commit throughout (see
/// `Searcher` for the parameters).
extension Index {
    /// Parses a query string with the current searcher (see `Searcher.parseQuery`).
    public func parseQuery(
        _ text: String, defaultFields: [String]? = nil, options: QueryParserOptions = .init()
    ) throws(IndexError) -> Query {
        try searcher().parseQuery(text, defaultFields: defaultFields, options: options)
    }

    /// The best hits for a structured query (see `Searcher.search(_:limit:offset:orderBy:boosts:counting:)`).
    public func search(
        _ query: Query, limit: Int = 10, offset: Int = 0, orderBy: SearchOrder = .relevance,
        boosts: [String: Float] = [:], counting: CountPolicy = .standard
    ) throws(IndexError) -> SearchResults {
        try searcher().search(query, limit: limit, offset: offset, orderBy: orderBy, boosts: boosts, counting: counting)
    }

    /// The best hits for a query string; unqualified words search `fields`, or every default (else indexed text)
    /// field when empty (see `Searcher.search(_:limit:offset:fields:orderBy:boosts:counting:options:)`).
    public func search(
        _ text: String, limit: Int = 10, offset: Int = 0, fields: [String] = [], orderBy: SearchOrder = .relevance,
        boosts: [String: Float] = [:], counting: CountPolicy = .standard, options: QueryParserOptions = .init()
    ) throws(IndexError) -> SearchResults {
        try searcher().search(
            text, limit: limit, offset: offset, fields: fields, orderBy: orderBy, boosts: boosts, counting: counting,
            options: options)
    }

    /// Counts the matches of a structured query, without scoring.
    public func count(_ query: Query) throws(IndexError) -> Int {
        try searcher().count(query)
    }

    /// Counts the matches of a query string, without scoring.
    public func count(
        _ text: String, fields: [String] = [], options: QueryParserOptions = .init()
    ) throws(IndexError)
        -> Int
    {
        try searcher().count(text, fields: fields, options: options)
    }

    /// Documents like the one whose `idField` holds `id`, itself excluded (see `Searcher.moreLikeThis`).
    public func moreLikeThis(
        idField: String, id: some FieldValueConvertible, fields: [String] = [], limit: Int = 10,
        options: MoreLikeThisOptions = .init()
    ) throws(IndexError) -> SearchResults {
        try searcher().moreLikeThis(idField: idField, id: id, fields: fields, limit: limit, options: options)
    }

    /// The first live document whose `field` holds `value` (an id), fetched without scoring (score 0); nil when
    /// there is none.
    public func get(_ field: String, equals value: FieldValue) throws(IndexError) -> SearchHit? {
        let searcher = searcher()
        var first = DocSetCollector(limit: 1)
        try searcher.collect(searcher.compile(.term(field: field, value: value)), into: &first)
        for (i, documents) in first.documents.enumerated() {
            if let doc = documents.first {
                return SearchHit(
                    score: 0, document: try searcher.document(DocAddress(segment: i, doc: doc)), highlighter: nil)
            }
        }
        return nil
    }

    /// The first live document whose `field` holds `value`, given as a Swift value (a `String` id, an integer…).
    public func get(_ field: String, equals value: some FieldValueConvertible) throws(IndexError) -> SearchHit? {
        try get(field, equals: value.fieldValue)
    }
}
