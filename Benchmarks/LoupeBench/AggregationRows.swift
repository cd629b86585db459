import Foundation

/// One facet or aggregation row of `--aggregations` (compare.py writes the list from bench/aggregations.py): a
/// `termCounts` call or an `aggregate` request, over match-all (`query` nil) or a parsed query.
struct AggregationRow {
    enum Kind {
        case termCounts(field: String, limit: Int)
        /// The request JSON, passed to `Searcher.aggregate` as is.
        case aggregate(request: String)
    }

    var name: String
    var kind: Kind
    var query: String?

    var kindName: String {
        switch kind {
        case .termCounts: "term_counts"
        case .aggregate: "aggregate"
        }
    }

    struct FileError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): \(reason)" }
    }

    /// The rows of a JSON list of `{"name", "kind", "query", "field", "limit", "request_json"}` objects.
    static func load(path: String) throws -> [AggregationRow] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw FileError(path: path, reason: "want a JSON list of row objects")
        }
        return try list.enumerated().map { number, entry in
            guard let name = entry["name"] as? String, let kind = entry["kind"] as? String else {
                throw FileError(path: path, reason: "row \(number): want \"name\" and \"kind\"")
            }
            let query = entry["query"] as? String
            switch kind {
            case "term_counts":
                guard let field = entry["field"] as? String, let limit = entry["limit"] as? Int else {
                    throw FileError(path: path, reason: "row \(name): term_counts wants \"field\" and \"limit\"")
                }
                return AggregationRow(name: name, kind: .termCounts(field: field, limit: limit), query: query)
            case "aggregate":
                guard let request = entry["request_json"] as? String else {
                    throw FileError(path: path, reason: "row \(name): aggregate wants \"request_json\"")
                }
                return AggregationRow(name: name, kind: .aggregate(request: request), query: query)
            default:
                throw FileError(path: path, reason: "row \(name): unknown kind '\(kind)'")
            }
        }
    }
}
