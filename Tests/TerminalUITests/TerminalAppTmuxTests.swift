import Foundation
import Radio
import Synchronization
import Testing
@testable import TerminalUI

/// The real ncurses loop end to end: this test binary re-runs itself inside tmux (the
/// `child` test below, enabled only there), with a fake radio that answers commands the
/// way the real one would and logs them to a file. The parent presses keys with
/// `tmux send-keys` and reads the screen with `capture-pane`.
@Suite(.serialized, .enabled(if: TmuxDriver.executable != nil, "needs tmux"))
struct TerminalAppTmuxTests {
    /// Set in the child's environment: the file the fake radio logs commands to.
    static let childLog = ProcessInfo.processInfo.environment["MHZ_TUI_CHILD_LOG"]

    /// The command line that runs `child()` in this binary.
    static func childCommand(log: String, locale: String) throws -> String {
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return "exec env \(locale) MHZ_TUI_CHILD_LOG='\(log)' '\(binary)' --testing-library swift-testing "
            + "--filter 'TerminalAppTmuxTests/child'"
    }

    static func temporaryLog() -> String {
        NSTemporaryDirectory() + "mhz-tui-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
    }

    static func logLines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test(.enabled(if: childLog != nil, "runs only inside tmux, started by the other tests"))
    func child() throws {
        let radio = FakeRadio(log: try #require(Self.childLog))
        let app = TerminalApp(keymap: .standard) { radio.handle($0) }
        radio.attach(app)
        let stopOnToggle = ProcessInfo.processInfo.environment["MHZ_TUI_STOP_ON_TOGGLE"] != nil
        if stopOnToggle {
            radio.onToggle = {
                // As the composition root would from its own signal handling: another thread.
                Thread.detachNewThread {
                    app.stop()
                    radio.record("stop returned")
                }
            }
        }
        app.run()
        radio.record("returned")
        // Give the stopping thread time to log before the process ends with this test.
        for _ in 0..<200 where stopOnToggle && !radio.hasRecorded("stop returned") {
            usleep(10_000)
        }
    }

    @Test(.enabled(if: childLog == nil))
    func stopFromAnotherThreadEndsTheLoopWithoutQuit() throws {
        let log = Self.temporaryLog()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let command = try Self.childCommand(log: log, locale: "LANG=C.UTF-8 MHZ_TUI_STOP_ON_TOGGLE=1")
        let tmux = try TmuxDriver(command: command, columns: 60, rows: 12)
        #expect(try tmux.waitForScreen(containing: "So What ♥"))
        try tmux.send("Space")
        #expect(try tmux.wait { try tmux.paneIsDead() })
        // stop() waits for the loop to leave curses mode, so "returned" comes first.
        #expect(Self.logLines(log) == ["toggle", "returned", "stop returned"])
        #expect(try tmux.capture().contains { $0.contains("Test run with 1 test") })
    }

    @Test(.enabled(if: childLog == nil))
    func crashLeavesCursesModeBeforeDying() throws {
        let log = Self.temporaryLog()
        defer { try? FileManager.default.removeItem(atPath: log) }
        // No core file, no backtracer: the default action of SIGILL after our handler.
        let command = "ulimit -c 0; " + (try Self.childCommand(
            log: log, locale: "LANG=C.UTF-8 SWIFT_BACKTRACE=enable=no MHZ_TUI_CRASH_ON_SKIP=1"))
        let tmux = try TmuxDriver(command: command, columns: 60, rows: 12)
        #expect(try tmux.waitForScreen(containing: "So What ♥"))
        try tmux.send("n")
        #expect(try tmux.wait { try tmux.paneIsDead() })
        #expect(Self.logLines(log) == ["skip"])
        // Killed by the trap, yet the alternate screen was left: what the test runner
        // printed before curses started is visible again and the UI is gone.
        let screen = try tmux.capture()
        #expect(screen.contains { $0.contains("Test child() started") })
        #expect(!screen.contains { $0.contains("So What") })
    }

    @Test(.enabled(if: childLog == nil))
    func stopBeforeRunMeansRunNeverStarts() {
        let sent = Mutex<[RadioCommand]>([])
        let app = TerminalApp(keymap: .standard) { command in sent.withLock { $0.append(command) } }
        app.stop()
        app.run()  // must return at once, without touching the terminal or sending anything
        #expect(sent.withLock { $0 } == [])
    }

    @Test(.enabled(if: childLog == nil))
    func keysDriveTheRadioAndTheScreenFollows() throws {
        let log = Self.temporaryLog()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let tmux = try TmuxDriver(command: try Self.childCommand(log: log, locale: "LANG=C.UTF-8"),
                                  columns: 80, rows: 24)
        #expect(try tmux.waitForScreen(containing: "So What ♥"))
        var screen = try tmux.capture()
        #expect(screen[0].hasPrefix(" Jazz FM ") && screen[0].hasSuffix(" playing"))
        #expect(DisplayWidth.width(of: screen[0]) == 79, "80 columns less the trailing space tmux trims")
        #expect(screen[23] == "  space toggle  n skip  l like  b trash  c channels  ? help  q quit")

        try tmux.send("l")
        #expect(try tmux.waitForScreen(containing: "So What ♡"))
        try tmux.send("n")
        #expect(try tmux.waitForScreen(containing: "晴天 ♡"))
        // ncurses and DisplayWidth agree on CJK: the times end where the bar says.
        screen = try tmux.capture()
        #expect(screen[3] == "  周杰伦")
        #expect(screen[6].hasSuffix(" / 4:29") && DisplayWidth.width(of: screen[6]) == 78, "\(screen[6])")

        try tmux.send("c")
        #expect(try tmux.waitForScreen(containing: "Channels"))
        // The list opens on the current channel (Jazz FM, 7); the next one is 红心兆赫 (-3).
        #expect(try tmux.capture().contains("  > Jazz FM ♪                                                                7"))
        try tmux.send("Down", "Enter")
        #expect(try tmux.waitForScreen(containing: " 红心兆赫 "))
        try tmux.send("?")
        #expect(try tmux.waitForScreen(containing: "mhz keys"))
        try tmux.send("x")
        #expect(try tmux.waitForScreen(containing: "晴天 ♡"))

        try tmux.resize(columns: 50, rows: 12)
        #expect(try tmux.wait { try tmux.capture().first.map { DisplayWidth.width(of: $0) == 49 } ?? false })
        #expect(try tmux.capture()[0] == DisplayWidth.spread(" 红心兆赫", "playing", to: 49))

        try tmux.send("q")
        #expect(try tmux.wait { try tmux.paneIsDead() })
        #expect(Self.logLines(log) == ["unlike", "skip", "channel(\"-3\")", "quit", "returned"])
        // Curses mode was left: the child's test report is on the normal screen.
        #expect(try tmux.capture().contains { $0.contains("Test run with 1 test") })
    }

    @Test(.enabled(if: childLog == nil))
    func sigtermQuitsAndRestoresUnderCLocale() throws {
        let log = Self.temporaryLog()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let tmux = try TmuxDriver(command: try Self.childCommand(log: log, locale: "LC_ALL=C"),
                                  columns: 40, rows: 10)
        #expect(try tmux.waitForScreen(containing: "So What ♥"))
        try tmux.send("n")
        // Under LC_ALL=C the screen still switches LC_CTYPE to UTF-8 to show CJK.
        #expect(try tmux.waitForScreen(containing: "晴天 ♡"))
        kill(try tmux.panePID(), SIGTERM)
        #expect(try tmux.wait { try tmux.paneIsDead() })
        #expect(Self.logLines(log) == ["skip", "quit", "returned"])
        #expect(try tmux.capture().contains { $0.contains("Test run with 1 test") })
    }
}

/// A radio that answers commands as the real one would, enough to watch the screen
/// follow: toggle, like/unlike, skip to the next fixture, switch channel, volume.
final class FakeRadio: Sendable {
    private struct State {
        var snapshot = Fixtures.ascii
        var app: TerminalApp?
        var log: [String] = []
    }

    private let state = Mutex(State())
    private let path: String
    /// Called after a `.toggle` was handled (the stop test uses it).
    nonisolated(unsafe) var onToggle: (@Sendable () -> Void)?

    init(log path: String) {
        self.path = path
    }

    /// Connects the app and shows the first snapshot.
    func attach(_ app: TerminalApp) {
        let snapshot = state.withLock { $0.app = app; return $0.snapshot }
        app.update(snapshot)
    }

    /// Appends a line to the log file.
    func record(_ line: String) {
        // Written under the lock: two threads writing whole copies could land out of order.
        state.withLock { state in
            state.log.append(line)
            try? (state.log.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    /// Whether `line` was logged.
    func hasRecorded(_ line: String) -> Bool {
        state.withLock { $0.log.contains(line) }
    }

    /// Applies a command and publishes the new snapshot.
    func handle(_ command: RadioCommand) {
        switch command {
        case .channel(let id): record("channel(\"\(id)\")")
        default: record(command.word)
        }
        let (snapshot, app) = state.withLock { state -> (RadioSnapshot, TerminalApp?) in
            switch command {
            case .toggle: state.snapshot.paused.toggle()
            case .like: state.snapshot.track?.liked = true
            case .unlike: state.snapshot.track?.liked = false
            case .skip, .trash:
                let channel = state.snapshot.channel
                state.snapshot = Fixtures.chinese
                state.snapshot.channel = channel
                state.snapshot.paused = false
                state.snapshot.problem = nil
            case .channel(let id): state.snapshot.channel = state.snapshot.channels.first { $0.id == id }
            case .volume(let volume): state.snapshot.volume = volume
            default: break
            }
            return (state.snapshot, state.app)
        }
        app?.update(snapshot)
        if command == .toggle { onToggle?() }
        if command == .skip && ProcessInfo.processInfo.environment["MHZ_TUI_CRASH_ON_SKIP"] != nil {
            fatalError("deliberate crash to test the terminal restore")
        }
    }
}
