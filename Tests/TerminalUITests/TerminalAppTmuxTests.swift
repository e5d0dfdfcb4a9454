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
    /// The command line that runs the harness (Tests/TUIHarness) with a fake radio.
    static func childCommand(log: String, locale: String) throws -> String {
        "exec env \(locale) MHZ_TUI_LOG='\(log)' '\(BuiltProduct.path("TUIHarness"))'"
    }

    /// A log path of its own for one harness run, in a folder removed when the test process
    /// exits: a harness hung up on after its test removed the log writes it again.
    static func temporaryLog() -> String {
        logFolder.appendingPathComponent("\(UInt32.random(in: 0...UInt32.max)).log").path
    }

    private static let logFolder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mhz-tui-logs-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mhz-tui-logs-\(getpid())")
            try? FileManager.default.removeItem(at: folder)
        }
        return folder
    }()

    static func logLines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test
    func stopFromAnotherThreadEndsTheLoopWithoutQuit() async throws {
        let log = Self.temporaryLog()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let command = try Self.childCommand(log: log, locale: "LANG=C.UTF-8 MHZ_TUI_STOP_ON_TOGGLE=1")
        let tmux = try TmuxDriver(command: command, columns: 60, rows: 12)
        #expect(try await tmux.waitForScreen(containing: "So What ♥"))
        try tmux.send("Space")
        #expect(try await tmux.wait { try tmux.paneIsDead() })
        // stop() waits for the loop to leave curses mode, so "returned" comes first.
        #expect(Self.logLines(log) == ["toggle", "returned", "stop returned"])
        // A dead pane keeps its last screen: no UI on it means curses mode was left.
        #expect(try !tmux.capture().contains { $0.contains("So What") })
    }

    @Test
    func crashLeavesCursesModeBeforeDying() async throws {
        let log = Self.temporaryLog()
        defer { try? FileManager.default.removeItem(atPath: log) }
        // No core file, no backtracer: the default action of SIGILL after our handler.
        let command = "ulimit -c 0; " + (try Self.childCommand(
            log: log, locale: "LANG=C.UTF-8 SWIFT_BACKTRACE=enable=no MHZ_TUI_CRASH_ON_SKIP=1"))
        let tmux = try TmuxDriver(command: command, columns: 60, rows: 12)
        #expect(try await tmux.waitForScreen(containing: "So What ♥"))
        try tmux.send("n")
        #expect(try await tmux.wait { try tmux.paneIsDead() })
        #expect(Self.logLines(log) == ["skip"])
        // Killed by the trap, yet the alternate screen was left: tmux keeps a dead pane's
        // screen as it was, so a UI still on it would mean curses mode was never left.
        let screen = try tmux.capture()
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
        let log = Self.temporaryLog()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let tmux = try TmuxDriver(command: try Self.childCommand(log: log, locale: "LANG=C.UTF-8"),
                                  columns: 80, rows: 24)
        #expect(try await tmux.waitForScreen(containing: "So What ♥"))
        var screen = try tmux.capture()
        #expect(screen[0].hasPrefix(" Jazz FM ") && screen[0].hasSuffix(" playing"))
        #expect(DisplayWidth.width(of: screen[0]) == 79, "80 columns less the trailing space tmux trims")
        #expect(screen[23] == "  space toggle  n skip  l like  b trash  c channels  ? help  q quit")

        try tmux.send("l")
        #expect(try await tmux.waitForScreen(containing: "So What ♡"))
        try tmux.send("n")
        #expect(try await tmux.waitForScreen(containing: "晴天 ♡"))
        // ncurses and DisplayWidth agree on CJK: the times end where the bar says. (The
        // screen may still be mid-redraw when the title first shows, so wait for the row.)
        #expect(try await tmux.wait { try tmux.row(6).hasSuffix(" / 4:29") })
        screen = try tmux.capture()
        #expect(screen[3] == "  周杰伦")
        #expect(DisplayWidth.width(of: screen[6]) == 78, "\(screen[6])")

        try tmux.send("c")
        #expect(try await tmux.waitForScreen(containing: "Channels"))
        // The list opens on the current channel (Jazz FM, 7); the next one is 红心兆赫 (-3).
        #expect(try tmux.capture().contains("  > Jazz FM ♪                                                                7"))
        try tmux.send("Down", "Enter")
        #expect(try await tmux.waitForScreen(containing: " 红心兆赫 "))
        try tmux.send("?")
        #expect(try await tmux.waitForScreen(containing: "mhz keys"))
        try tmux.send("x")
        #expect(try await tmux.waitForScreen(containing: "晴天 ♡"))

        try tmux.resize(columns: 50, rows: 12)
        #expect(try await tmux.wait { try tmux.capture().first.map { DisplayWidth.width(of: $0) == 49 } ?? false })
        #expect(try tmux.row(0) == DisplayWidth.spread(" 红心兆赫", "playing", to: 49))

        try tmux.send("q")
        #expect(try await tmux.wait { try tmux.paneIsDead() })
        #expect(Self.logLines(log) == ["unlike", "skip", "channel(\"-3\")", "quit", "returned"])
        // A dead pane keeps its last screen: no UI on it means curses mode was left.
        #expect(try !tmux.capture().contains { $0.contains("晴天") || $0.contains("红心兆赫") })
    }

    @Test
    func theDownloadsViewsFooterNamesWhatItsKeysDoInWords() async throws {
        let log = Self.temporaryLog()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let tmux = try TmuxDriver(command: try Self.childCommand(log: log, locale: "LANG=C.UTF-8"),
                                  columns: 60, rows: 10)
        #expect(try await tmux.waitForScreen(containing: "So What ♥"))
        try tmux.send("D")
        #expect(try await tmux.waitForScreen(containing: "No downloads yet"))
        let screen = try tmux.capture()
        #expect(screen[0] == DisplayWidth.spread(" Downloads", "0", to: 59), "\(screen)")
        #expect(screen[1] == "  No downloads yet: press d while a song plays.")
        #expect(screen[9] == "  p pause  x cancel  r retry  esc close", "\(screen)")
        try tmux.send("Escape")
        #expect(try await tmux.waitForScreen(containing: "So What ♥"))
        #expect(try tmux.row(9) == "  space toggle  n skip  l like  c channels  ? help  q quit")
        try tmux.send("q")
        #expect(try await tmux.wait { try tmux.paneIsDead() })
    }

    @Test
    func sigtermQuitsAndRestoresUnderCLocale() async throws {
        let log = Self.temporaryLog()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let tmux = try TmuxDriver(command: try Self.childCommand(log: log, locale: "LC_ALL=C"),
                                  columns: 40, rows: 10)
        #expect(try await tmux.waitForScreen(containing: "So What ♥"))
        try tmux.send("n")
        // Under LC_ALL=C the screen still switches LC_CTYPE to UTF-8 to show CJK.
        #expect(try await tmux.waitForScreen(containing: "晴天 ♡"))
        kill(try tmux.panePID(), SIGTERM)
        #expect(try await tmux.wait { try tmux.paneIsDead() })
        #expect(Self.logLines(log) == ["skip", "quit", "returned"])
        #expect(try !tmux.capture().contains { $0.contains("晴天") })
    }
}
