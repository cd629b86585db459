/// Async variants of the long reads: `searchAsync`, `countAsync`, `aggregateAsync`, `termCountsAsync` and
/// `moreLikeThisAsync`, on `Searcher` and on `Index` (with the typed `searchAsync(_:as:)` on `Index`).
///
/// Each takes the same parameters as its synchronous twin and returns the same result, but is `@concurrent`: it
/// runs on the global concurrent executor, never on the caller's actor, so a search started from the main actor
/// does not block it. Each is cancellable: once its task is cancelled it stops before the next segment and throws
/// `IndexError` `.cancelled` (a search of a one-segment index runs to the end; cancellation is never checked per
/// document, so the synchronous calls pay nothing for it).
///
/// Why distinct names rather than `async` overloads of `search`, `count` and the rest: inside an `async` function
/// Swift prefers the `async` overload of a call, so an existing `try index.search(query)` there would stop
/// compiling ("expression is 'async' but is not marked with 'await'") — and with `await` added it would hop off
/// the actor it ran on. With the `Async` suffix, every synchronous call keeps compiling and behaving as before.
extension Searcher {
    /// The searcher these calls search through: this snapshot, stopping once the task is cancelled.
    private var cancellable: Searcher { stopping(when: .whenTaskCancelled) }

    /// `search` off the caller's actor, stopping once the task is cancelled (see `Searcher.search`).
    /// - Throws: `IndexError`, as `search` does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func searchAsync(
        _ query: Query, limit: Int = 10, offset: Int = 0, orderBy: SearchOrder = .relevance,
        boosts: [String: Float] = [:],
        counting: CountPolicy = .standard
    ) async throws(IndexError) -> SearchResults {
        try cancellable.search(
            query, limit: limit, offset: offset, orderBy: orderBy, boosts: boosts, counting: counting)
    }

    /// `search` with a query string, off the caller's actor, stopping once the task is cancelled (see
    /// `Searcher.search(_:limit:offset:fields:orderBy:boosts:counting:options:)`).
    /// - Throws: `IndexError`, as `search` does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func searchAsync(
        _ text: String, limit: Int = 10, offset: Int = 0, fields: [String] = [], orderBy: SearchOrder = .relevance,
        boosts: [String: Float] = [:], counting: CountPolicy = .standard, options: QueryParserOptions = .init()
    ) async throws(IndexError) -> SearchResults {
        try cancellable.search(
            text, limit: limit, offset: offset, fields: fields, orderBy: orderBy, boosts: boosts, counting: counting,
            options: options)
    }

    /// `count` off the caller's actor, stopping once the task is cancelled (see `Searcher.count`).
    /// - Throws: `IndexError`, as `count` does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func countAsync(_ query: Query) async throws(IndexError) -> Int {
        try cancellable.count(query)
    }

    /// `count` with a query string, off the caller's actor, stopping once the task is cancelled (see
    /// `Searcher.count(_:fields:options:)`).
    /// - Throws: `IndexError`, as `count` does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func countAsync(
        _ text: String, fields: [String] = [], options: QueryParserOptions = .init()
    )
        async throws(IndexError) -> Int
    {
        try cancellable.count(text, fields: fields, options: options)
    }

    /// `aggregate` off the caller's actor, stopping once the task is cancelled (see `Searcher.aggregate`).
    /// - Throws: `IndexError`, as `aggregate` does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func aggregateAsync(_ json: String, matching query: Query = .matchAll) async throws(IndexError) -> String {
        try cancellable.aggregate(json, matching: query)
    }

    /// `termCounts` off the caller's actor, stopping once the task is cancelled (see `Searcher.termCounts`).
    /// - Throws: `IndexError`, as `termCounts` does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func termCountsAsync(
        _ field: String, matching query: Query = .matchAll, limit: Int = 10
    )
        async throws(IndexError) -> [FacetCount]
    {
        try cancellable.termCounts(field, matching: query, limit: limit)
    }

    /// `moreLikeThis` off the caller's actor, stopping once the task is cancelled (see `Searcher.moreLikeThis`).
    /// - Throws: `IndexError`, as `moreLikeThis` does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func moreLikeThisAsync(
        idField: String, id: some FieldValueConvertible, fields: [String] = [], limit: Int = 10,
        options: MoreLikeThisOptions = .init()
    ) async throws(IndexError) -> SearchResults {
        try cancellable.moreLikeThis(idField: idField, id: id, fields: fields, limit: limit, options: options)
    }
}

extension Index {
    /// `search` with the current searcher, off the caller's actor and cancellable (see `Searcher.searchAsync`).
    /// - Throws: `IndexError`, as `search` does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func searchAsync(
        _ query: Query, limit: Int = 10, offset: Int = 0, orderBy: SearchOrder = .relevance,
        boosts: [String: Float] = [:],
        counting: CountPolicy = .standard
    ) async throws(IndexError) -> SearchResults {
        try await searcher().searchAsync(
            query, limit: limit, offset: offset, orderBy: orderBy, boosts: boosts, counting: counting)
    }

    /// `search` with a query string and the current searcher, off the caller's actor and cancellable (see
    /// `Searcher.searchAsync(_:limit:offset:fields:orderBy:boosts:counting:options:)`).
    /// - Throws: `IndexError`, as `search` does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func searchAsync(
        _ text: String, limit: Int = 10, offset: Int = 0, fields: [String] = [], orderBy: SearchOrder = .relevance,
        boosts: [String: Float] = [:], counting: CountPolicy = .standard, options: QueryParserOptions = .init()
    ) async throws(IndexError) -> SearchResults {
        try await searcher().searchAsync(
            text, limit: limit, offset: offset, fields: fields, orderBy: orderBy, boosts: boosts, counting: counting,
            options: options)
    }

    /// Typed search with a query string (see `search(_:as:limit:offset:fields:orderBy:boosts:options:)`), off the
    /// caller's actor and cancellable; the hits are decoded off the actor too.
    /// - Throws: `IndexError`, as the synchronous call does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func searchAsync<T: Decodable & Sendable>(
        _ text: String, as type: T.Type, limit: Int = 10, offset: Int = 0, fields: [String] = [],
        orderBy: SearchOrder = .relevance, boosts: [String: Float] = [:], options: QueryParserOptions = .init()
    ) async throws(IndexError) -> [T] {
        try await searcher().searchAsync(
            text, limit: limit, offset: offset, fields: fields, orderBy: orderBy, boosts: boosts, counting: .hitsOnly,
            options: options
        ).map { hit throws(IndexError) in try hit.decode(type) }
    }

    /// Typed search with a structured query (see `search(_:as:limit:offset:orderBy:boosts:)`), off the caller's
    /// actor and cancellable; the hits are decoded off the actor too.
    /// - Throws: `IndexError`, as the synchronous call does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func searchAsync<T: Decodable & Sendable>(
        _ query: Query, as type: T.Type, limit: Int = 10, offset: Int = 0, orderBy: SearchOrder = .relevance,
        boosts: [String: Float] = [:]
    ) async throws(IndexError) -> [T] {
        try await searcher().searchAsync(
            query, limit: limit, offset: offset, orderBy: orderBy, boosts: boosts, counting: .hitsOnly
        ).map { hit throws(IndexError) in try hit.decode(type) }
    }

    /// `count` with the current searcher, off the caller's actor and cancellable (see `Searcher.countAsync`).
    /// - Throws: `IndexError`, as `count` does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func countAsync(_ query: Query) async throws(IndexError) -> Int {
        try await searcher().countAsync(query)
    }

    /// `count` with a query string and the current searcher, off the caller's actor and cancellable (see
    /// `Searcher.countAsync(_:fields:options:)`).
    /// - Throws: `IndexError`, as `count` does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func countAsync(
        _ text: String, fields: [String] = [], options: QueryParserOptions = .init()
    )
        async throws(IndexError) -> Int
    {
        try await searcher().countAsync(text, fields: fields, options: options)
    }

    /// `aggregate` with the current searcher, off the caller's actor and cancellable (see
    /// `Searcher.aggregateAsync`).
    /// - Throws: `IndexError`, as `aggregate` does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func aggregateAsync(_ json: String, matching query: Query = .matchAll) async throws(IndexError) -> String {
        try await searcher().aggregateAsync(json, matching: query)
    }

    /// `termCounts` with the current searcher, off the caller's actor and cancellable (see
    /// `Searcher.termCountsAsync`).
    /// - Throws: `IndexError`, as `termCounts` does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func termCountsAsync(
        _ field: String, matching query: Query = .matchAll, limit: Int = 10
    )
        async throws(IndexError) -> [FacetCount]
    {
        try await searcher().termCountsAsync(field, matching: query, limit: limit)
    }

    /// `moreLikeThis` with the current searcher, off the caller's actor and cancellable (see
    /// `Searcher.moreLikeThisAsync`).
    /// - Throws: `IndexError`, as `moreLikeThis` does, and `.cancelled` when the task is cancelled.
    @concurrent
    public func moreLikeThisAsync(
        idField: String, id: some FieldValueConvertible, fields: [String] = [], limit: Int = 10,
        options: MoreLikeThisOptions = .init()
    ) async throws(IndexError) -> SearchResults {
        try await searcher().moreLikeThisAsync(idField: idField, id: id, fields: fields, limit: limit, options: options)
    }
}
