import Foundation
import Glibc
import Radio
import Synchronization

/// The interactive front end: draws the latest `RadioSnapshot` and turns key presses into
/// `RadioCommand`s, and runs the login dialog against a `LoginService`.
///
/// Threading: `run()` blocks the thread that calls it and makes every ncurses call there
/// (ncurses is not thread-safe). `update(_:)` and `stop()` may be called from any thread;
/// they only touch the shared state under a `Mutex`, and the UI thread picks changes up
/// within one poll interval (at most 200 ms, 25 ms right after a key press).
///
/// Redraws happen only when something visible changed — a snapshot that changed more
/// than the position, the terminal size, the screen in front, a notice expiring, or
/// (while playing) the elapsed second on the clock — so a playing radio wakes a few times
/// a second and draws once a second.
///
/// Covers: `showCover(_:)` names the current song's image, and the renderer given at init
/// draws it as `CoverArt` on a thread of its own (it runs a program for tens of
/// milliseconds; the UI thread must keep reading keys). The loop starts a drawing when
/// the file or the cover's area changes, and shows the result only while it is still for
/// the current file and size.
public final class TerminalApp: Sendable {
    private struct Shared {
        var snapshot = RadioSnapshot()
        var version: UInt64 = 0
        var receivedAt = ContinuousClock.now
        var stopRequested = false
        var running = false
        var uiThread: pthread_t?
        /// The login service's answers, with the dialog they belong to, not yet applied.
        var loginAnswers: [(answer: LoginAnswer, generation: Int)] = []
        /// The cover file and its drawings.
        var cover = CoverState()
    }

    /// What was last drawn, to decide whether drawing again would change anything.
    private struct DrawnState: Equatable {
        var version: UInt64
        var rows: Int
        var columns: Int
        var revision: Int
        var second: Int
        var notice: Bool
        var cover: Int
    }

    private let shared = Mutex(Shared())
    private let keymap: Keymap
    private let send: @Sendable (RadioCommand) -> Void
    private let login: (any LoginService)?
    private let coverRenderer: CoverRenderer?
    private let variety: (any VarietyDial)?

    /// Creates the front end. `send` is called on the UI thread for every command the
    /// user gives; it should hand the command to the radio and return quickly. `login`
    /// performs what the login dialog asks; without it the login key says login is not
    /// available here. `coverRenderer` draws the file given to `showCover(_:)`; without
    /// it no cover is shown. `variety` is the dial the variety keys turn; without it they
    /// do nothing.
    public init(keymap: Keymap, login: (any LoginService)? = nil, coverRenderer: CoverRenderer? = nil,
                variety: (any VarietyDial)? = nil, send: @escaping @Sendable (RadioCommand) -> Void) {
        self.keymap = keymap
        self.login = login
        self.coverRenderer = coverRenderer
        self.variety = variety
        self.send = send
    }

    /// Whether standard input and output are a terminal ncurses can drive; when false,
    /// `run()` cannot start and the caller should go headless.
    public static var isSupported: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 && getenv("TERM") != nil
    }

    /// Stores the latest state to draw. Thread-safe and cheap: no drawing happens here.
    ///
    /// A snapshot that only moves the position (the player's progress, a few times a
    /// second) does not count as a change: the clock is extrapolated from it and redrawn
    /// when its second turns, so progress alone costs one draw a second.
    public func update(_ snapshot: RadioSnapshot) {
        shared.withLock { shared in
            if !Self.differsOnlyInPosition(shared.snapshot, snapshot) { shared.version &+= 1 }
            shared.snapshot = snapshot
            shared.receivedAt = .now
        }
    }

    /// Shows `file`, a PNG or JPEG, as the current song's cover beside its lines on the
    /// now-playing screen, when the terminal is large enough (see `CoverArea`); nil
    /// takes the cover down. Thread-safe and cheap: the drawing happens later, off the
    /// UI thread. A new file hides the old cover with the next draw, before the new one
    /// is ready.
    public func showCover(_ file: URL?) {
        shared.withLock { $0.cover.show(file) }
    }

    /// Whether `new` is `old` with at most another position.
    static func differsOnlyInPosition(_ old: RadioSnapshot, _ new: RadioSnapshot) -> Bool {
        var moved = old
        moved.position = new.position
        return moved == new
    }

    /// Runs the UI on the calling thread until the user quits (after sending `.quit`),
    /// SIGINT/SIGTERM/SIGHUP arrives (treated as quit), or `stop()` is called. The
    /// terminal is restored before it returns. Returns at once, sending `.quit`, when the
    /// terminal cannot be used (see `isSupported`); returns at once without sending
    /// anything if already running or if `stop()` was called before.
    ///
    /// While it runs, SIGINT, SIGTERM and SIGHUP are handled here (the previous handlers
    /// come back when it returns): with the terminal in curses mode, the default action
    /// would kill the process without restoring the terminal.
    public func run() {
        let mayRun = shared.withLock { shared -> Bool in
            guard !shared.running, !shared.stopRequested else { return false }
            shared.running = true
            shared.uiThread = pthread_self()
            return true
        }
        guard mayRun else { return }
        defer { shared.withLock { $0.running = false; $0.uiThread = nil } }

        let screen = TerminalScreen()
        guard screen.start() else {
            let message = "mhz: cannot start the terminal UI (no terminal, or TERM unknown) — use --headless.\n"
            var bytes = Array(message.utf8)
            _ = write(STDERR_FILENO, &bytes, bytes.count)
            send(.quit)
            return
        }
        defer { screen.restore() }
        loop(screen)
    }

    /// Makes `run()` return and restores the terminal; a `run()` that has not started yet
    /// will not start. Thread-safe; when called from another thread it waits (up to 2 s)
    /// until the UI thread has left curses mode, so the caller may print or exit right
    /// after. Does not send `.quit`.
    public func stop() {
        let uiThread = shared.withLock { shared -> pthread_t? in
            shared.stopRequested = true
            return shared.running ? shared.uiThread : nil
        }
        guard let uiThread, pthread_equal(uiThread, pthread_self()) == 0 else { return }
        for _ in 0..<200 {
            if !shared.withLock({ $0.running }) { return }
            usleep(10_000)
        }
    }

    // MARK: - The loop

    private func loop(_ screen: TerminalScreen) {
        var state = InteractionState(keymap: keymap,
                                     login: login.map { ($0.destination, $0.needsCaptcha) })
        var drawn: DrawnState?
        var fastUntil = ContinuousClock.now

        while true {
            if TerminalGuard.takePendingSignal() != nil {
                send(.quit)
                return
            }
            let (snapshot, version, receivedAt, stopRequested) = shared.withLock {
                ($0.snapshot, $0.version, $0.receivedAt, $0.stopRequested)
            }
            if stopRequested { return }
            let answers = shared.withLock { shared in
                defer { shared.loginAnswers.removeAll() }
                return shared.loginAnswers
            }
            for (answer, generation) in answers {
                perform(state.loginAnswered(answer, generation: generation, now: .now), state: state, screen: screen)
            }

            let now = ContinuousClock.now
            let shown = state.displayed(snapshot, receivedAt: receivedAt, now: now)
            let cover = coverToDraw(size: screen.size)
            let current = DrawnState(version: version, rows: screen.size.rows, columns: screen.size.columns,
                                     revision: state.revision, second: InteractionState.displayedSecond(shown.position),
                                     notice: state.hasNotice(at: now), cover: cover.revision)
            if current != drawn {
                if current.rows != drawn?.rows || current.columns != drawn?.columns { screen.clear() }
                let nowPlaying = state.mode == .nowPlaying
                let area = nowPlaying && cover.reserved ? cover.area : nil
                let art = nowPlaying ? cover.art.flatMap { art in area.map { (art, $0) } } : nil
                screen.draw(state.frame(shown, width: current.columns, height: current.rows, now: now, cover: area),
                            cover: art)
                drawn = current
            }

            let fast = now < fastUntil || state.isWaitingForLogin || cover.drawing
            let wait = pollInterval(shown: shown, fast: fast)
            switch screen.read(timeoutMilliseconds: wait) {
            case .key(let key):
                let response = state.handle(key, snapshot: shown, now: .now, height: screen.size.rows)
                for command in response.commands { send(command) }
                if let step = response.variety, let variety {
                    state.varietyTurned(to: variety.turn(by: step), step: step, now: .now)
                }
                perform(response, state: state, screen: screen)
                if response.quit { return }
                // The radio's answer to a key usually arrives within a few milliseconds;
                // poll briefly so it shows without the full interval's delay.
                fastUntil = .now + .milliseconds(300)
            case .resize, .ignored, nil:
                continue
            }
        }
    }

    /// The cover for a screen of `size`: its area, whether the frame keeps it free, the
    /// art ready for it, whether a drawing is under way (the loop then polls fast to show
    /// it soon) and the revision that tells the redraw decision something changed.
    /// Starts the drawing the area needs, if none runs.
    private func coverToDraw(size: (rows: Int, columns: Int))
        -> (area: CoverArea?, reserved: Bool, art: CoverArt?, drawing: Bool, revision: Int) {
        guard let coverRenderer else { return (nil, false, nil, false, 0) }
        let area = CoverArea.fitting(width: size.columns, height: size.rows)
        let (request, state) = shared.withLock { shared in (shared.cover.start(for: area), shared.cover) }
        if let request {
            let thread = Thread { [self] in
                let art = coverRenderer(request.file, request.columns, request.rows)
                shared.withLock { $0.cover.finish(request, art: art) }
            }
            thread.name = "mhz.cover"
            thread.start()
        }
        let reserved = state.reserves(area)
        return (area, reserved, reserved ? state.art(for: area) : nil, state.inFlight != nil, state.revision)
    }

    /// Hands a response's login request to the service on a task of its own (the service
    /// waits for the network; the UI thread must not) and tells it when the dialog closed.
    /// Its answer comes back through `shared` and is applied by the loop.
    private func perform(_ response: InteractionState.Response, state: InteractionState, screen: TerminalScreen) {
        guard let login else { return }
        if response.loginClosed { login.dialogClosed() }
        guard let request = response.login else { return }
        let generation = state.loginGeneration
        // A captcha is about 5:1; leave room for the fields and lines around it.
        let columns = max(10, min(60, screen.size.columns - 4))
        let rows = max(2, min(10, screen.size.rows - 10))
        Task.detached { [self] in
            let answer: LoginAnswer
            switch request {
            case .captcha:
                do throws(LoginProblem) {
                    answer = .captcha(try await login.captcha(columns: columns, rows: rows))
                } catch {
                    answer = .captchaFailed(error)
                }
            case .submit(let answers):
                do throws(LoginProblem) {
                    answer = .loggedIn(try await login.logIn(answers))
                } catch {
                    answer = .loginFailed(error)
                }
            }
            self.shared.withLock { $0.loginAnswers.append((answer, generation)) }
        }
    }

    /// How long to wait for a key: 25 ms right after a key press, else up to 200 ms,
    /// shortened to wake just after the displayed second changes while the clock runs.
    private func pollInterval(shown: RadioSnapshot, fast: Bool) -> Int32 {
        if fast { return 25 }
        guard shown.track != nil, !shown.paused, !shown.loading, shown.position.isFinite else { return 200 }
        let untilNextSecond = (shown.position.rounded(.down) + 1 - shown.position) * 1000
        return Int32(min(200, max(5, untilNextSecond + 5)))
    }
}
