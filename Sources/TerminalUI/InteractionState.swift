import Radio

/// Everything the UI remembers between key presses — which screen is open, a short-lived
/// notice, the volume it last asked for, the login dialog's form — and the rules that turn
/// a key into commands or requests for the login service.
/// No terminal and no clock inside: `now` is passed in, so the whole dispatch is tested
/// as plain values. `TerminalApp` owns one on its UI thread.
struct InteractionState {
    /// The screen in front.
    enum Mode: Equatable {
        /// The now-playing screen.
        case nowPlaying
        /// The channel list, with what the user typed and selected.
        case channels(ChannelListView)
        /// The help screen, its body shown from line `first`; ↑ ↓ PgUp PgDn scroll it when it
        /// is taller than the screen, any other key closes it.
        case help(first: Int)
        /// The login dialog.
        case login(LoginForm)
        /// The downloads view.
        case downloads(DownloadsView)
        /// The lyrics view.
        case lyrics(LyricsView)
        /// The history view.
        case history(HistoryView)
    }

    /// What a key press asks of the caller.
    struct Response: Equatable {
        /// Commands to send, in order.
        var commands: [RadioCommand] = []
        /// Whether the UI should leave after sending them.
        var quit = false
        /// Something to ask the login service, for the dialog of `loginGeneration`.
        var login: LoginRequest?
        /// The login dialog closed (its service may clean up).
        var loginClosed = false
        /// Turn the variety dial by this much.
        var variety: Double?
    }

    /// How long a UI-made notice ("nothing playing") stays on the status line.
    static let noticeDuration = Duration.seconds(3)
    /// How long "Logged in … as …" stays on the status line.
    static let noteDuration = Duration.seconds(10)
    /// How long the volume the UI asked for is trusted over the snapshot's: repeated
    /// presses faster than the radio answers must add up instead of repeating one value.
    static let volumeMemory = Duration.milliseconds(1500)
    /// Longest the displayed position runs ahead of the last snapshot: enough to tick
    /// smoothly between updates, short enough not to invent progress through a stall.
    static let maxExtrapolation = 5.0

    /// The key table in effect.
    let keymap: Keymap
    private(set) var mode = Mode.nowPlaying
    private(set) var notice: (error: RadioError, until: ContinuousClock.Instant)?
    /// A message of the UI's own (who logged in), shown instead of the radio's status.
    private(set) var note: (text: String, until: ContinuousClock.Instant)?
    /// The form a new login dialog starts from; nil when no login service was given.
    let loginTemplate: LoginForm?
    /// Counts login dialogs opened, so an answer for a dialog that was closed (and maybe
    /// reopened) is not applied to another.
    private(set) var loginGeneration = 0
    private var requestedVolume: (value: Int, at: ContinuousClock.Instant)?
    /// Bumped on every change that alters what is drawn, so the loop can skip redraws.
    private(set) var revision = 0

    /// Creates the state with the now-playing screen in front. `login` describes the
    /// login service, when there is one: where it logs in and whether it needs a captcha.
    init(keymap: Keymap, login: (destination: String, needsCaptcha: Bool)? = nil) {
        self.keymap = keymap
        loginTemplate = login.map { LoginForm(destination: $0.destination, needsCaptcha: $0.needsCaptcha) }
    }

    /// Applies one key press. `snapshot` is what the user sees (it decides like vs.
    /// unlike and the volume base); `height` is the screen's (how far the lyrics scroll).
    mutating func handle(_ key: Key, snapshot: RadioSnapshot, now: ContinuousClock.Instant,
                         height: Int = 24) -> Response {
        revision += 1
        switch mode {
        case .help(let first):
            let last = HelpView.lastFirst(keymap, height: height), page = HelpView.visibleLines(height: height)
            switch key {
            case .down where last > 0: mode = .help(first: min(last, first + 1))
            case .up where last > 0: mode = .help(first: max(0, first - 1))
            case .pageDown where last > 0: mode = .help(first: min(last, first + page))
            case .pageUp where last > 0: mode = .help(first: max(0, first - page))
            default: mode = .nowPlaying
            }
            return Response()
        case .channels(var list):
            let outcome = list.handle(key, channels: snapshot.channels, keymap: keymap)
            return apply(outcome, keeping: .channels(list), now: now) { Response(commands: [$0]) }
        case .downloads(var view):
            let outcome = view.handle(key, items: snapshot.downloads.items, keymap: keymap)
            return apply(outcome, keeping: .downloads(view), now: now) { Response(commands: [$0]) }
        case .lyrics(var view):
            let outcome = view.handle(key, lyrics: snapshot.lyrics, height: height, keymap: keymap)
            return apply(outcome, keeping: .lyrics(view), now: now) { Response(commands: [$0]) }
        case .history(var view):
            let outcome = view.handle(key, entries: snapshot.history, keymap: keymap)
            return apply(outcome, keeping: .history(view), now: now) { Response(commands: [$0]) }
        case .login(var form):
            let outcome = form.handle(key)
            return apply(outcome, keeping: .login(form), now: now) { Response(login: $0) }
        case .nowPlaying:
            return handleNowPlaying(key, snapshot: snapshot, now: now)
        }
    }

    /// Carries out what a key asked of the view in front: `open` is that view as the key
    /// left it, kept in front unless the outcome closes it; `request` makes the response
    /// that carries out a request. Closing the login dialog tells its service.
    private mutating func apply<Request>(_ outcome: ViewOutcome<Request>, keeping open: Mode,
                                         now: ContinuousClock.Instant, _ request: (Request) -> Response) -> Response {
        let wasLogin = isLoginOpen
        var response = Response()
        switch outcome {
        case .stay: mode = open
        case .close: mode = .nowPlaying
        case .send(let asked):
            mode = open
            response = request(asked)
        case .chose(let asked):
            mode = .nowPlaying
            response = request(asked)
        case .refused(let error):
            mode = open
            notice = (error, now + Self.noticeDuration)
        }
        response.loginClosed = wasLogin && !isLoginOpen
        return response
    }

    /// Applies the login service's answer to the dialog of `generation`; answers for a
    /// dialog that is gone are dropped, except a success, which is announced anyway.
    mutating func loginAnswered(_ answer: LoginAnswer, generation: Int, now: ContinuousClock.Instant) -> Response {
        revision += 1
        let current = generation == loginGeneration
        guard case .login(var form) = mode, current else {
            if case .loggedIn(let name) = answer { note = (loggedInText(name), now + Self.noteDuration) }
            // A captcha that arrives after its dialog closed left its image behind; with no
            // dialog open, nothing else needs it.
            if case .captcha = answer, !isLoginOpen { return Response(loginClosed: true) }
            return Response()
        }
        switch answer {
        case .captcha(let captcha):
            form.captchaArrived(captcha)
        case .captchaFailed(let problem):
            form.captchaFailed(problem)
        case .loginFailed(let problem):
            let next = form.loginFailed(problem)
            mode = .login(form)
            return Response(login: next)
        case .loggedIn(let name):
            note = (loggedInText(name), now + Self.noteDuration)
            notice = nil
            mode = .nowPlaying
            return Response(loginClosed: true)
        }
        mode = .login(form)
        return Response()
    }

    /// Shows where the variety dial stands now, after a turn by `step`.
    mutating func varietyTurned(to value: Double, step: Double, now: ContinuousClock.Instant) {
        revision += 1
        note = (VarietyNote.text(value, step: step), now + Self.noticeDuration)
    }

    private func loggedInText(_ name: String) -> String {
        LoginDialogView.successText(destination: loginTemplate?.destination ?? "the station", name: name)
    }

    /// Whether the login dialog is in front.
    var isLoginOpen: Bool {
        if case .login = mode { return true }
        return false
    }

    /// Whether the login dialog waits for the service (the loop then polls faster).
    var isWaitingForLogin: Bool {
        guard case .login(let form) = mode else { return false }
        return form.phase != .editing
    }

    private mutating func handleNowPlaying(_ key: Key, snapshot: RadioSnapshot,
                                           now: ContinuousClock.Instant) -> Response {
        guard let binding = keymap.binding(for: key, in: [.global, .song]) else { return Response() }
        // On a live channel the radio's own keys (login, variety, downloads…) would act on a
        // radio that is not playing: one line says so instead.
        if let live = snapshot.live, !binding.effect.appliesToLive {
            notice = (.notOnLive(binding.action, returnsToRadio: live.returnsToRadio), now + Self.noticeDuration)
            return Response()
        }
        // Refuse song actions once, here, rather than sending commands the radio can only
        // answer with an error.
        if binding.context == .song && snapshot.track == nil {
            notice = (.nothingPlaying, now + Self.noticeDuration)
            return Response()
        }
        switch binding.effect {
        case .openChannels:
            mode = .channels(ChannelListView(selecting: snapshot.channel?.id))
            return Response()
        case .openDownloads:
            mode = .downloads(DownloadsView(selecting: snapshot.downloads.active.first?.id))
            return Response()
        case .openLyrics:
            mode = .lyrics(LyricsView())
            return Response()
        case .openHistory:
            mode = .history(HistoryView())
            return Response()
        case .help:
            mode = .help(first: 0)
            return Response()
        case .openLogin:
            guard let loginTemplate else {
                notice = (.unsupported("login"), now + Self.noticeDuration)
                return Response()
            }
            loginGeneration += 1
            mode = .login(loginTemplate)
            return Response(login: loginTemplate.needsCaptcha ? .captcha : nil)
        case .quit:
            return Response(commands: [.quit], quit: true)
        case .varietyStep(let step):
            return Response(variety: step)
        case .volumeStep(let step):
            var base = snapshot
            if let requested = requestedVolume, now - requested.at < Self.volumeMemory {
                base.volume = requested.value
            }
            guard let command = binding.effect.command(for: base), case .volume(let value) = command else {
                return Response()
            }
            requestedVolume = (value, now)
            return value == base.volume && step != 0 ? Response() : Response(commands: [command])
        default:
            return Response(commands: binding.effect.command(for: snapshot).map { [$0] } ?? [])
        }
    }

    /// The snapshot as it should be drawn at `now`: the position advanced by the time
    /// since it arrived while playing (so the clock ticks between updates), and a live
    /// notice shown as the problem.
    func displayed(_ snapshot: RadioSnapshot, receivedAt: ContinuousClock.Instant,
                   now: ContinuousClock.Instant) -> RadioSnapshot {
        var shown = snapshot
        if snapshot.track != nil && !snapshot.paused && !snapshot.loading && snapshot.position.isFinite {
            let elapsed = Self.seconds(now - receivedAt)
            shown.position += min(max(0, elapsed), Self.maxExtrapolation)
            if let duration = snapshot.effectiveDuration { shown.position = min(shown.position, duration) }
        }
        if let notice, now < notice.until { shown.problem = notice.error }
        return shown
    }

    /// Whether a notice or note is on screen at `now` (part of the redraw decision).
    func hasNotice(at now: ContinuousClock.Instant) -> Bool {
        (notice.map { now < $0.until } ?? false) || (note.map { now < $0.until } ?? false)
    }

    /// The frame for the screen in front at `now` (which decides whether a note shows).
    /// `cover` is the area the now-playing screen leaves free for a cover; the other
    /// screens have none.
    func frame(_ shown: RadioSnapshot, width: Int, height: Int, now: ContinuousClock.Instant = .now,
               cover: CoverArea? = nil) -> Frame {
        switch mode {
        case .nowPlaying:
            let text = note.flatMap { now < $0.until ? $0.text : nil }
            return NowPlayingView.frame(shown, width: width, height: height, keymap: keymap, note: text, cover: cover)
        case .login(let form): return LoginDialogView.frame(form, width: width, height: height)
        case .channels(let list): return list.frame(shown, width: width, height: height, keymap: keymap)
        case .help(let first): return HelpView.frame(keymap, width: width, height: height, first: first)
        case .downloads(let view): return view.frame(shown, width: width, height: height, keymap: keymap)
        case .lyrics(let view): return view.frame(shown, width: width, height: height, keymap: keymap)
        case .history(let view): return view.frame(shown, width: width, height: height, keymap: keymap)
        }
    }

    /// The whole second the clock shows for `position`, for the redraw decision; -1 for
    /// positions that cannot be shown (NaN, infinite, absurd), which never tick.
    static func displayedSecond(_ position: Double) -> Int {
        guard position.isFinite, abs(position) < 1e9 else { return -1 }
        return Int(position.rounded(.down))
    }

    /// `Duration` as fractional seconds.
    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
