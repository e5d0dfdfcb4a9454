import Foundation
import Radio
import Synchronization
import TerminalUI

// The terminal UI's real ncurses loop, driven by a fake radio, for the tmux tests in
// TerminalUITests: they start this program in tmux, press keys and read the screen.
// Environment: MHZ_TUI_LOG (required) — file the radio logs the commands it got to;
// MHZ_TUI_STOP_ON_TOGGLE — call stop() from another thread when toggle arrives;
// MHZ_TUI_CRASH_ON_SKIP — trap on skip, to test the crash-path restore;
// MHZ_TUI_COVER — an image shown as the first song's cover (drawn by chafa from PATH);
// skip takes it down, as a next song without a cover would.

let environment = ProcessInfo.processInfo.environment
guard let logPath = environment["MHZ_TUI_LOG"] else {
    FileHandle.standardError.write(Data("TUIHarness: set MHZ_TUI_LOG to a file path\n".utf8))
    exit(2)
}
let radio = FakeRadio(log: logPath)
let coverFile = environment["MHZ_TUI_COVER"].map { URL(fileURLWithPath: $0) }
let app = TerminalApp(keymap: .standard, coverRenderer: coverFile == nil ? nil : ChafaCover.render) {
    radio.handle($0)
}
radio.attach(app)
app.showCover(coverFile)
let stopOnToggle = environment["MHZ_TUI_STOP_ON_TOGGLE"] != nil
/// Signalled once the stopping thread has logged: the process must not end before that line.
let stopLogged = DispatchSemaphore(value: 0)
if stopOnToggle {
    radio.onToggle = {
        // As the composition root would from its own signal handling: another thread.
        Thread.detachNewThread {
            app.stop()
            radio.record("stop returned")
            stopLogged.signal()
        }
    }
}
app.run()
radio.record("returned")
if stopOnToggle {
    // A bound, not a pause: the stopping thread signals at once; only a loop that ended some
    // other way (no toggle came) waits this long, and its log then shows no "stop returned".
    _ = stopLogged.wait(timeout: .now() + 10)
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
        if command == .skip || command == .trash { app?.showCover(nil) }
        if command == .toggle { onToggle?() }
        if command == .skip && ProcessInfo.processInfo.environment["MHZ_TUI_CRASH_ON_SKIP"] != nil {
            fatalError("deliberate crash to test the terminal restore")
        }
    }
}
