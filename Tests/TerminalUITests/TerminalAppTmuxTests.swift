import Foundation
import Radio
import Synchronization
import TestSupport
import Testing
@testable import TerminalUI

/// The real ncurses loop end to end: the TUIHarness program runs inside tmux with a fake
/// radio that answers commands the way the real one would and logs them to a file; the
/// tests press keys with `tmux send-keys` and read the screen with `capture-pane`.
@Suite(.serialized)
struct TerminalAppTmuxTests {
    /// The harness (Tests/TUIHarness) with a fake radio in a terminal of its own, in
    /// `home`, logging to `home/log`, with `environment` (its locale, the harness's switches)
    /// beside it; `program` runs in its place when given (a shell that then becomes it).
    static func harness(in home: TemporaryDirectory, environment: [String: String] = [:], columns: Int, rows: Int,
                        program: [String] = []) throws -> TerminalMhz {
        let harness = BuiltProduct.path("TUIHarness")
        let command = program.isEmpty ? [harness] : program + [harness]
        return try TerminalMhz(Array(command.dropFirst()), home: home.url,
                               environment: environment.merging(["MHZ_TUI_LOG": home.path("log").path]) { $1 },
                               columns: columns, rows: rows, program: command[0])
    }

    /// The lines the fake radio logged in `home`.
    static func logLines(in home: TemporaryDirectory) -> [String] {
        ((try? String(contentsOf: home.path("log"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The process the window's shell started (the harness): the shell's one child.
    static func harnessPID(_ terminal: TerminalMhz) throws -> pid_t {
        let shell = try terminal.tmux.panePID()
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        let pids = children.split(separator: " ").compactMap { pid_t($0) }
        return try #require(pids.count == 1 ? pids.first : nil, "one child of \(shell), not \(pids)")
    }

    @Test
    func stopFromAnotherThreadEndsTheLoopWithoutQuit() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-tui-stop")
        let terminal = try Self.harness(in: home, environment: ["MHZ_TUI_STOP_ON_TOGGLE": "1"], columns: 60, rows: 12)
        try await terminal.waitForScreen(containing: "So What ♥")
        try terminal.send("Space")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.screen)")
        // stop() waits for the loop to leave curses mode, so "returned" comes first.
        #expect(Self.logLines(in: home) == ["toggle", "returned", "stop returned"])
        // The window keeps the last screen: no UI on it means curses mode was left.
        #expect(try !terminal.capture().contains { $0.contains("So What") })
    }

    @Test
    func crashLeavesCursesModeBeforeDying() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-tui-crash")
        // No core file, no backtracer: the default action of SIGILL after our handler.
        let terminal = try Self.harness(in: home, environment: ["SWIFT_BACKTRACE": "enable=no", "MHZ_TUI_CRASH_ON_SKIP": "1"],
                                        columns: 60, rows: 12, program: ["/bin/sh", "-c", #"ulimit -c 0; exec "$0""#])
        try await terminal.waitForScreen(containing: "So What ♥")
        try terminal.send("n")
        #expect(try await terminal.exitStatus() == 128 + SIGILL, "\(terminal.screen)")
        #expect(Self.logLines(in: home) == ["skip"])
        // Killed by the trap, yet the alternate screen was left: the window keeps the
        // screen as it was, so a UI still on it would mean curses mode was never left.
        let screen = try terminal.capture()
        #expect(!screen.contains { $0.contains("So What") }, "\(screen)")
    }

    @Test
    func stopBeforeRunMeansRunNeverStarts() {
        let sent = Mutex<[RadioCommand]>([])
        let app = TerminalApp(keymap: .standard) { command in sent.withLock { $0.append(command) } }
        app.stop()
        app.run()  // must return at once, without touching the terminal or sending anything
        #expect(sent.withLock { $0 } == [])
    }

    @Test
    func keysDriveTheRadioAndTheScreenFollows() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-tui-keys")
        let terminal = try Self.harness(in: home, columns: 80, rows: 24)
        let tmux = terminal.tmux
        try await terminal.waitForScreen(containing: "So What ♥")
        var screen = try terminal.capture()
        #expect(screen[0].hasPrefix(" Jazz FM ") && screen[0].hasSuffix(" playing"))
        #expect(DisplayWidth.width(of: screen[0]) == 79, "80 columns less the trailing space tmux trims")
        #expect(screen[23] == "  space toggle  n skip  l like  b trash  c channels  ? help  q quit")

        try terminal.send("l")
        try await terminal.waitForScreen(containing: "So What ♡")
        try terminal.send("n")
        try await terminal.waitForScreen(containing: "晴天 ♡")
        // ncurses and DisplayWidth agree on CJK: the times end where the bar says. (The
        // screen may still be mid-redraw when the title first shows, so wait for the row.)
        try await waitUntil("the times on row 6; screen:\n\(terminal.screen)") { try tmux.row(6).hasSuffix(" / 4:29") }
        screen = try terminal.capture()
        #expect(screen[3] == "  周杰伦")
        #expect(DisplayWidth.width(of: screen[6]) == 78, "\(screen[6])")

        try terminal.send("c")
        try await terminal.waitForScreen(containing: "Channels")
        // The list opens on the current channel (Jazz FM, 7); the next one is 红心兆赫 (-3).
        #expect(try terminal.capture().contains("  > Jazz FM ♪                                                                7"))
        try terminal.send("Down", "Enter")
        try await terminal.waitForScreen(containing: " 红心兆赫 ")
        try terminal.send("?")
        try await terminal.waitForScreen(containing: "mhz keys")
        try terminal.send("x")
        try await terminal.waitForScreen(containing: "晴天 ♡")

        try tmux.resize(columns: 50, rows: 12)
        try await waitUntil("the header at 49 columns; screen:\n\(terminal.screen)") {
            try terminal.capture().first.map { DisplayWidth.width(of: $0) == 49 } ?? false
        }
        #expect(try tmux.row(0) == DisplayWidth.spread(" 红心兆赫", "playing", to: 49))

        try terminal.send("q")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.screen)")
        #expect(Self.logLines(in: home) == ["unlike", "skip", "channel(\"-3\")", "quit", "returned"])
        // The window keeps the last screen: no UI on it means curses mode was left.
        #expect(try !terminal.capture().contains { $0.contains("晴天") || $0.contains("红心兆赫") })
    }

    @Test
    func theDownloadsViewsFooterNamesWhatItsKeysDoInWords() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-tui-downloads")
        let terminal = try Self.harness(in: home, columns: 60, rows: 10)
        let tmux = terminal.tmux
        try await terminal.waitForScreen(containing: "So What ♥")
        try terminal.send("D")
        try await terminal.waitForScreen(containing: "No downloads yet")
        let screen = try terminal.capture()
        #expect(screen[0] == DisplayWidth.spread(" Downloads", "0", to: 59), "\(screen)")
        #expect(screen[1] == "  No downloads yet: press d while a song plays.")
        #expect(screen[9] == "  p pause  x cancel  r retry  esc close", "\(screen)")
        try terminal.send("Escape")
        try await terminal.waitForScreen(containing: "So What ♥")
        #expect(try tmux.row(9) == "  space toggle  n skip  l like  c channels  ? help  q quit")
        try terminal.send("q")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.screen)")
    }

    @Test
    func sigtermQuitsAndRestoresUnderCLocale() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-tui-sigterm")
        let terminal = try Self.harness(in: home, environment: ["LC_ALL": "C"], columns: 40, rows: 10)
        try await terminal.waitForScreen(containing: "So What ♥")
        try terminal.send("n")
        // Under LC_ALL=C the screen still switches LC_CTYPE to UTF-8 to show CJK.
        try await terminal.waitForScreen(containing: "晴天 ♡")
        kill(try Self.harnessPID(terminal), SIGTERM)
        #expect(try await terminal.exitStatus() == 0, "\(terminal.screen)")
        #expect(Self.logLines(in: home) == ["skip", "quit", "returned"])
        #expect(try !terminal.capture().contains { $0.contains("晴天") })
    }
}
