import Dispatch

/// JSON lines gathered for `IndexWriter.addJSON(lines:stoppingAtFirstError:)`, copied out of the reader's buffer
/// into one array so that they outlive it and can be parsed on several threads at once.
package struct JSONLines: Sendable {
    private var bytes: [UInt8] = []
    /// Where each line ends in `bytes`; line `i` starts where line `i - 1` ends.
    private var ends: [Int] = []

    package init() {}

    /// The number of lines gathered.
    package var count: Int { ends.count }

    /// Appends a copy of `line`, one JSON object.
    package mutating func append(_ line: UnsafeRawBufferPointer) {
        unsafe bytes.append(contentsOf: line)
        ends.append(bytes.count)
    }

    /// Drops every line, keeping the storage for the next batch.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// Parses and checks lines `range` against `schema`, in order.
    func prepare(_ range: Range<Int>, schema: Schema) -> [Result<PreparedDocument, IndexError>] {
        var documents: [Result<PreparedDocument, IndexError>] = []
        documents.reserveCapacity(range.count)
        unsafe bytes.withUnsafeBytes { all in
            for i in range {
                let start = i == 0 ? 0 : ends[i - 1]
                let line = unsafe UnsafeRawBufferPointer(rebasing: all[start..<ends[i]])
                documents.append(Result { () throws(IndexError) in unsafe try schema.prepareJSON(line) })
            }
        }
        return documents
    }

    /// Parses and checks every line against `schema`, in `parts` equal runs of lines on as many threads: the runs,
    /// in line order. One part parses on the caller's thread, without a dispatch.
    func prepare(schema: Schema, parts: Int) -> [[Result<PreparedDocument, IndexError>]] {
        let parts = min(parts, count)
        guard parts > 1 else { return [prepare(0..<count, schema: schema)] }
        let runs = Locked([[Result<PreparedDocument, IndexError>]](repeating: [], count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let documents = prepare(count * part / parts..<count * (part + 1) / parts, schema: schema)
            runs.withLock { $0[part] = documents }
        }
        return runs.withLock { $0 }
    }
}
