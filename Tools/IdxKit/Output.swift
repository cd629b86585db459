import Foundation

/// Where a command writes its text: the process's stdout or stderr, or a buffer in tests.
///
/// Commands never print directly, so tests can run them in-process and assert on everything they wrote.
package protocol Output: AnyObject {
    /// Writes `text` as is; callers add their own newlines.
    func write(_ text: String)
    /// Whether a person is watching: `\r`-updated progress lines are drawn only then, never into files or pipes.
    var isTerminal: Bool { get }
}

extension Output {
    /// Writes `text` and a newline.
    func line(_ text: String = "") {
        write(text + "\n")
    }
}

/// One of the process's standard streams, written unbuffered so progress and errors appear at once.
package final class StandardOutput: Output, Sendable {
    /// The process's stdout.
    package static let standardOutput = StandardOutput(FileHandle.standardOutput)
    /// The process's stderr.
    package static let standardError = StandardOutput(FileHandle.standardError)

    private let handle: FileHandle
    /// Checked once, at start: whether the stream is a terminal.
    package let isTerminal: Bool

    private init(_ handle: FileHandle) {
        self.handle = handle
        isTerminal = isatty(handle.fileDescriptor) != 0
    }

    /// Writes `text` at once, unbuffered.
    package func write(_ text: String) {
        // A closed pipe (`idx search … | head`) ends the process with SIGPIPE, as for any Unix tool; other
        // write failures leave nothing useful to report them to.
        try? handle.write(contentsOf: Data(text.utf8))
    }
}
