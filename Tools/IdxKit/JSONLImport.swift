import Loupe
import LoupeCodec

/// Adds the lines of a JSONL input to an index writer: the loop shared by `idx index` and `idx quickstart`.
///
/// Each non-blank line is one JSON object handed to the engine as bytes, without building a `String`. A line the
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
        do throws(CommandFailure) {
            while let line = try unsafe nextLine(input, source: source) {
                if unsafe Self.isBlank(line) { continue }
                let added = try unsafe add(
                    line, lineNumber: input.lineNumber, to: writer, progress: &progress, console: console)
                if added {
                    summary.documents += 1
                    if let commitEvery, summary.documents % commitEvery == 0 { try commit(writer) }
                } else {
                    summary.skippedLines += 1
                }
                progress.update(documents: summary.documents, bytes: input.bytesRead, now: clock.now)
            }
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

    /// Adds one line; returns false when the line was rejected and skipped.
    private func add(
        _ line: UnsafeRawBufferPointer, lineNumber: Int, to writer: IndexWriter, progress: inout ProgressLine,
        console: Console
    ) throws(CommandFailure) -> Bool {
        do {
            try unsafe writer.addJSON(bytes: line)
            return true
        } catch  where error.code == .invalidDocument || error.code == .limitExceeded {
            let report = "line \(lineNumber): \(CommandFailure(error).message)"
            // A full index refuses every later line too: skipping would only repeat the error.
            let indexFull = error.limit == .documentsPerIndex
            guard skipBad, !indexFull else {
                let lost = writer.uncommittedDocuments
                throw CommandFailure(
                    report + "\nstopped without committing the \(lost) document\(lost == 1 ? "" : "s") added since "
                        + "the last commit" + (indexFull ? "" : "; pass --skip-bad to skip bad lines"))
            }
            progress.clear()
            console.err.line(report)
            return false
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Whether a line holds only spaces and tabs (blank lines are allowed between documents).
    private static func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        unsafe line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }
}
