/// One line of a query file: `class<TAB>query`, or a bare query whose class is inferred from its shape.
struct BenchQuery {
    var text: String
    var queryClass: String

    static func load(_ contents: String, limit: Int?) -> [BenchQuery] {
        var out: [BenchQuery] = []
        for line in contents.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 {
                out.append(BenchQuery(text: String(parts[1]), queryClass: String(parts[0])))
            } else {
                out.append(BenchQuery(text: String(line), queryClass: inferClass(String(line))))
            }
            if let limit, out.count == limit { break }
        }
        return out
    }

    /// The same rules as compare.py: phrase, and2, range, field, or2, term.
    static func inferClass(_ q: String) -> String {
        if q.contains("\"") { return "phrase" }
        if q.contains(" TO ") || q.contains(":>") || q.contains(":<") { return "range" }
        let words = q.split(separator: " ")
        if words.count > 1 && words.allSatisfy({ $0.hasPrefix("+") }) { return "and2" }
        if q.contains(":") { return "field" }
        return words.count > 1 ? "or2" : "term"
    }
}
