/// The `\r`-redrawn status line of a long import on stderr: documents, documents per second, megabytes per second.
///
/// Drawn only when the stream is a terminal (in a log file it would be noise) and at most twice a second, so
/// redrawing costs nothing next to indexing.
package struct ProgressLine {
    /// Redraws are at least this far apart.
    package static let interval = Duration.milliseconds(500)

    private let output: any Output
    private let start: ContinuousClock.Instant
    private var lastDrawn: ContinuousClock.Instant
    /// Characters of the line on screen, to blank them out when the line is cleared.
    private var drawnWidth = 0

    /// - Parameter start: when the work began, for the rates.
    package init(output: any Output, start: ContinuousClock.Instant) {
        self.output = output
        self.start = start
        lastDrawn = start
    }

    /// Redraws the line if it is due.
    package mutating func update(documents: Int, bytes: Int, now: ContinuousClock.Instant) {
        guard output.isTerminal, now - lastDrawn >= Self.interval else { return }
        lastDrawn = now
        let text = Self.text(documents: documents, bytes: bytes, elapsed: now - start)
        output.write("\r" + text + String(repeating: " ", count: max(0, drawnWidth - text.count)))
        drawnWidth = text.count
    }

    /// Blanks the line out, so what is written next starts on a clean line.
    package mutating func clear() {
        guard drawnWidth > 0 else { return }
        output.write("\r" + String(repeating: " ", count: drawnWidth) + "\r")
        drawnWidth = 0
    }

    /// `12000 docs  5210 docs/s  4.1 MB/s`.
    package static func text(documents: Int, bytes: Int, elapsed: Duration) -> String {
        "\(documents) docs  \(Format.rate(documents, per: elapsed)) docs/s  \(Format.megabytesPerSecond(bytes, elapsed))"
    }
}
