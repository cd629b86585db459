import Loupe

extension FuzzTarget {
    /// The input as one JSON document of `FuzzIndex.schema` (`Schema.prepareJSON`), and as JSONL, one document a
    /// line (blank lines skipped, as `idx index` does). When a document is accepted, it is indexed in a new
    /// in-memory index through both `IndexWriter.addJSON(bytes:)` and `addJSON(lines:stoppingAtFirstError:)`,
    /// committed, searched, fetched and aggregated.
    static func jsonDocument(_ input: [UInt8]) -> FuzzOutcome {
        let schema = FuzzIndex.schema
        let prepared = prepare(input[...])
        var lines = JSONLines()
        var preparedLines: [Bool] = []
        for line in input.split(separator: UInt8(ascii: "\n")) where line.contains(where: { $0 > 0x20 }) {
            unsafe line.withUnsafeBytes { bytes in unsafe lines.append(bytes) }
            preparedLines.append((try? prepare(line).get()) != nil)
        }
        if case .failure(let error) = prepared, !preparedLines.contains(true) {
            return FuzzSteps.refused(error)
        }
        var mismatch: String? = nil
        var steps = FuzzSteps()
        steps.run { () throws(IndexError) in
            let index = try Index.inMemory(schema: schema)
            let writer = try index.writer()
            if case .success = prepared {
                _ = try unsafe input.withUnsafeBytes { bytes in
                    Result { () throws(IndexError) in unsafe try writer.addJSON(bytes: bytes) }
                }.get()
            }
            let added = writer.addJSON(lines: lines, stoppingAtFirstError: false)
            mismatch = Self.mismatch(added, preparedLines)
            try writer.commitAndReload()
            for hit in try index.search(.matchAll, limit: 10).hits { _ = hit.document.entries }
            _ = try index.search("alpha", limit: 10)
            _ = try index.aggregate(#"{"y": {"stats": {"field": "year"}}, "g": {"terms": {"field": "genre"}}}"#)
        }
        return mismatch.map { .failed($0) } ?? steps.outcome
    }

    /// `Schema.prepareJSON` on `bytes`, for `FuzzIndex.schema`.
    private static func prepare(_ bytes: ArraySlice<UInt8>) -> Result<PreparedDocument, IndexError> {
        unsafe bytes.withUnsafeBytes { buffer in
            Result { () throws(IndexError) in unsafe try FuzzIndex.schema.prepareJSON(buffer) }
        }
    }

    /// Where the writer's answer to a line differs from `prepareJSON`'s (a line it prepared may still pass a
    /// limit), nil when none does.
    private static func mismatch(_ added: [Result<UInt64, IndexError>], _ prepared: [Bool]) -> String? {
        guard added.count == prepared.count else { return "\(prepared.count) lines, \(added.count) results" }
        for (line, (result, wasPrepared)) in zip(added, prepared).enumerated() {
            switch result {
            case .success where !wasPrepared: return "line \(line) was refused by prepareJSON, added by the writer"
            case .failure(let error) where wasPrepared && error.code != .limitExceeded:
                return "line \(line) was prepared, refused by the writer: \(error)"
            default: continue
            }
        }
        return nil
    }

    static let jsonDocumentSeeds = [
        #"{"id": "x1", "title": "alpha beta", "body": "running gamma", "tag": "Red", "notes": "eta", "genre": ["alpha", "zeta"], "year": 1999, "delta": -5, "rating": 2.5, "released": "2001-02-03T04:05:06Z", "classic": true}"#,
        #"{"id": "x2", "title": ["one", "two"], "year": 18446744073709551615, "delta": -9223372036854775808, "rating": 1e308}"#,
        #"{"id": "x3", "released": "1969-12-31T23:59:59.999999+01:00", "classic": false, "genre": [], "tag": null}"#,
        #"{"title": "\u00e9\ud83d\ude00 \"quoted\" \\ \n", "rating": -0.0, "year": 0}"#,
        "{\"id\": \"a\", \"year\": 1}\n{\"id\": \"b\", \"year\": 2}\n\n{\"id\": \"c\", \"title\": \"alpha\"}",
        #"{"unknown": 1}"#, #"{"year": "1999"}"#, #"[1, 2]"#, #"{"id": "x", "id": "y"}"#,
    ]
}
