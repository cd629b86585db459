import Foundation

extension BenchReport {
    /// What the update-heavy phase measured, and the queries run again on the updated index.
    struct UpdateResult {
        var upserts: Int
        var batch: Int
        /// Upserts whose document the schema rejected (the delete still happened).
        var failed = 0
        var seconds = 0.0
        var commits = 0
        var segments = 0
        /// Live documents after the phase.
        var docs = 0
        /// Deleted documents still held by the segments after the phase.
        var deleted = 0
        /// The index folder after the phase, once the files only this run's searcher still held are removed.
        var sizeBytes = 0
        /// What that garbage collection removed.
        var garbageBytes = 0
        var queries: [QueryResult] = []

        var upsertsPerSecond: Double { Double(upserts) / seconds }

        /// The engine record's "updates" entry, in the shape compare.py reads for every engine.
        var json: [String: Any] {
            [
                "upserts": upserts, "batch": batch, "failed": failed, "seconds": seconds,
                "upserts_per_s": upsertsPerSecond, "commits": commits, "segments": segments, "docs": docs,
                "deleted": deleted, "size_bytes": sizeBytes, "garbage_bytes": garbageBytes,
                "queries": BenchReport.json(of: queries), "classes": BenchReport.classes(of: queries),
                "timed": "writer creation → last commit (merges run inside commit)",
            ]
        }

        func printSummary() {
            print(
                "updates: \(upserts) upserts in batches of \(batch) (\(failed) failed) in "
                    + String(format: "%.2f s: %.0f upserts/s", seconds, upsertsPerSecond)
                    + "; \(commits) commits, \(segments) segments, \(docs) live docs (\(deleted) deleted), "
                    + "\(sizeBytes) bytes (after removing \(garbageBytes) bytes of replaced segments)")
            print("after the updates:")
            BenchReport.printClasses(of: queries)
        }
    }
}
