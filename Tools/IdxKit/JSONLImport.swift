import Loupe
import LoupeCodec

/// Adds the lines of a JSONL input to an index writer: the loop shared by `idx index` and `idx quickstart`.
///
/// Each non-blank line is one JSON object handed to the engine as bytes, without building a `String`, in batches
/// the writer parses on all of its indexing threads (`IndexWriter.addJSON(lines:stoppingAtFirstError:)`). A line the
/// engine rejects (one that does not fit the schema, or passes a limit of Docs/FORMAT.md "Limits") either stops
/// the import, rolling back what was added since the last commit, or, with `skipBad`, is reported on stderr and
/// skipped; a full index stops it even with `skipBad`.
struct JSONLImport {
    /// Commit after every this many documents; nil commits once, at the end.
    var commitEvery: Int? = nil
    /// Report and skip rejected lines instead of stopping at the first.
    var skipBad = false

    /// What an import did.
    struct Summary {
        var documents = 0
        var skippedLines = 0
        /// Uncompressed input bytes read, blank lines and line ends included.
        var bytes = 0
        var duration = Duration.zero
    }

    /// Reads `input` to its end, adds every line to `writer`, and commits.
    /// - Parameter source: names the input in error messages.
    /// - Throws: `CommandFailure` for a rejected line (unless `skipBad`), an unreadable input, or an index error;
    ///   documents added since the last commit are then rolled back.
    func run(
        _ input: LineReader, source: String, into writer: IndexWriter, console: Console
    )
        throws(CommandFailure) -> Summary
    {
        let clock = ContinuousClock()
        let start = clock.now
        var progress = ProgressLine(output: console.err, start: start)
        var summary = Summary()
        defer { progress.clear() }
        var batch = Batch()
        do throws(CommandFailure) {
            while let line = try unsafe nextLine(input, source: source) {
                if unsafe Self.isBlank(line) { continue }
                unsafe batch.lines.append(line)
                batch.lineNumbers.append(input.lineNumber)
                if batch.lines.count >= batchSize(writer, documents: summary.documents) {
                    try add(&batch, to: writer, summary: &summary, progress: &progress, console: console)
                    progress.update(documents: summary.documents, bytes: input.bytesRead, now: clock.now)
                }
            }
            try add(&batch, to: writer, summary: &summary, progress: &progress, console: console)
            try commit(writer)
            // The command ends with the writer: publish the merges the commits started rather than abandon them.
            writer.waitForMerges()
        } catch {
            // Nothing since the last commit may reach the index; if this fails, the next writer deletes the
            // orphaned segment files when it opens.
            try? writer.rollback()
            throw error
        }
        summary.bytes = input.bytesRead
        summary.duration = clock.now - start
        return summary
    }

    private func nextLine(_ input: LineReader, source: String) throws(CommandFailure) -> UnsafeRawBufferPointer? {
        do {
            return try unsafe input.nextLine()
        } catch {
            throw CommandFailure("\(Self.reason(error)) (at line \(input.lineNumber + 1) of \(source))")
        }
    }

    /// Opens a JSONL file, plain or gzip; `-` is `console.input`.
    /// - Throws: `CommandFailure` when the file cannot be opened.
    static func open(_ path: String, console: Console) throws(CommandFailure) -> LineReader {
        guard path != "-" else { return LineReader(fileDescriptor: console.input) }
        do {
            return try LineReader(path: path)
        } catch {
            throw CommandFailure(reason(error))
        }
    }

    /// The reader's own words for an input problem: what failed, with the path, without codec jargon.
    private static func reason(_ error: FormatError) -> String {
        switch error {
        case .malformed(_, let reason), .decompression(_, let reason): reason
        default: error.description
        }
    }

    private func commit(_ writer: IndexWriter) throws(CommandFailure) {
        do {
            try writer.commit()
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Lines read and not yet added, with their line numbers for the reports.
    private struct Batch {
        var lines = JSONLines()
        var lineNumbers: [Int] = []
    }

    /// Lines to gather before adding them: a batch for each indexing thread, so that the writer parses them on
    /// all of its threads at once, and never past the next `commitEvery` boundary (every line may be a document).
    private func batchSize(_ writer: IndexWriter, documents: Int) -> Int {
        let size = Self.linesPerThread * writer.threads
        guard let commitEvery else { return size }
        return min(size, commitEvery - documents % commitEvery)
    }

    /// Lines a batch holds for each indexing thread.
    private static let linesPerThread = 128

    /// Adds the batch's lines, reports or stops at the rejected ones, commits at each `commitEvery` boundary, and
    /// empties the batch.
    private func add(
        _ batch: inout Batch, to writer: IndexWriter, summary: inout Summary, progress: inout ProgressLine,
        console: Console
    ) throws(CommandFailure) {
        guard batch.lines.count > 0 else { return }
        defer {
            batch.lines.removeAll()
            batch.lineNumbers.removeAll(keepingCapacity: true)
        }
        for (result, lineNumber) in zip(
            writer.addJSON(lines: batch.lines, stoppingAtFirstError: !skipBad), batch.lineNumbers)
        {
            switch result {
            case .success:
                summary.documents += 1
                if let commitEvery, summary.documents % commitEvery == 0 { try commit(writer) }
            case .failure(let error) where error.code == .invalidDocument || error.code == .limitExceeded:
                let report = "line \(lineNumber): \(CommandFailure(error).message)"
                // A full index refuses every later line too: skipping would only repeat the error.
                let indexFull = error.limit == .documentsPerIndex
                guard skipBad, !indexFull else {
                    let lost = writer.uncommittedDocuments
                    throw CommandFailure(
                        report + "\nstopped without committing the \(lost) document\(lost == 1 ? "" : "s") added "
                            + "since the last commit" + (indexFull ? "" : "; pass --skip-bad to skip bad lines"))
                }
                progress.clear()
                console.err.line(report)
                summary.skippedLines += 1
            case .failure(let error):
                throw CommandFailure(error)
            }
        }
    }

    /// Whether a line holds only spaces and tabs (blank lines are allowed between documents).
    private static func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        unsafe line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }
}
