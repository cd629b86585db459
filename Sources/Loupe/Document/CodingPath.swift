/// Coding paths as the document encoder and decoder name them in errors: `Book.author.name`, `Book.tags[2]`.
///
/// A document is one level of fields, each holding scalars or one array of scalars, so a path is a field name,
/// sometimes followed by an array position (and, in an error about a nested value, what lies below it).
enum CodingPath {
    /// A position in an array, as an unkeyed container's elements are keyed.
    struct Position: CodingKey {
        let intValue: Int?
        var stringValue: String { "[\(intValue ?? 0)]" }

        init(_ position: Int) { intValue = position }
        init?(stringValue: String) { return nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    /// `model.field[1].key`: the model type, then each key (positions in brackets).
    static func describe(_ path: [any CodingKey], in model: String) -> String {
        path.reduce(into: model) { text, key in
            if key is Position { text += key.stringValue } else { text += "." + key.stringValue }
        }
    }

    /// The document field a path starts at, nil at the top level.
    static func field(_ path: [any CodingKey]) -> String? {
        path.first?.stringValue
    }
}
