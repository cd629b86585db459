import Loupe

extension Directory {
    /// A copy of the whole file `name` (the mapping or buffer is kept alive while it is copied).
    package func contents(_ name: String) throws -> [UInt8] {
        let slice = try open(name)
        return withExtendedLifetime(slice) { Array(slice.bytes) }
    }
}

/// The bytes `body` writes to the file it is handed (a directory and a file name) and finishes, read back from a
/// fresh RAM directory: how serializer tests get a file's bytes now that serializers stream into a `FileWriter`.
package func writtenFile(_ body: (any Directory, String) throws -> Void) throws -> [UInt8] {
    let directory = RAMDirectory()
    try body(directory, "file")
    return try directory.contents("file")
}

/// The bytes of several files written by `body` into a fresh RAM directory, in the order of `names`.
package func writtenFiles(_ names: [String], _ body: (any Directory) throws -> Void) throws -> [[UInt8]] {
    let directory = RAMDirectory()
    try body(directory)
    return try names.map { try directory.contents($0) }
}
