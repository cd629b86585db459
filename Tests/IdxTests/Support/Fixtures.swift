import Foundation

/// A small movie schema and corpus covering every value kind `idx` prints: text, string (multi-valued), u64, f64,
/// date.
enum Fixtures {
    static let schema = """
        {"fields": [
          {"name": "id", "type": "string", "stored": true},
          {"name": "title", "type": "text", "stored": true},
          {"name": "year", "type": "u64", "stored": true, "fast": true},
          {"name": "genres", "type": "string", "stored": true, "fast": true},
          {"name": "released", "type": "date", "stored": true},
          {"name": "rating", "type": "f64", "stored": true}
        ], "default_fields": ["title"], "id_field": "id"}
        """

    /// Another schema (no rating field), for mismatch tests.
    static let otherSchema = """
        {"fields": [{"name": "id", "type": "string", "stored": true}, {"name": "title", "type": "text", "stored": true}],
         "default_fields": ["title"], "id_field": "id"}
        """

    static let movies = [
        #"{"id": "m1", "title": "Heat", "year": 1995, "genres": ["Crime", "Drama"], "released": "1995-12-15T00:00:00Z", "rating": 8.3}"#,
        #"{"id": "m2", "title": "The Godfather", "year": 1972, "genres": ["Crime"], "rating": 9.2}"#,
        #"{"id": "m3", "title": "Heat Wave", "year": 2000, "genres": ["Comedy", "Romance"]}"#,
        #"{"id": "m4", "title": "Love Actually", "year": 2003, "genres": ["Comedy", "Romance"]}"#,
        #"{"id": "m5", "title": "The Dark Knight", "year": 2008, "genres": ["Action", "Drama"]}"#,
    ]

    static var moviesJSONL: String { movies.joined(separator: "\n") + "\n" }

    /// A folder holding `schema.json` and an index `index` built from `movies` with `idx index`.
    static func indexedFolder(extraArguments: [String] = []) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let schema = try folder.file("schema.json", schema)
        let corpus = try folder.file("movies.jsonl", moviesJSONL)
        let run = IdxRun(["index", folder.subpath("index"), corpus, "--schema", schema] + extraArguments)
        guard run.code == .success else { throw FixtureError(message: run.err) }
        return folder
    }

    struct FixtureError: Error {
        let message: String
    }
}
