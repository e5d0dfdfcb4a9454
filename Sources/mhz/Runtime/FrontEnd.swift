import Companions
import Dispatch
import Downloads
import Foundation
import StationLink
import Synchronization
import Logging
import Radio
import TerminalUI

/// A way of presenting the radio: the terminal UI or headless JSON lines.
protocol FrontEnd: Sendable {
    /// Begins taking commands.
    func start(commands: CommandPump)
    /// What to draw changed.
    func show(_ snapshot: RadioSnapshot)
    /// Something happened.
    func narrate(_ event: RadioEvent, logger: Logger)
    /// Something went wrong beside the radio's own flow (the network seam found the login
    /// expired): show it as the radio's own errors are shown.
    func alert(_ error: RadioError, logger: Logger)
    /// The listener logged in: an alert about the old session (expired) is over.
    func clearAlert()
    /// A download changed or progressed (the terminal UI draws downloads from the snapshot).
    func downloaded(_ event: DownloadEvent)
    /// The song's cover as a local file, or nil for none (yet).
    func showCover(_ file: URL?)
    /// A lyric line became current; `line` is its headless JSON line.
    func lyric(_ change: LyricTracker.Change, line: String)
    /// A song's lyrics arrived (none: no lines), before its first current line.
    func lyrics(_ lyrics: SongLyrics)
    /// The radio quit: release the terminal.
    func stop()
}

/// `--headless`: commands on stdin, one JSON object per event on stdout.
final class HeadlessFrontEnd: FrontEnd {
    private let output = FileHandle.standardOutput

    /// Reads stdin on a thread of its own, one command per line; a line that is not a
    /// command (or is longer than ``LineReader/commandLineBytes``) becomes an error event,
    /// and EOF just ends the reading.
    func start(commands: CommandPump) {
        let output = self.output
        let reader = Thread {
            let lines = LineReader(fd: STDIN_FILENO, timeout: nil, maxLineBytes: LineReader.commandLineBytes)
            // EOF on stdin does not stop playback (the radio guide promises it): the reader just ends.
            while let line = lines.next() {
                do throws(CommandParseError) {
                    guard let text = try line.commandText() else { continue }
                    commands.send(try RadioCommand.parse(text))
                } catch {
                    output.write(Data((EventJSON.error(ErrorText.describe(error, for: .reader(also: []))) + "\n").utf8))
                }
            }
        }
        reader.name = "mhz.stdin"
        reader.start()
    }

    /// Nothing to draw: headless output is events only.
    func show(_ snapshot: RadioSnapshot) {}

    /// One JSON line on stdout.
    func narrate(_ event: RadioEvent, logger: Logger) {
        output.write(Data((EventJSON.line(event) + "\n").utf8))
    }

    /// An error event, logged too.
    func alert(_ error: RadioError, logger: Logger) {
        logger.notice("\(ErrorText.describe(error))")
        narrate(.error(error), logger: logger)
    }

    /// Nothing stays on screen to clear.
    func clearAlert() {}

    /// One JSON line per download event, as `mhz download --json` writes them.
    func downloaded(_ event: DownloadEvent) {
        output.write(Data((DownloadJSON.line(event.task) + "\n").utf8))
    }

    /// Headless shows no pictures.
    func showCover(_ file: URL?) {}

    /// The `lyric` line, as a lyric line is reached.
    func lyric(_ change: LyricTracker.Change, line: String) {
        output.write(Data((line + "\n").utf8))
    }

    /// Headless tells lines as they are reached, not whole sheets.
    func lyrics(_ lyrics: SongLyrics) {}

    /// Nothing to release: stdout is left as it is.
    func stop() {}
}

/// The ncurses terminal UI, on a thread of its own (ncurses is not thread-safe, so every
/// ncurses call happens there).
final class TerminalFrontEnd: FrontEnd {
    private let keymap: Keymap
    private let login: (any LoginService)?
    private let variety: VarietyKnob?
    private let app = Mutex<TerminalApp?>(nil)
    private let pending = Mutex<RadioSnapshot?>(nil)
    private let pendingCover = Mutex<URL?>(nil)
    /// The lyrics of the song they came for, with the line reached last (shown only while
    /// that song plays).
    private let songLyrics = Mutex<SongLyrics?>(nil)
    /// The last snapshot and an alert shown on it while the radio has no problem of its
    /// own to show, until `until`.
    private let alerting = Mutex<(last: RadioSnapshot?, alert: RadioError?, until: ContinuousClock.Instant)>(
        (nil, nil, .now))
    /// How long an alert stays on the status line.
    static let alertDuration = Duration.seconds(15)
    private let finished = DispatchSemaphore(value: 0)
    /// Where descriptor 2 points while the UI is up.
    private let logFile: URL
    private let redirect = Mutex<StandardErrorRedirect?>(nil)

    /// A front end with `keymap`; `login` serves the login dialog; `variety` is the dial the
    /// variety keys turn; while it runs, whatever C libraries write to standard error goes
    /// to `logFile`.
    init(keymap: Keymap, login: (any LoginService)?, variety: VarietyKnob? = nil, logFile: URL) {
        self.keymap = keymap
        self.login = login
        self.variety = variety
        self.logFile = logFile
    }

    /// Starts the ncurses loop on its own thread, drawing the last snapshot at once.
    func start(commands: CommandPump) {
        let app = TerminalApp(keymap: keymap, login: login, coverRenderer: CoverText.renderer, variety: variety,
                              send: { commands.send($0) })
        self.app.withLock { $0 = app }
        if let snapshot = pending.withLock({ $0 }) { app.update(snapshot) }
        app.showCover(pendingCover.withLock { $0 })
        // From here until stop(), nothing but the UI reaches the terminal.
        let redirect = StandardErrorRedirect(to: logFile)
        self.redirect.withLock { $0 = redirect }
        let finished = self.finished
        let thread = Thread {
            app.run()
            finished.signal()
        }
        thread.name = "mhz.ui"
        thread.start()
    }

    /// Hands the snapshot to the UI thread, with a recent alert shown on it while the radio
    /// has no problem of its own to show.
    func show(_ snapshot: RadioSnapshot) {
        var withLyric = snapshot
        if let lyrics = songLyrics.withLock({ $0 }), lyrics.sid == snapshot.track?.sid {
            withLyric.lyrics = lyrics
            withLyric.lyricLine = lyrics.currentLine
        }
        let snapshot = alerting.withLock { state -> RadioSnapshot in
            let snapshot = withLyric
            state.last = snapshot
            guard let alert = state.alert, snapshot.problem == nil, ContinuousClock.now < state.until else { return snapshot }
            var shown = snapshot
            shown.problem = alert
            return shown
        }
        if let app = app.withLock({ $0 }) { app.update(snapshot) } else { pending.withLock { $0 = snapshot } }
    }

    /// Shows `file` (a PNG or JPEG) as the current song's cover; nil takes it down.
    func showCover(_ file: URL?) {
        if let app = app.withLock({ $0 }) { app.showCover(file) } else { pendingCover.withLock { $0 = file } }
    }

    /// Shows the line under the song's lines, with the next snapshot and at once.
    func lyric(_ change: LyricTracker.Change, line: String) {
        songLyrics.withLock { lyrics in
            if lyrics?.sid == change.sid { lyrics?.current = change.index }
        }
        if let last = alerting.withLock({ $0.last }) { show(last) }
    }

    /// Keeps the song's lyrics for the lyrics view, and shows them at once.
    func lyrics(_ lyrics: SongLyrics) {
        songLyrics.withLock { $0 = lyrics }
        if let last = alerting.withLock({ $0.last }) { show(last) }
    }

    /// Events go to the log only: the screen shows the snapshot.
    func narrate(_ event: RadioEvent, logger: Logger) { logger.info("\(EventJSON.line(event))") }

    /// Shows `error` on the status line for ``alertDuration``.
    func alert(_ error: RadioError, logger: Logger) {
        logger.notice("\(ErrorText.describe(error))")
        let last = alerting.withLock { state -> RadioSnapshot? in
            state.alert = error
            state.until = .now + Self.alertDuration
            return state.last
        }
        if let last { show(last) }
    }

    /// Takes the alert down at once.
    func clearAlert() {
        let last = alerting.withLock { state -> RadioSnapshot? in
            state.alert = nil
            return state.last
        }
        if let last { show(last) }
    }

    /// Downloads are drawn from the snapshot.
    func downloaded(_ event: DownloadEvent) {}

    /// Returns once the terminal is restored, with standard error on it again.
    func stop() {
        guard let app = app.withLock({ $0 }) else { return }
        app.stop()
        finished.wait()
        redirect.withLock { redirect in
            redirect?.restore()
            redirect = nil
        }
    }
}
