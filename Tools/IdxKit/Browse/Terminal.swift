#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal `idx browse` draws on: raw mode (no echo, no line editing, Ctrl-C as a byte), the alternate screen
/// and a hidden cursor while it runs, all undone by `restore`, or by SIGINT or SIGTERM (which then end the process
/// as the signal would).
///
/// Only one can be open at a time, since the signal handlers restore the one terminal state saved in
/// `TerminalRestore`.
final class RawTerminal {
    private let input: Int32
    private let output: Int32
    private var isRestored = false

    /// Whether `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Enters raw mode on `input` and switches `output` to the alternate screen.
    /// - Throws: `CommandFailure` when either is not a terminal.
    init(input: Int32, output: Int32) throws(CommandFailure) {
        guard isatty(input) == 1, isatty(output) == 1 else {
            throw CommandFailure("needs a terminal: run it without redirecting its input or output")
        }
        self.input = input
        self.output = output
        var saved = termios()
        guard unsafe tcgetattr(input, &saved) == 0 else {
            throw CommandFailure("cannot read the terminal's settings (errno \(errno))")
        }
        TerminalRestore.save(saved, descriptor: input, output: output)
        var raw = saved
        unsafe cfmakeraw(&raw)
        guard unsafe tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            throw CommandFailure("cannot put the terminal in raw mode (errno \(errno))")
        }
        draw(TerminalRestore.enter)
    }

    deinit { restore() }

    /// Leaves the alternate screen, shows the cursor and puts back the settings found at `init`; once.
    func restore() {
        guard !isRestored else { return }
        isRestored = true
        TerminalRestore.restore()
        TerminalRestore.uninstallHandlers()
    }

    /// The size the terminal reports, or `TerminalSize.fallback` when it reports none.
    var size: TerminalSize {
        var size = winsize()
        guard unsafe ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else {
            return .fallback
        }
        return TerminalSize(rows: Int(size.ws_row), columns: Int(size.ws_col))
    }

    /// Writes `text` whole, retrying short writes and interruptions.
    func draw(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = unsafe bytes.withUnsafeBytes { buffer in
                unsafe write(output, buffer.baseAddress, buffer.count)
            }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    /// The bytes available within `milliseconds`: nil when none came in time (or a signal interrupted the wait),
    /// empty at end of input.
    func bytes(waitingAtMost milliseconds: Int32) -> [UInt8]? {
        var request = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        guard unsafe poll(&request, 1, milliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = unsafe buffer.withUnsafeMutableBytes { bytes in
            unsafe read(input, bytes.baseAddress, bytes.count)
        }
        if count < 0 { return errno == EINTR || errno == EAGAIN ? nil : [] }
        return Array(buffer.prefix(count))
    }
}

/// The terminal state the signal handlers put back. A signal handler can reach only global state, so it is kept
/// here, all of it written before the handlers are installed (so a handler never runs a lazy initializer).
private enum TerminalRestore {
    /// Alternate screen on, cursor hidden, screen cleared.
    static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"

    /// The settings to put back, in memory allocated for one `termios`: a global `termios` variable is emitted 57
    /// bytes long while a copy into it writes all 60 (AddressSanitizer reports the overflow).
    nonisolated(unsafe) private static let attributes: UnsafeMutablePointer<termios> = {
        let attributes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        unsafe attributes.initialize(to: termios())
        return unsafe attributes
    }()
    nonisolated(unsafe) private static var descriptor: Int32 = -1
    nonisolated(unsafe) private static var output: Int32 = -1
    /// Cursor shown, alternate screen off (which brings back the screen as it was).
    nonisolated(unsafe) private static var leave: [UInt8] = []

    /// Keeps the settings to restore and installs the SIGINT and SIGTERM handlers that restore them.
    static func save(_ saved: termios, descriptor input: Int32, output screen: Int32) {
        unsafe attributes.pointee = saved
        unsafe output = screen
        unsafe leave = Array("\u{1B}[?25h\u{1B}[?1049l".utf8)
        unsafe descriptor = input
        for signalNumber in [SIGINT, SIGTERM] {
            _ = signal(signalNumber) { received in
                TerminalRestore.restore()
                // Then end as the signal would have, so the parent sees the usual status.
                _ = signal(received, SIG_DFL)
                _ = raise(received)
            }
        }
    }

    /// Puts the terminal back, once; only async-signal-safe calls, so a signal handler can make it.
    static func restore() {
        guard unsafe descriptor >= 0 else { return }
        _ = unsafe leave.withUnsafeBufferPointer { bytes in unsafe write(output, bytes.baseAddress, bytes.count) }
        _ = unsafe tcsetattr(descriptor, TCSAFLUSH, attributes)
        unsafe descriptor = -1
    }

    /// Gives SIGINT and SIGTERM back their default action.
    static func uninstallHandlers() {
        _ = signal(SIGINT, SIG_DFL)
        _ = signal(SIGTERM, SIG_DFL)
    }
}
