import Foundation
import Loupe
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `idx browse` end to end, in a real terminal: the built `idx` runs in a tmux pane, keys go in with
/// `tmux send-keys` and the screen comes back with `tmux capture-pane`.
///
/// Skipped when tmux or the `idx` binary is missing, unless `LOUPE_REQUIRE_TMUX=1` (as CI sets), which turns a
/// missing tool into a failure.
@Suite(
    .enabled(
        if: (Tmux.executable != nil && Tmux.idx != nil) || Tmux.isRequired,
        "needs tmux and a built idx (set LOUPE_REQUIRE_TMUX=1 to fail instead of skipping)"))
struct BrowseTerminalTests {
    /// Runs `idx browse` in a pane, then reports how it ended and whether the terminal came back to cooked mode.
    private static func script(_ folder: TemporaryFolder, _ arguments: String) throws -> String {
        let idx = try #require(Tmux.idx, "no idx binary next to the tests or in .build/debug: run swift build")
        return try folder.file(
            "browse-\(UUID().uuidString).sh",
            """
            '\(idx)' browse '\(folder.subpath("index"))' \(arguments)
            echo "EXITED $?"
            case "$(stty -a)" in *-icanon*) echo "STILL RAW" ;; *) echo "COOKED" ;; esac
            sleep 600

            """)
    }

    @Test func searchesPerKeyAcceptsSuggestionsRecordsHistoryAndExitsOnEsc() throws {
        let folder = try Fixtures.indexedFolder()
        let tmux = try Tmux(command: "sh '\(try Self.script(folder, "--facet genres"))'")

        try tmux.waitFor { $0.showing("Type to search") }
        tmux.type("g")
        var screen = try tmux.waitFor { Self.results($0).first == "> g" && $0.showing("1 match (") }
        #expect(Self.results(screen).contains("The Godfather  m2"))
        tmux.type("odfathr")
        screen = try tmux.waitFor { Self.results($0).first == "> godfathr" }
        #expect(Self.results(screen).contains("The Godfather  m2"), "a typo still finds the document")

        tmux.press("C-u")
        try tmux.waitFor { Self.results($0).first == ">" && $0.showing("Type to search") }
        tmux.type("he")
        screen = try tmux.waitFor { Self.results($0).first == "> he" && $0.showing("2 matches (") }
        let results = Self.results(screen)
        #expect(results[1] == "    heat  2", "the suggestion under the input")
        #expect(results[3...4] == ["Heat  m1", "Heat Wave  m3"])
        let sidebar = screen.compactMap { line in line.split(separator: "│").dropFirst().first.map(Self.squeezed) }
        #expect(Array(sidebar.prefix(5)) == ["genres", "Comedy 1", "Crime 1", "Drama 1", "Romance 1"])

        tmux.press("Down")
        try tmux.waitFor { Self.results($0).contains("▸   heat  2") }
        tmux.press("Enter")
        screen = try tmux.waitFor { Self.results($0).first == "> heat" }
        #expect(Self.results(screen).contains("Heat  m1"))

        tmux.press("Enter")
        screen = try tmux.waitFor { $0.showing("Saved “heat” in the search history.") }
        #expect(Self.results(screen)[1] == "  ↺ heat  2", "the recorded search is a history suggestion")

        tmux.press("Escape")
        screen = try tmux.waitFor { $0.showing("COOKED") || $0.showing("STILL RAW") }
        #expect(Array(screen.prefix(2)) == ["EXITED 0", "COOKED"], "nothing printed; the screen and settings restored")
        #expect(tmux.display("#{alternate_on} #{cursor_flag}") == "0 1", "main screen, cursor shown")
        let history = try SearchHistory(beside: Index(path: folder.subpath("index")))
        #expect(history.recent().map(\.query) == ["heat"])
    }

    @Test func historyIsKeptAcrossRunsAndControlCExits() throws {
        let folder = try Fixtures.indexedFolder()
        try SearchHistory(beside: Index(path: folder.subpath("index"))).record("heat wave")
        let tmux = try Tmux(command: "sh '\(try Self.script(folder, ""))'")

        try tmux.waitFor { $0.showing("Type to search") }
        tmux.type("h")
        let screen = try tmux.waitFor { $0.showing("2 matches (") }
        #expect(screen[1...2] == ["  ↺ heat wave  1", "    heat  2"], "the history's searches first")

        tmux.press("C-c")
        let after = try tmux.waitFor { $0.showing("COOKED") || $0.showing("STILL RAW") }
        #expect(Array(after.prefix(2)) == ["EXITED 0", "COOKED"])
        #expect(tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let folder = try Fixtures.indexedFolder()
        let tmux = try Tmux(command: "sh '\(try Self.script(folder, ""))'")
        try tmux.waitFor { $0.showing("Type to search") }
        let shell = try #require(Int32(tmux.display("#{pane_pid}")))
        let browse = try #require(Tmux.child(of: shell), "no idx process under the pane's shell")
        kill(browse, SIGTERM)
        let after = try tmux.waitFor { $0.showing("COOKED") || $0.showing("STILL RAW") }
        #expect(after.showing("EXITED 143"), "ended by the signal")
        #expect(after.showing("COOKED"), "the terminal restored")
        #expect(tmux.display("#{alternate_on} #{cursor_flag}") == "0 1")
    }

    /// The results column of a screen: each line up to the sidebar, trailing spaces trimmed.
    private static func results(_ screen: [String]) -> [String] {
        screen.map { line in
            var text = String(line.prefix { $0 != "│" })
            while text.last == " " { text.removeLast() }
            return text
        }
    }

    /// Runs of spaces as one, ends trimmed: `" Comedy        1 "` is `"Comedy 1"`.
    private static func squeezed(_ text: Substring) -> String {
        text.split(separator: " ").joined(separator: " ")
    }
}

/// A tmux server of its own (a private socket, no configuration) running one command in a 120×40 pane; killed
/// with its pane when released.
final class Tmux {
    static let isRequired = ProcessInfo.processInfo.environment["LOUPE_REQUIRE_TMUX"] == "1"

    /// The tmux on `PATH`.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { $0 + "/tmux" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// The `idx` built with these tests: beside the test bundle, or in the package's `.build/debug`.
    static let idx = IdxExecutable.path

    private let tmux: String
    private let socket = "loupe-test-\(UUID().uuidString)"

    init(command: String) throws {
        tmux = try #require(Self.executable, "tmux is not installed")
        let status = spawn(["new-session", "-d", "-x", "120", "-y", "40", command])
        try #require(status == 0, "tmux new-session failed with status \(status)")
    }

    deinit { _ = run(["kill-server"]) }

    /// Types `text` as is.
    func type(_ text: String) { _ = run(["send-keys", "-l", text]) }

    /// Presses a key by its tmux name: `Enter`, `Escape`, `Down`, `C-c`.
    func press(_ key: String) { _ = run(["send-keys", key]) }

    /// The pane's lines, trailing spaces trimmed.
    func screen() -> [String] {
        run(["capture-pane", "-p"]).output.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var text = String(line)
            while text.last == " " { text.removeLast() }
            return text
        }
    }

    /// Polls the screen until `condition` holds, for at most 10 seconds (times `Sanitizers.slowdown`).
    /// - Throws: when it never does, with the last screen.
    @discardableResult
    func waitFor(
        _ condition: ([String]) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) throws
        -> [String]
    {
        let deadline = ContinuousClock.now + .seconds(10 * Sanitizers.slowdown)
        var last = screen()
        while !condition(last) {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out; the screen:\n\(last.joined(separator: "\n"))", sourceLocation: sourceLocation)
                throw TimedOut()
            }
            Thread.sleep(forTimeInterval: 0.05)
            last = screen()
        }
        return last
    }

    /// A tmux format expanded for the pane: `#{alternate_on}`, `#{pane_pid}`.
    func display(_ format: String) -> String {
        run(["display-message", "-p", format]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The first child process of `parent`, as `pgrep -P` finds it.
    static func child(of parent: Int32) -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pgrep", "-P", String(parent)]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").first.flatMap { Int32($0) }
    }

    private func run(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tmux)
        process.arguments = ["-L", socket, "-f", "/dev/null"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        guard (try? process.run()) != nil else { return (-1, "cannot run \(tmux)") }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// Runs tmux with `posix_spawn` and `waitpid`, for the command that starts the server: Foundation's `Process`
    /// waits until every holder of a descriptor it hands the child is gone, and the server, a daemon, holds it.
    private func spawn(_ arguments: [String]) -> Int32 {
        let argv = ([tmux, "-L", socket, "-f", "/dev/null"] + arguments).map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
        }
        // The test thread may block signals (the runtime's threads do); the server and its panes must not inherit
        // that, or kill-server's SIGHUP and the test's SIGTERM would not reach them.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        guard posix_spawn(&pid, tmux, nil, &attributes, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    private struct TimedOut: Error {}
}

extension [String] {
    /// Whether a line of the screen contains `text`.
    fileprivate func showing(_ text: String) -> Bool { contains { $0.contains(text) } }
}
