import Companions
import Downloads
import Radio

/// Everything that follows a playing radio beside its front end: the control socket's
/// followers and the event hook, which get the same JSON lines headless stdout prints, and
/// the scrobbler, which gets the events themselves.
struct RadioObservers: Sendable {
    /// The control socket, when it could be opened.
    let control: ControlServer?
    /// `[hooks] event`, when configured.
    let hooks: HookRunner?
    /// `[scrobble]`, when a service is configured.
    var scrobbler: Scrobbler? = nil

    /// The event hook `[hooks]` configures, if any, logging to mhz's log file.
    static func hooks(_ runtime: RadioRuntime) -> HookRunner? {
        runtime.config.hooks.event.map {
            HookRunner(command: $0, timeout: .milliseconds(Int(runtime.config.hooks.timeout * 1000)),
                       logFile: runtime.paths.logFile)
        }
    }

    /// An event: broadcast to followers; run through the hook unless it is a `status` or
    /// `history`, which answer one asker rather than telling of something that happened.
    func narrate(_ event: RadioEvent) {
        scrobbler?.follow(event)
        guard control != nil || hooks != nil else { return }
        let line = EventJSON.line(event)
        control?.broadcast(line)
        if let hooks, let name = Self.hookName(event) { hooks.run(event: name, json: line) }
    }

    /// A download event: every one to followers (as headless stdout has them); the hook
    /// hears of a download once, when it completed or failed.
    func downloaded(_ event: DownloadEvent) {
        guard control != nil || hooks != nil else { return }
        let line = DownloadJSON.line(event.task)
        control?.broadcast(line)
        guard let hooks, !event.isProgress else { return }
        switch event.task.state {
        case .completed, .failed: hooks.run(event: EventName.download.rawValue, json: line)
        default: break
        }
    }

    /// Closes the socket (unless `closingControl` is false: the next session answers
    /// through it) and lets a running hook finish (briefly).
    func stop(closingControl: Bool = true) {
        if closingControl { control?.stop() }
        hooks?.stop()
    }

    /// The hook's argument: the event's own name, as its JSON line's `event` says; nil for
    /// a line that answers one asker.
    static func hookName(_ event: RadioEvent) -> String? {
        let name = EventName(event)
        return name.answersAsker ? nil : name.rawValue
    }
}
